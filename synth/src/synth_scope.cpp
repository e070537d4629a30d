#include "synth_scope.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace redist::synth_detail {

namespace {

Error prefixed(Error e, const std::string& prefix) {
  e.message = prefix + e.message;
  return e;
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
    return invalid_error(fmt::format("the reduction op changes from {} ({}) to {} ({})", reduce_op_name(src.reduce_op),
                                     to_string(src), reduce_op_name(dst.reduce_op), to_string(dst)));
  // A pending reduction the source does not have is added by add_pending (Replicate ->
  // Partial), which needs the source to replicate over it.
  for (std::size_t i = 0; i < dst.reduce_axes.size(); ++i) {
    const AxisRef& r = dst.reduce_axes[i];
    if (std::find(src.reduce_axes.begin(), src.reduce_axes.end(), r) != src.reduce_axes.end()) continue;
    const std::string adds = fmt::format("the target {} adds a pending {} over {} (reduction axis {})", to_string(dst),
                                         reduce_op_name(dst.reduce_op), to_string(r), i);
    for (std::size_t d = 0; d < src.rank(); ++d)
      for (const auto& a : src.dims[d].axes)
        if (overlaps(a, r))
          return invalid_error(fmt::format("{}, but dim {} of the source {} is tiled over {}; only axes the source "
                                           "replicates can become pending",
                                           adds, d, to_string(src), to_string(a)));
    for (const auto& a : src.reduce_axes)
      if (overlaps(a, r))
        return invalid_error(
            fmt::format("{}, which overlaps the source's pending {} in {}", adds, to_string(a), to_string(src)));
  }
  return std::nullopt;
}

Result<Problem> make_problem(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                             const DistType& dst) {
  if (auto s = validate(src, src_mesh); !s) return prefixed(s.error(), "source: ");
  if (auto s = validate(dst, dst_mesh); !s) return prefixed(s.error(), "target: ");
  if (!src_mesh.same_axes(dst_mesh))
    return unsupported_error(fmt::format("the source mesh {} and the target mesh {} have different axes",
                                         to_string(src_mesh), to_string(dst_mesh)));
  if (auto s = same_array(src, dst); !s) return s.error();
  if (!src.reduce_axes.empty() || !dst.reduce_axes.empty())
    return unsupported_error(fmt::format("pending reductions ({}) have no baseline plan (synthesize() plans them)",
                                         to_string(src.reduce_axes.empty() ? dst : src)));
  Problem p;
  for (const auto& axis : src_mesh.axes()) p.frame.axis_sizes.push_back(axis.size);
  for (const auto& d : src.dims) p.frame.globals.push_back(d.global);
  p.frame.elem_bytes = elem_bytes(src.elem);
  p.src = merged(layout_of(src, src_mesh));
  p.dst = merged(layout_of(dst, dst_mesh));
  p.mesh_change = !(src_mesh == dst_mesh);
  return p;
}

std::optional<Error> padding_error(const DistType& src, const DistType& dst, const BigInt& bound) {
  for (std::size_t d = 0; d < src.rank(); ++d) {
    const int64_t n = src.dims[d].global, a = tile_count(src.dims[d]), b = tile_count(dst.dims[d]);
    if (n % a == 0 && n % b == 0) continue;
    const bool nest = a == b || (b % a == 0 && tiles_nest(n, a, b)) || (a % b == 0 && tiles_nest(n, b, a));
    if (nest) continue;
    DistType whole = src;
    whole.dims[d].axes.clear();
    return Error{Error::Kind::no_plan,
                 fmt::format("dim {} of {} -> {} is padded ({} over {} tiles in the source, {} in the target) and "
                             "its blocks do not nest: it moves correctly only whole on a device (gather, then "
                             "slice), {} bytes per device, over the bound of {}",
                             d, to_string(src), to_string(dst), n, a, b, to_decimal(local_bytes(whole)),
                             to_decimal(bound)),
                 Error::npos};
  }
  return std::nullopt;
}

}  // namespace redist::synth_detail
