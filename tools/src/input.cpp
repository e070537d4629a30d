#include "input.hpp"

#include <iostream>

namespace redist::cli {

void report_error(const std::string& what, const std::string& text, const Error& error) {
  std::cerr << "redist: error in " << what << " " << error.to_string() << "\n";
  if (error.position != Error::npos && error.position <= text.size())
    std::cerr << "  " << text << "\n  " << std::string(error.position, ' ') << "^\n";
}

std::optional<Mesh> parse_mesh_arg(const std::string& text, const std::string& what) {
  auto mesh = parse_mesh(text);
  if (!mesh) {
    report_error(what, text, mesh.error());
    return std::nullopt;
  }
  return std::move(*mesh);
}

std::optional<DistType> parse_type_arg(const std::string& text, const Mesh& mesh, const std::string& what) {
  auto type = parse_type(text, mesh);
  if (!type) {
    report_error(what, text, type.error());
    return std::nullopt;
  }
  return std::move(*type);
}

}  // namespace redist::cli
