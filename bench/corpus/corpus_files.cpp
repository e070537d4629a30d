// The anchors and the Shardy suite as cases, read with the synthesis tests' loaders.

#include <fstream>
#include <map>

#include "corpus.hpp"
#include "redist/plan/typing.hpp"
#include "synth/anchor_cases.hpp"
#include "synth/shardy_cases.hpp"

namespace redist::corpus {

namespace {

/// The case from its texts, or one with `skip` saying which text does not parse.
Case parsed_case(const std::string& suite, const std::string& name, const std::string& mesh_text,
                 const std::string& target_mesh_text, const std::string& src, const std::string& dst) {
  Case c{suite, name, {}, {}, {}, {}, std::nullopt, ""};
  auto mesh = parse_mesh(mesh_text);
  auto target_mesh = parse_mesh(target_mesh_text.empty() ? mesh_text : target_mesh_text);
  if (!mesh || !target_mesh) {
    c.skip = "the mesh is not expressible in our notation";
    return c;
  }
  c.mesh = *mesh;
  c.target_mesh = *target_mesh;
  auto s = parse_type(src, c.mesh);
  auto d = parse_type(dst, c.target_mesh);
  if (!s || !d) {
    c.skip = "the types do not parse: " + (s ? d.error() : s.error()).to_string();
    return c;
  }
  c.src = *s;
  c.dst = *d;
  return c;
}

/// The Shardy suite's meshes by name, in our notation.
std::map<std::string, Mesh> shardy_meshes(const std::string& path) {
  std::ifstream in(path);
  const auto json = nlohmann::json::parse(in);
  std::map<std::string, Mesh> out;
  for (const auto& [name, text] : json["meshes"].items())
    if (auto mesh = parse_mesh(testing::mesh_text(text.get<std::string>()))) out.emplace(name, *mesh);
  return out;
}

/// Shardy's plan for `c`, ending on the target mesh; or why it cannot be built.
std::string attach_shardy_plan(Case& c, const std::vector<std::string>& lines, const std::map<std::string, Mesh>& meshes) {
  const auto steps = testing::shardy_steps(lines, c.mesh, c.src, meshes);
  if (!steps.error.empty()) return "Shardy's plan does not translate: " + steps.error;
  Plan plan{c.mesh, c.src, steps.steps, c.dst};
  // Shardy elides the device-order change of replicated data (`return %arg0`); our
  // plans end on the target mesh, so that permute is added (free when nothing moves).
  auto states = type_plan(plan);
  if (!states) return "Shardy's plan does not type-check: " + states.error().to_string();
  const Mesh& last = states->empty() ? c.mesh : states->back().mesh;
  if (!(last == c.target_mesh)) plan.steps.emplace_back(CollectivePermute{c.dst, c.target_mesh});
  if (auto again = type_plan(plan); !again) return "Shardy's plan does not reach the target: " + again.error().to_string();
  c.shardy = std::move(plan);
  return "";
}

}  // namespace

std::vector<Case> anchor_cases(const std::string& path) {
  std::vector<Case> out;
  for (const auto& a : testing::load_anchors(path)) out.push_back(parsed_case("anchor", a.name, a.mesh, a.target_mesh, a.src, a.dst));
  return out;
}

std::vector<Case> shardy_cases(const std::string& path) {
  const auto meshes = shardy_meshes(path);
  std::vector<Case> out;
  for (const auto& sc : testing::load_shardy_cases(path)) {
    if (!sc.skip.empty()) {
      out.push_back(Case{"shardy", sc.name, {}, {}, {}, {}, std::nullopt, sc.skip});
      continue;
    }
    Case c = parsed_case("shardy", sc.name, sc.mesh, sc.target_mesh, sc.src, sc.dst);
    if (c.skip.empty() && !c.mesh.same_axes(c.target_mesh)) c.skip = "the meshes have different axes";
    if (c.skip.empty()) c.skip = attach_shardy_plan(c, sc.check_lines, meshes);
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace redist::corpus
