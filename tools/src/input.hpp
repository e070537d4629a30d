#pragma once
// Parsing of command-line arguments into redist values, reporting errors in one format
// (report.hpp): "redist: error in --mesh at column 5: reason" plus a caret line.

#include <optional>
#include <string>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "report.hpp"

namespace redist::cli {

/// Prints `error` about the argument `what` whose text was `text`.
void report_error(const std::string& what, const std::string& text, const Error& error);
/// The mesh in `text`, or nullopt after reporting the error.
std::optional<Mesh> parse_mesh_arg(const std::string& text, const std::string& what);
/// The type in `text` over `mesh`, or nullopt after reporting the error.
std::optional<DistType> parse_type_arg(const std::string& text, const Mesh& mesh, const std::string& what);

/// The two sides of a reshard as given on the command line.
struct ReshardArgs {
  Mesh mesh;
  Mesh target_mesh;  // the mesh itself unless --target-mesh names another
  DistType src;
  DistType dst;
};
/// Parses --mesh, the optional --target-mesh (empty: the same mesh), SRC and DST, or
/// returns nullopt after reporting the first error.
std::optional<ReshardArgs> parse_reshard_args(const std::string& mesh, const std::string& target_mesh,
                                              const std::string& src, const std::string& dst);

}  // namespace redist::cli
