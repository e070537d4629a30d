#pragma once
// Reading XLA's device sets for the importer: replica groups in every spelling the
// compiled HLO of jax 0.10 prints, and `sharding={...}` tile assignments turned into a
// redist mesh and types. docs/hlo.md, "Importing XLA's plans".

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"

namespace redist::hlo_import {

/// The groups of a collective from its `replica_groups=` value and, for the mesh
/// spelling, its `device_ids=` value (empty when absent), over `num_devices`
/// partitions: `{}` (one group of all), `{{0,1},{2,3}}`, iota `[2,4]<=[8]` and
/// `[4,2]<=[2,4]T(1,0)`, and `mesh['a'=2,'b'=4], device_ids=([4,2]T(1,0)) {'b'}` with
/// sub-axes `{'b':(2)2}`. Members in group order.
Result<DeviceGroups> parse_replica_groups(std::string_view groups, std::string_view device_ids,
                                          int64_t num_devices);

/// `source_target_pairs={{0,1},{1,0}}`.
Result<DevicePairs> parse_pairs(std::string_view text, int64_t num_devices);

/// A tile assignment: one tile count per array dim (plus the replicated dim when
/// last_tile_dim_replicate), and the device ids as an iota: iota(prod(reshape)) reshaped
/// to `reshape`, transposed by `perm`, then read as the tile dims row-major.
struct Sharding {
  std::vector<int64_t> tiles;  // per array dim
  int64_t replicated = 1;      // the last_tile_dim_replicate dim, 1 when absent
  std::vector<int64_t> reshape;
  std::vector<int64_t> perm;
};

/// Parses a `{devices=[...]... }` or `{replicated}` sharding of an array of `rank` dims
/// on `num_devices` partitions.
Result<Sharding> parse_sharding(std::string_view text, std::size_t rank, int64_t num_devices);

/// A mesh whose axes are the device-id digits both shardings use (named a, b, c, ...,
/// most significant first; device order identity), and the two shardings as types of
/// element type `elem` and global sizes `src_sizes` / `dst_sizes` on it.
struct MeshAndTypes {
  Mesh mesh;
  DistType source;
  DistType target;
};
Result<MeshAndTypes> mesh_and_types(const Sharding& src, const Sharding& dst, ElemType elem,
                                    const std::vector<int64_t>& src_sizes, const std::vector<int64_t>& dst_sizes,
                                    int64_t num_devices);

}  // namespace redist::hlo_import
