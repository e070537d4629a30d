#pragma once
// How a distributed array type appears at the boundary of the emitted module: the
// global array shape and its XLA HloSharding.
//
// Pending reductions: a type with reduction axes R is passed as a global array with an
// extra leading "summand" dim of size |R|, tiled over R (summand index = mixed-radix
// index of the device's coordinates on R), so each device holds its own partial value.
// Padding: every dim's global size is local * tiles, the padded size, so XLA never
// re-pads; the caller places padding at the end of each shard.

#include <cstdint>
#include <string>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"

namespace redist::hlo::detail {

/// The module-level global shape of `type`: [|R| when pending, local * tiles per dim],
/// or an overflow error when a padded size does not fit int64.
Result<std::vector<int64_t>> boundary_global_shape(const DistType& type);
/// One device's shape at the boundary: [1 when pending, local per dim].
std::vector<int64_t> boundary_local_shape(const DistType& type);
/// The HloSharding text of `type` on `mesh` over boundary_global_shape: "{replicated}"
/// when nothing is tiled, else an explicit tile assignment of physical device ids
/// (= partition ids), with `last_tile_dim_replicate` when devices hold copies.
std::string sharding_text(const Mesh& mesh, const DistType& type);

}  // namespace redist::hlo::detail
