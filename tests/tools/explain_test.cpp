// `redist explain` on every anchor of tests/data/anchors.txt: the SVG parses as XML
// (Python's xml.dom.minidom) and the words of each step name every mesh axis whose
// placement changes in that step, computed here from the step types of
// `redist plan --json`, independently of the explainer's own analysis.

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "run_command.hpp"

namespace redist {
namespace {

using testing::run_redist;

std::string quote(const std::string& s) { return "'" + s + "'"; }

std::string trim(const std::string& s) {
  const auto a = s.find_first_not_of(" \t"), b = s.find_last_not_of(" \t");
  return a == std::string::npos ? "" : s.substr(a, b - a + 1);
}

struct Anchor {
  std::string name, mesh, src, dst, target_mesh;
};

std::vector<Anchor> anchors() {
  std::ifstream in(REDIST_ANCHORS);
  std::vector<Anchor> out;
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string part; std::getline(ss, part, '|');) f.push_back(trim(part));
    if (f.size() >= 4 && !f[0].empty()) out.push_back({f[0], f[1], f[2], f[3], f.size() > 4 ? f[4] : ""});
  }
  return out;
}

/// Per mesh axis name, the sorted dims (-1 for the pending reduction) its factors sit in.
std::map<std::string, std::multiset<int>> placement(const DistType& t) {
  std::map<std::string, std::multiset<int>> out;
  for (std::size_t i = 0; i < t.dims.size(); ++i)
    for (const auto& a : t.dims[i].axes) out[a.name].insert(static_cast<int>(i));
  for (const auto& a : t.reduce_axes) out[a.name].insert(-1);
  return out;
}

TEST(Explain, EveryAnchorSvgParsesAndWordsNameEveryMovingAxis) {
  const auto all = anchors();
  ASSERT_GE(all.size(), 10u);
  int explained = 0;
  for (const auto& a : all) {
    auto mesh = parse_mesh(a.mesh);
    ASSERT_TRUE(mesh.ok()) << a.name;
    if (mesh->num_devices() > 4096) continue;  // pod scale: synthesis and words only, covered by cli tests
    const std::string reshard = "--mesh " + quote(a.mesh) + (a.target_mesh.empty() ? "" : " --target-mesh " + quote(a.target_mesh)) +
                                " " + quote(a.src) + " " + quote(a.dst);
    const auto plan = run_redist("plan " + reshard + " --json");
    // No plan, or a case the synthesizer declines (non-divisible dims): nothing to explain.
    if (plan.exit_code == 3 || plan.output.find("unsupported") != std::string::npos) continue;
    ASSERT_EQ(plan.exit_code, 0) << a.name << plan.output;
    const auto json = nlohmann::json::parse(plan.output.substr(plan.output.find('{')));
    const std::string svg = "/tmp/redist_explain_" + a.name + ".svg";
    const auto words = run_redist("explain " + reshard + " --svg " + svg);
    ASSERT_EQ(words.exit_code, 0) << a.name << words.output;
    const auto parsed = std::system(("python3 -c \"import xml.dom.minidom,sys; d=xml.dom.minidom.parse(sys.argv[1]); "
                                     "assert d.documentElement.tagName=='svg'\" " + svg).c_str());
    EXPECT_EQ(parsed, 0) << a.name << ": the SVG does not parse as XML";
    std::remove(svg.c_str());
    // The "why:" line of each step, in order.
    std::vector<std::string> why;
    std::stringstream lines(words.output);
    for (std::string line; std::getline(lines, line);)
      if (line.rfind("  why: ", 0) == 0) why.push_back(line);
    ASSERT_EQ(why.size(), json["steps"].size()) << a.name << words.output;
    auto before = parse_type(a.src, *mesh);
    ASSERT_TRUE(before.ok());
    const Mesh last_mesh = a.target_mesh.empty() ? *mesh : *parse_mesh(a.target_mesh);
    for (std::size_t k = 0; k < why.size(); ++k) {
      auto after = parse_type(json["steps"][k]["type_after"].get<std::string>(), last_mesh);
      ASSERT_TRUE(after.ok()) << a.name;
      const auto pb = placement(*before), pa = placement(*after);
      std::set<std::string> names;
      for (const auto& [n, _] : pb) names.insert(n);
      for (const auto& [n, _] : pa) names.insert(n);
      for (const auto& n : names) {
        const auto b = pb.count(n) ? pb.at(n) : std::multiset<int>{};
        const auto c = pa.count(n) ? pa.at(n) : std::multiset<int>{};
        if (b != c) EXPECT_NE(why[k].find(n), std::string::npos) << a.name << " step " << k + 1 << ": " << n << " moves but " << why[k];
      }
      EXPECT_NE(why[k], "  why: ") << a.name;
      before = after;
    }
    ++explained;
  }
  EXPECT_GE(explained, 10);
}

TEST(Explain, WordsNameSendsReceivesKeepsAndMemory) {
  const auto r = run_redist("explain --mesh '{x:8}' 'f32[{x}16, 8]' 'f32[16, {x}8]'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("why: x moves from dim 0 to dim 1"), std::string::npos) << r.output;
  // Device 0 holds rows 0:2, keeps their columns 0:1, sends rows 0:2 x cols 1:2 to device 1
  // and receives rows 2:4 x cols 0:1 from it.
  EXPECT_NE(r.output.find("device 0 (x=0): holds [0:2, 0:8], keeps [0:2, 0:1], drops the rest; sends [0:2, 1:2] to 1"),
            std::string::npos) << r.output;
  EXPECT_NE(r.output.find("receives [2:4, 0:1] from 1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("memory: 64 -> 64 bytes per device"), std::string::npos) << r.output;
}

TEST(Explain, BadInputExitsTwo) {
  EXPECT_EQ(run_redist("explain --mesh '{x:8' 'f32[{x}16]' 'f32[16]'").exit_code, 2);
  EXPECT_EQ(run_redist("explain").exit_code, 2);
  EXPECT_EQ(run_redist("explain --plan /nonexistent/plan.txt").exit_code, 2);
}

}  // namespace
}  // namespace redist
