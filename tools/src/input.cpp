#include "input.hpp"

#include <iostream>

#include "notation_io.hpp"

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

std::optional<ReshardArgs> parse_reshard_args(const std::string& mesh_text, const std::string& target_mesh_text,
                                              const std::string& src_text, const std::string& dst_text) {
  if (reading_other_notation() || mesh_text.empty())
    return parse_reshard_args_in_notation(mesh_text, target_mesh_text, src_text, dst_text);
  auto mesh = parse_mesh_arg(mesh_text, "--mesh");
  if (!mesh) return std::nullopt;
  auto target_mesh = target_mesh_text.empty() ? mesh : parse_mesh_arg(target_mesh_text, "--target-mesh");
  if (!target_mesh) return std::nullopt;
  auto src = parse_type_arg(src_text, *mesh, "SRC");
  if (!src) return std::nullopt;
  auto dst = parse_type_arg(dst_text, *target_mesh, "DST");
  if (!dst) return std::nullopt;
  return ReshardArgs{std::move(*mesh), std::move(*target_mesh), std::move(*src), std::move(*dst)};
}

}  // namespace redist::cli
