// LB(d): bytes of a device's target shard missing from its source shard, from the
// shards' boxes per dim (reference semantics), never element by element.

#include <algorithm>

#include "redist/core/semantics.hpp"
#include "redist/plan/figures.hpp"

namespace redist {

namespace {

/// Elements of the target box at `dst_coords` outside the source box at `src_coords`.
int64_t missing_elements(const Mesh& src_mesh, const DistType& src, std::span<const int64_t> src_coords,
                         const Mesh& dst_mesh, const DistType& dst, std::span<const int64_t> dst_coords) {
  const auto have = shard_box(src_mesh, src, src_coords);
  const auto want = shard_box(dst_mesh, dst, dst_coords);
  int64_t target = 1, overlap = 1;
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

}  // namespace

BigInt device_lower_bound(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh, const DistType& dst,
                          int64_t device) {
  const Coords sc = src_mesh.coords_of_device(device), dc = dst_mesh.coords_of_device(device);
  return BigInt(missing_elements(src_mesh, src, sc, dst_mesh, dst, dc)) * elem_bytes(dst.elem);
}

std::optional<LowerBound> lower_bound(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                                      const DistType& dst) {
  LowerBound lb;
  const int64_t bytes = elem_bytes(dst.elem);
  if (!(src_mesh == dst_mesh)) {
    if (dst_mesh.num_devices() > kMaxEnumeratedDevices) return std::nullopt;
    for (int64_t d = 0; d < dst_mesh.num_devices(); ++d) {
      const BigInt v = device_lower_bound(src_mesh, src, dst_mesh, dst, d);
      lb.max = std::max(lb.max, v);
      lb.total += v;
    }
    return lb;
  }
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
    const int64_t missing = missing_elements(src_mesh, src, coords, dst_mesh, dst, coords);
    lb.max = std::max(lb.max, BigInt(missing) * bytes);
    lb.total += BigInt(missing) * bytes * weight;
  }
  return lb;
}

}  // namespace redist
