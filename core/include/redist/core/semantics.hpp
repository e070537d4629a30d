#pragma once
// Reference semantics (docs/design.md §1): which global elements a device holds under a
// type. Every other part of redist is checked against these definitions.
//
// Device at mesh coordinates c holds, for each dim i with axes a1..ak, block
// b_i(c) = mixed-radix(c[a1], ..., c[ak]) (a1 most significant); local index l maps to
// global index g = b_i(c) * local_i + l, padding where g >= global_i.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"

namespace redist {

/// Coordinate of a device along an axis or sub-axis x:(m)k: (c[x] / (n / (m*k))) % k.
int64_t axis_coordinate(const Mesh& mesh, std::span<const int64_t> coords, const AxisRef& axis);
/// Sets the coordinate of `axis` (axis or sub-axis) in `coords` to `value`, keeping
/// the other factors of that mesh axis.
void set_axis_coordinate(const Mesh& mesh, Coords& coords, const AxisRef& axis, int64_t value);
/// Mixed-radix index of the coordinates on `axes` (axes[0] most significant).
int64_t mixed_radix_index(const Mesh& mesh, std::span<const int64_t> coords,
                          std::span<const AxisRef> axes);

/// The part of the global range of one dim that a device holds.
struct DimBox {
  int64_t start = 0;    // first global index
  int64_t size = 0;     // valid (non-padding) elements
  int64_t padding = 0;  // local size - size
  bool operator==(const DimBox&) const = default;
};

/// Block index of `dim` on the device at `coords`.
int64_t block_index(const Mesh& mesh, std::span<const int64_t> coords, const Dim& dim);
/// The shard's global box per dim for the device at `coords`.
std::vector<DimBox> shard_box(const Mesh& mesh, const DistType& type,
                              std::span<const int64_t> coords);
/// Global index of local index `local` on the device at `coords`; nullopt in padding.
std::optional<std::vector<int64_t>> local_to_global(const Mesh& mesh, const DistType& type,
                                                    std::span<const int64_t> coords,
                                                    std::span<const int64_t> local);
/// Physical devices holding the same shard as the device at `coords` (same block in
/// every dim and same coordinates on the reduction axes), ascending.
std::vector<int64_t> replication_group(const Mesh& mesh, const DistType& type,
                                       std::span<const int64_t> coords);

/// Mesh positions of the group over `axes` that contains `coords`: devices differing
/// only in their coordinates on `axes`, ordered mixed-radix with axes[0] major
/// (docs/design.md §2). Member i has mixed_radix_index(..., axes) == i.
std::vector<int64_t> group_positions(const Mesh& mesh, std::span<const int64_t> coords,
                                     std::span<const AxisRef> axes);

}  // namespace redist
