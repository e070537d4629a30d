#include "synth_scope.hpp"

#include <algorithm>

namespace redist::synth_detail {

namespace {

Error prefixed(Error e, const std::string& prefix) {
  e.message = prefix + e.message;
  return e;
}

/// Ok unless a non-divisible dim needs more than the padded all_gather the step set
/// has (docs/notation.md, "Padded dims"): the target must be unpadded, and every
/// padded dim of the source untiled in the target (gathered whole).
Status check_padding_in_scope(const DistType& src, const DistType& dst) {
  const bool in_scope = [&] {
    if (has_padding(dst)) return false;
    for (std::size_t d = 0; d < src.rank(); ++d)
      if (src.dims[d].global % tile_count(src.dims[d]) != 0 && tile_count(dst.dims[d]) != 1) return false;
    return true;
  }();
  if (in_scope) return Ok{};
  return unsupported_error("non-divisible dims (" + to_string(has_padding(src) ? src : dst) +
                           ") are synthesized only when the target gathers them whole; this pair is not yet");
}

}  // namespace

bool has_reductions(const DistType& src, const DistType& dst) {
  return !src.reduce_axes.empty() || !dst.reduce_axes.empty();
}

DistType without_reductions(DistType type) {
  type.reduce_axes.clear();
  type.reduce_op = ReduceOp::sum;
  return type;
}

std::optional<Error> reduction_error(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                                     const DistType& dst) {
  if (!has_reductions(src, dst)) return std::nullopt;
  if (auto s = validate(src, src_mesh); !s) return prefixed(s.error(), "source: ");
  if (auto s = validate(dst, dst_mesh); !s) return prefixed(s.error(), "target: ");
  if (!src.reduce_axes.empty() && !dst.reduce_axes.empty() && src.reduce_op != dst.reduce_op)
    return invalid_error("the reduction op changes from " + std::string(reduce_op_name(src.reduce_op)) + " (" +
                         to_string(src) + ") to " + std::string(reduce_op_name(dst.reduce_op)) + " (" +
                         to_string(dst) + ")");
  for (const auto& r : dst.reduce_axes)
    if (std::find(src.reduce_axes.begin(), src.reduce_axes.end(), r) == src.reduce_axes.end())
      return invalid_error("the target " + to_string(dst) + " has a pending " +
                           std::string(reduce_op_name(dst.reduce_op)) + " over " + to_string(r) +
                           " that the source " + to_string(src) + " does not have");
  return std::nullopt;
}

Result<Problem> make_problem(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                             const DistType& dst) {
  if (auto s = validate(src, src_mesh); !s) return prefixed(s.error(), "source: ");
  if (auto s = validate(dst, dst_mesh); !s) return prefixed(s.error(), "target: ");
  if (!src_mesh.same_axes(dst_mesh))
    return unsupported_error("the source mesh " + to_string(src_mesh) + " and the target mesh " +
                             to_string(dst_mesh) + " have different axes");
  if (src.elem != dst.elem)
    return invalid_error("the element types differ: " + std::string(elem_name(src.elem)) + " and " +
                         std::string(elem_name(dst.elem)));
  bool same_shape = src.rank() == dst.rank();
  for (std::size_t d = 0; same_shape && d < src.rank(); ++d) same_shape = src.dims[d].global == dst.dims[d].global;
  if (!same_shape)
    return invalid_error("the source " + to_string(src) + " and the target " + to_string(dst) +
                         " have different global shapes");
  if (!src.reduce_axes.empty() || !dst.reduce_axes.empty())
    return unsupported_error("pending reductions (" + to_string(src.reduce_axes.empty() ? dst : src) +
                             ") have no baseline plan (synthesize() plans them)");
  if (auto s = check_padding_in_scope(src, dst); !s) return s.error();
  Problem p;
  for (const auto& axis : src_mesh.axes()) p.frame.axis_sizes.push_back(axis.size);
  for (const auto& d : src.dims) p.frame.globals.push_back(d.global);
  p.frame.elem_bytes = elem_bytes(src.elem);
  p.src = merged(layout_of(src, src_mesh));
  p.dst = merged(layout_of(dst, dst_mesh));
  p.mesh_change = !(src_mesh == dst_mesh);
  return p;
}

}  // namespace redist::synth_detail
