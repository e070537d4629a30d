#pragma once
// The Shardy reshard suite (tests/data/shardy_reshard_to_collectives.json) translated to
// redist: Shardy's mesh and sharding syntax to our notation, and the collectives Shardy
// emits (its check_lines) to a plan in our IR, so that both plans can be measured alike.

#include <nlohmann/json.hpp>

#include <fstream>
#include <map>
#include <ostream>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/plan/plan.hpp"

namespace redist::testing {

/// One case of the suite, as text of our notation; `skip` says why it is out of scope.
struct ShardyCase {
  std::string name;
  std::string mesh;         // our notation
  std::string target_mesh;  // our notation
  std::string src;          // our notation
  std::string dst;
  std::vector<std::string> check_lines;
  std::string skip;
};

/// Test names and failure messages show the case by its name.
inline void PrintTo(const ShardyCase& c, std::ostream* os) { *os << c.name; }

/// `<["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>` as `{x:2, y:2} devices=[3, 2, 1, 0]`.
inline std::string mesh_text(const std::string& shardy) {
  static const std::regex axis_re(R"re("(\w+)"=(\d+))re");
  static const std::regex ids_re(R"re(device_ids=\[([\d, ]*)\])re");
  std::string out = "{";
  for (auto it = std::sregex_iterator(shardy.begin(), shardy.end(), axis_re); it != std::sregex_iterator(); ++it)
    out += (out.size() > 1 ? ", " : "") + (*it)[1].str() + ":" + (*it)[2].str();
  out += "}";
  std::smatch ids;
  if (std::regex_search(shardy, ids, ids_re)) out += " devices=[" + ids[1].str() + "]";
  return out;
}

/// The per-dim axis lists of a Shardy dim-sharding list `[{"x", "y":(1)2}, {}, {"z", ?}]`
/// starting at `text[0] == '['`, in our notation (`x,y:(1)2`); `?` (open) is dropped.
inline std::vector<std::string> dim_axes(const std::string& text) {
  std::vector<std::string> dims;
  static const std::regex ref_re(R"re("(\w+)"(:\(\d+\)\d+)?)re");
  std::size_t at = 0;
  while ((at = text.find('{', at)) != std::string::npos) {
    const std::size_t end = text.find('}', at);
    const std::string inner = text.substr(at + 1, end - at - 1);
    std::string axes;
    for (auto it = std::sregex_iterator(inner.begin(), inner.end(), ref_re); it != std::sregex_iterator(); ++it)
      axes += (axes.empty() ? "" : ",") + (*it)[1].str() + (*it)[2].str();
    dims.push_back(axes);
    at = end + 1;
    if (at < text.size() && text.find(']', at) < text.find('{', at)) break;
  }
  return dims;
}

/// Our type text for Shardy shape `16x8xf32` and sharding `[{"x"}, {}]`; empty when the
/// sharding does not name one list per dim.
inline std::string type_text(const std::string& shape, const std::string& sharding) {
  std::vector<std::string> parts;
  std::size_t at = 0;
  for (std::size_t x; (x = shape.find('x', at)) != std::string::npos; at = x + 1) parts.push_back(shape.substr(at, x - at));
  const std::string elem = shape.substr(at);
  const auto dims = dim_axes(sharding);
  if (dims.size() != parts.size()) return "";
  std::string out = elem + "[";
  for (std::size_t d = 0; d < parts.size(); ++d)
    out += (d ? ", " : "") + (dims[d].empty() ? "" : "{" + dims[d] + "}") + parts[d];
  return out + "]";
}

/// Every case of the suite, with the reason it is skipped where it is out of scope.
inline std::vector<ShardyCase> load_shardy_cases(const std::string& path) {
  std::ifstream in(path);
  const auto json = nlohmann::json::parse(in);
  std::vector<ShardyCase> out;
  for (const auto& c : json["cases"]) {
    ShardyCase sc;
    sc.name = c["name"];
    for (const auto& line : c["check_lines"]) sc.check_lines.push_back(line);
    if (c["src"].is_null() || c["reshards"].size() != 1) {
      sc.skip = "the extracted case has no source sharding or not exactly one reshard";
      out.push_back(sc);
      continue;
    }
    const auto& r = c["reshards"][0];
    sc.mesh = mesh_text(json["meshes"][c["src_mesh"].get<std::string>()]);
    sc.target_mesh = mesh_text(json["meshes"][r["mesh"].get<std::string>()]);
    sc.src = type_text(c["shape"], c["src"]);
    sc.dst = type_text(r["shape"], r["dst"]);
    for (const auto& line : sc.check_lines)
      if (line.find("sdy.reshard") != std::string::npos)
        sc.skip = "Shardy leaves it as sdy.reshard (no collectives to compare)";
    if (sc.src.empty() || sc.dst.empty()) sc.skip = "the sharding does not cover every dim";
    out.push_back(sc);
  }
  return out;
}

/// Shardy's collectives (check_lines) as steps of our IR, starting on `mesh`; `meshes`
/// maps Shardy mesh names to our meshes. Empty steps and `error` set when a line
/// cannot be translated.
struct ShardySteps {
  std::vector<Step> steps;
  std::string error;
};

inline ShardySteps shardy_steps(const std::vector<std::string>& lines, const Mesh& mesh, const DistType& src,
                                const std::map<std::string, Mesh>& meshes) {
  ShardySteps out;
  static const std::regex op_re(R"re(sdy\.(\w+))re");
  static const std::regex a2a_re(R"re(\{([^}]*)\}: (\d+)->(\d+))re");
  static const std::regex out_re(R"re(out_sharding=<@(\w+), (\[.*\])>)re");
  Mesh current = mesh;
  auto refs = [&](const std::string& axes) {
    auto t = parse_type("f32[{" + axes + "}" + std::to_string(mesh.num_devices()) + "]", current);
    return t ? t->dims[0].axes : std::vector<AxisRef>{};
  };
  auto step = [](StepOp op) {
    Step s;
    s.op = std::move(op);
    return s;
  };
  for (const auto& line : lines) {
    std::smatch m;
    if (!std::regex_search(line, m, op_re)) continue;
    const std::string op = m[1];
    if (op == "propagation_barrier") continue;
    const std::size_t list = line.find('[', static_cast<std::size_t>(m.position(0)));
    if (op == "all_gather" || op == "all_slice") {
      const auto dims = dim_axes(line.substr(list));
      for (std::size_t d = 0; d < dims.size(); ++d) {
        if (dims[d].empty()) continue;
        if (op == "all_gather") out.steps.push_back(step(AllGather{static_cast<int>(d), refs(dims[d])}));
        else out.steps.push_back(step(AllSlice{static_cast<int>(d), refs(dims[d])}));
      }
    } else if (op == "all_to_all") {
      const std::string params = line.substr(list, line.find(']', list) - list);
      for (auto it = std::sregex_iterator(params.begin(), params.end(), a2a_re); it != std::sregex_iterator(); ++it) {
        std::string axes = (*it)[1];
        axes.erase(std::remove(axes.begin(), axes.end(), '"'), axes.end());
        axes.erase(std::remove(axes.begin(), axes.end(), ' '), axes.end());
        out.steps.push_back(step(AllToAll{std::stoi((*it)[2]), std::stoi((*it)[3]), refs(axes)}));
      }
    } else if (op == "collective_permute") {
      std::smatch o;
      if (!std::regex_search(line, o, out_re) || !meshes.count(o[1])) {
        out.error = "cannot read the permute's out_sharding: " + line;
        return out;
      }
      const Mesh& to_mesh = meshes.at(o[1]);
      std::string shape;
      for (const auto& d : src.dims) shape += std::to_string(d.global) + "x";
      auto to = parse_type(type_text(shape + std::string(elem_name(src.elem)), o[2]), to_mesh);
      if (!to) {
        out.error = "cannot parse the permute's type: " + to.error().to_string();
        return out;
      }
      CollectivePermute p{*to, std::nullopt};
      if (!(to_mesh == current)) p.to_mesh = to_mesh;
      current = to_mesh;
      out.steps.push_back(step(std::move(p)));
    } else {
      out.error = "unknown op " + op;
      return out;
    }
  }
  return out;
}

}  // namespace redist::testing
