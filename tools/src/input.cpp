#include "input.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <iostream>

#include "notation_io.hpp"

namespace redist::cli {

void report_error(const std::string& what, const std::string& text, const Error& error) {
  fail(kExitBadInput, fmt::format("error in {} {}", what, error.to_string()), what, error.position);
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

namespace {

/// Column of the reduction clause of `text` (its op name), or of `axis` inside it.
std::size_t reduction_column(const std::string& text, const DistType& type, const AxisRef* axis) {
  const std::size_t clause = text.rfind(std::string(reduce_op_name(type.reduce_op)) + "{");
  if (clause == std::string::npos) return Error::npos;
  if (!axis) return clause;
  const std::size_t at = text.find(axis->name, clause);
  return at == std::string::npos ? clause : at;
}

/// Reports a target reduction the source lacks over an axis the source does not
/// replicate, or a changed op, at its column in `dst_text` (synthesis refuses both too,
/// without a column).
bool reductions_fit(const DistType& src, const DistType& dst, const std::string& dst_text) {
  if (!src.reduce_axes.empty() && !dst.reduce_axes.empty() && src.reduce_op != dst.reduce_op) {
    report_error("DST", dst_text,
                 invalid_error(fmt::format("the reduction op changes from {} to {}", reduce_op_name(src.reduce_op),
                                           reduce_op_name(dst.reduce_op)),
                               reduction_column(dst_text, dst, nullptr)));
    return false;
  }
  for (const auto& r : dst.reduce_axes) {
    const bool had = std::any_of(src.reduce_axes.begin(), src.reduce_axes.end(), [&](const AxisRef& s) {
      return s.name == r.name && s.pre == r.pre && s.size == r.size;
    });
    if (had) continue;
    // Added over an axis the source replicates: add_pending (Replicate -> Partial).
    std::string why;
    for (std::size_t d = 0; d < src.rank() && why.empty(); ++d)
      for (const auto& a : src.dims[d].axes)
        if (overlaps(a, r)) {
          why = fmt::format(", but dim {} of the source is tiled over {}; only axes the source replicates can "
                            "become pending",
                            d, to_string(a));
          break;
        }
    for (const auto& a : src.reduce_axes)
      if (why.empty() && overlaps(a, r)) why = fmt::format(", which overlaps the source's pending {}", to_string(a));
    if (why.empty()) continue;
    report_error("DST", dst_text,
                 invalid_error(fmt::format("the target adds a pending {} over {}{}", reduce_op_name(dst.reduce_op),
                                           to_string(r), why),
                               reduction_column(dst_text, dst, &r)));
    return false;
  }
  return true;
}

}  // namespace

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
  // Other axes: the reductions are compared on the refined mesh by synthesis.
  if (mesh->same_axes(*target_mesh) && !reductions_fit(*src, *dst, dst_text)) return std::nullopt;
  return ReshardArgs{std::move(*mesh), std::move(*target_mesh), std::move(*src), std::move(*dst)};
}

}  // namespace redist::cli
