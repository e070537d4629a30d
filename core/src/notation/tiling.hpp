#pragma once
// Tile assignments (XLA's device array: one device per tile index) and redist types
// (docs/design.md §1) converted into each other. A type on a mesh places tile index t
// at the device whose mesh position is a digit permutation of t: each tile dim is a
// sequence of mesh-axis factors (major to minor), the trailing subgroup dims hold the
// factors no dim uses. Reading finds those factors or refuses; writing produces them.

#include <cstdint>
#include <vector>

#include "redist/core/notation/notation.hpp"

namespace redist::notation::detail {

/// At most this many tiles are expanded into an explicit device list.
inline constexpr int64_t kMaxExpandedTiles = int64_t{1} << 22;

/// A tile array: `dims` are the array's dims, then subgroup dims (replicated);
/// `devices[t]` is the device at row-major tile index t.
struct TileAssignment {
  std::vector<int64_t> dims;
  std::vector<int64_t> devices;
};

/// The type on `mesh` whose shards sit where `tiles` puts them, the first
/// `shape.dims.size()` tile dims tiling the array's dims and the rest replicated. Refuses
/// (Kind::unsupported) device orders that no type on the mesh expresses.
Result<DistType> type_from_tiles(const TileAssignment& tiles, const ArrayShape& shape, const Mesh& mesh);

/// The tile array of `type` on `mesh` (no pending reduction): tile dims (one per array
/// dim, then the replication count when > 1) and, for a mesh in row-major order, the
/// minimal iota form `reshape` + `perm` (perm empty when it is the identity), else the
/// explicit device list.
struct TileForm {
  std::vector<int64_t> dims;
  int64_t replication = 1;
  bool iota = true;
  std::vector<int64_t> reshape;
  std::vector<int64_t> perm;
  std::vector<int64_t> devices;
};
Result<TileForm> tiles_of_type(const DistType& type, const Mesh& mesh);

/// The row-major flat list of iota(prod(reshape)).reshape(reshape).transpose(perm).
std::vector<int64_t> expand_iota(const std::vector<int64_t>& reshape, const std::vector<int64_t>& perm);

}  // namespace redist::notation::detail
