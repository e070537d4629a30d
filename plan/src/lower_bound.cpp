// LB(d): bytes of a device's target shard missing from its source shard, from the
// shards' boxes per dim (reference semantics), never element by element; with pending
// reductions plus the device's even share of the reduction's transfers
// (docs/cost_model.md "Lower bound with reductions"). On one mesh, when every dim's
// blocks nest (no padding, one block size divides the other), the max and total come in
// closed form from classes of mesh digits (digit_classes.hpp), at a cost independent of
// the device count; otherwise each tuple of the coordinates the types use is visited once.

#include <algorithm>

#include "digit_classes.hpp"
#include "redist/core/semantics.hpp"
#include "redist/plan/figures.hpp"

namespace redist {

namespace {

/// Elements of the target box at `dst_coords` outside the source box at `src_coords`
/// (exact: a box can hold more than 2^63 elements).
BigInt missing_elements(const Mesh& src_mesh, const DistType& src, std::span<const int64_t> src_coords,
                         const Mesh& dst_mesh, const DistType& dst, std::span<const int64_t> dst_coords) {
  const auto have = shard_box(src_mesh, src, src_coords);
  const auto want = shard_box(dst_mesh, dst, dst_coords);
  BigInt target = 1, overlap = 1;
  for (std::size_t d = 0; d < want.size(); ++d) {
    target *= want[d].size;
    const int64_t lo = std::max(have[d].start, want[d].start);
    const int64_t hi = std::min(have[d].start + have[d].size, want[d].start + want[d].size);
    overlap *= std::max<int64_t>(0, hi - lo);
  }
  return target - overlap;
}

/// Indices of the mesh axes that `a` or `b` use.
std::vector<std::size_t> used_mesh_axes(const Mesh& mesh, const DistType& a, const DistType& b) {
  std::vector<std::size_t> out;
  for (const DistType* t : {&a, &b})
    for (const auto& ref : used_axes(*t)) out.push_back(*mesh.axis_index(ref.name));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

/// LB's max and total on one mesh in closed form, or nullopt when some dim's blocks do
/// not nest or the factors do not refine. A source block nests in the target block of
/// the same dim (or the reverse) exactly when the larger-tiled side's block index,
/// without its minor part of size ratio, equals the other's; a device then holds
/// min(Ls, Lt) of that dim's target block, and else none of it.
std::optional<LowerBound> nested_lower_bound(const Mesh& mesh, const DistType& src, const DistType& dst) {
  if (src.dims.size() != dst.dims.size()) return std::nullopt;
  std::vector<detail::FactorEquality> nested;
  BigInt target = 1, overlap = 1;
  for (std::size_t d = 0; d < src.dims.size(); ++d) {
    const Dim& s = src.dims[d];
    const Dim& t = dst.dims[d];
    const int64_t ts = tile_count(s), tt = tile_count(t);
    if (s.global != t.global || s.global % ts != 0 || s.global % tt != 0) return std::nullopt;
    if (ts >= tt && ts % tt == 0) nested.push_back({s.axes, t.axes, ts / tt});
    else if (tt > ts && tt % ts == 0) nested.push_back({t.axes, s.axes, tt / ts});
    else return std::nullopt;
    target *= s.global / tt;
    overlap *= s.global / std::max(ts, tt);
  }
  const auto all_nest = detail::count_devices(mesh, nested);
  if (!all_nest) return std::nullopt;
  const BigInt bytes = elem_bytes(dst.elem);
  LowerBound lb;
  lb.max = bytes * (*all_nest == mesh.num_devices() ? target - overlap : target);
  lb.total = bytes * (target * mesh.num_devices() - overlap * *all_nest);
  return lb;
}

bool same_factor(const AxisRef& a, const AxisRef& b) {
  return a.name == b.name && a.pre == b.pre && a.size == b.size;
}

/// `type` without pending reductions.
DistType dims_only(DistType type) {
  type.reduce_axes.clear();
  type.reduce_op = ReduceOp::sum;
  return type;
}

/// Each device's even share of the transfers that the reductions `src` has and `dst`
/// does not need: g-1 element transfers per reduced element (merging g summands held
/// by g devices takes g-1 transfers), over the reduced value's elements (the global
/// elements times the reductions `dst` keeps), divided by the device count, rounded
/// down. 0 when nothing is reduced.
BigInt reduction_share(const Mesh& mesh, const DistType& src, const DistType& dst) {
  int64_t g = 1, kept = 1;
  for (const auto& r : src.reduce_axes) {
    const bool stays = std::any_of(dst.reduce_axes.begin(), dst.reduce_axes.end(),
                                   [&](const AxisRef& k) { return same_factor(k, r); });
    (stays ? kept : g) *= r.size;
  }
  if (g == 1) return 0;
  return BigInt(g - 1) * global_elements(src) * kept * elem_bytes(src.elem) / mesh.num_devices();
}

}  // namespace

BigInt device_lower_bound(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh, const DistType& dst,
                          int64_t device) {
  if (!src_mesh.has_device(device)) {  // only in the target: it starts empty and lacks every element
    BigInt elements = 1;
    for (const DimBox& b : shard_box(dst_mesh, dst, dst_mesh.coords_of_device(device))) elements *= b.size;
    return elements * elem_bytes(dst.elem);
  }
  const Coords sc = src_mesh.coords_of_device(device), dc = dst_mesh.coords_of_device(device);
  return BigInt(missing_elements(src_mesh, src, sc, dst_mesh, dst, dc)) * elem_bytes(dst.elem) +
         reduction_share(dst_mesh, src, dst);
}

std::optional<LowerBound> lower_bound(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                                      const DistType& dst) {
  if (!src.reduce_axes.empty() || !dst.reduce_axes.empty()) {
    auto lb = lower_bound(src_mesh, dims_only(src), dst_mesh, dims_only(dst));
    if (!lb) return lb;
    const BigInt share = reduction_share(dst_mesh, src, dst);
    lb->max += share;
    lb->total += share * dst_mesh.num_devices();
    return lb;
  }
  LowerBound lb;
  const int64_t bytes = elem_bytes(dst.elem);
  if (!(src_mesh == dst_mesh)) {
    if (dst_mesh.num_devices() > kMaxEnumeratedDevices) return std::nullopt;
    for (int64_t d : dst_mesh.device_ids()) {
      const BigInt v = device_lower_bound(src_mesh, src, dst_mesh, dst, d);
      lb.max = std::max(lb.max, v);
      lb.total += v;
    }
    return lb;
  }
  if (auto closed = nested_lower_bound(src_mesh, src, dst)) return closed;
  // On one mesh the shards depend only on the coordinates of the axes the types use:
  // visit each tuple of those once, weighted by the devices sharing it.
  const auto axes = used_mesh_axes(src_mesh, src, dst);
  int64_t tuples = 1;
  for (std::size_t a : axes) {
    tuples *= src_mesh.axis_size(a);
    if (tuples > kMaxEnumeratedDevices) return std::nullopt;
  }
  const int64_t weight = src_mesh.num_devices() / tuples;
  Coords coords(src_mesh.rank(), 0);
  for (int64_t i = 0; i < tuples; ++i) {
    int64_t rest = i;
    for (auto it = axes.rbegin(); it != axes.rend(); ++it) {
      coords[*it] = rest % src_mesh.axis_size(*it);
      rest /= src_mesh.axis_size(*it);
    }
    const BigInt missing = missing_elements(src_mesh, src, coords, dst_mesh, dst, coords) * bytes;
    lb.max = std::max(lb.max, missing);
    lb.total += missing * weight;
  }
  return lb;
}

}  // namespace redist
