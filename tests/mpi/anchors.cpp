// Reading the anchor corpus and choosing the plans of its cases.

#include "anchors.hpp"

#include <fstream>
#include <map>
#include <sstream>

#include "redist/synth/plan_text.hpp"
#include "redist/synth/synthesize.hpp"

namespace redist::mpi::testing {

namespace {

/// `text` without leading and trailing blanks.
std::string trim(const std::string& text) {
  const auto begin = text.find_first_not_of(" \t");
  if (begin == std::string::npos) return "";
  return text.substr(begin, text.find_last_not_of(" \t") - begin + 1);
}

/// The `|`-separated fields of `line` before any `#`, trimmed.
std::vector<std::string> fields(const std::string& line) {
  std::vector<std::string> out;
  std::istringstream in(line.substr(0, line.find('#')));
  for (std::string field; std::getline(in, field, '|');) out.push_back(trim(field));
  return out;
}

/// Plans for anchors the synthesizer leaves out of scope, as plan text after the
/// source line.
const std::map<std::string, std::string>& hand_plans() {
  static const std::map<std::string, std::string> plans = {
      // One reduce-scatter over all three axes, then a gather back to {b}.
      {"partial_to_reduce_scatter", "reduce_scatter(dim=0, axes={b, a, c})\nall_gather(dim=0, axes={a, c})\n"},
  };
  return plans;
}

}  // namespace

Result<std::vector<Anchor>> read_anchors(const std::string& path) {
  std::ifstream in(path);
  if (!in) return invalid_error("cannot read " + path);
  std::vector<Anchor> anchors;
  int number = 0;
  for (std::string line; std::getline(in, line);) {
    ++number;
    const auto f = fields(line);
    if (f.size() < 4 || f[0].empty()) continue;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    auto mesh = parse_mesh(f[1]);
    if (!mesh) return invalid_error(where + mesh.error().to_string());
    auto target_mesh = f.size() > 4 ? parse_mesh(f[4]) : mesh;
    if (!target_mesh) return invalid_error(where + target_mesh.error().to_string());
    auto source = parse_type(f[2], *mesh);
    if (!source) return invalid_error(where + source.error().to_string());
    auto target = parse_type(f[3], *target_mesh);
    if (!target) return invalid_error(where + target.error().to_string());
    anchors.push_back({f[0], *mesh, *source, *target_mesh, *target});
  }
  return anchors;
}

Result<Plan> anchor_plan(const Anchor& anchor) {
  auto plan = synthesize(anchor.mesh, anchor.source, anchor.target_mesh, anchor.target);
  if (plan || plan.error().kind != Error::Kind::unsupported) return plan;
  const auto hand = hand_plans().find(anchor.name);
  if (hand == hand_plans().end()) return plan.error();
  return parse_plan("mesh " + to_string(anchor.mesh) + "\nsource " + to_string(anchor.source) + "\n" + hand->second +
                    "target " + to_string(anchor.target) + "\n");
}

}  // namespace redist::mpi::testing
