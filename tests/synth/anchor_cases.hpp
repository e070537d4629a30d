#pragma once
// The anchor cases of tests/data/anchors.txt: `name | mesh | source | target [| target
// mesh]`, tags after '#'.

#include <fstream>
#include <ostream>
#include <string>
#include <vector>

namespace redist::testing {

struct AnchorCase {
  std::string name;
  std::string mesh;
  std::string src;
  std::string dst;
  std::string target_mesh;  // empty: the same mesh
};

/// Test names and failure messages show the case by its name.
inline void PrintTo(const AnchorCase& c, std::ostream* os) { *os << c.name; }

inline std::string trimmed(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  const auto e = s.find_last_not_of(" \t");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

/// Every case of the anchors file at `path`.
inline std::vector<AnchorCase> load_anchors(const std::string& path) {
  std::ifstream in(path);
  std::vector<AnchorCase> out;
  for (std::string line; std::getline(in, line);) {
    line = line.substr(0, line.find('#'));
    std::vector<std::string> fields;
    for (std::size_t at = 0, bar; at <= line.size(); at = bar + 1) {
      bar = line.find('|', at);
      if (bar == std::string::npos) bar = line.size();
      fields.push_back(trimmed(line.substr(at, bar - at)));
    }
    if (fields.size() < 4) continue;
    out.push_back({fields[0], fields[1], fields[2], fields[3], fields.size() > 4 ? fields[4] : ""});
  }
  return out;
}

/// The anchors of the shared data directory.
inline std::vector<AnchorCase> anchors() { return load_anchors(std::string(REDIST_TEST_DATA_DIR) + "/anchors.txt"); }

}  // namespace redist::testing
