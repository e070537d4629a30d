// CSV text shared by the harness tools (redist_compare, lb_tight_census).

#include "corpus.hpp"

namespace redist::corpus {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) {
    if (c == '"') out += '"';
    out += c == '\n' ? ' ' : c;
  }
  return out + "\"";
}

std::string mesh_text(const Case& c) {
  return to_string(c.mesh) + (c.target_mesh == c.mesh ? "" : " -> " + to_string(c.target_mesh));
}

}  // namespace redist::corpus
