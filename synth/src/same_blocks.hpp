#pragma once
// Permutes that move nothing. When the device order changes, a type on the new order
// may give every device the block it already holds under the old one: a replicated
// array, or one tiled only by axes along which no device moves (`{x:2, y:2}`,
// `f32[{x}8]`, devices [1,0,3,2]: the order changes along y only). Such a permute is
// written with explicit pairs that keep every buffer in place; it costs nothing and
// receives nothing, so slices may still follow it (G3a), and the plan can slice on the
// new order instead of moving sliced blocks to their new owners. When the new order is
// the old one with the digits of the device position permuted (a transposed iota, as
// XLA writes `devices=[2,4]<=[4,2]T(1,0)`), a type on the old order is another type on
// the new one: `f32[{x}8]` on `{x:2, y:2}` is `f32[{y}8]` on the transposed order.

#include <optional>
#include <span>
#include <vector>

#include "factors.hpp"
#include "redist/core/mesh.hpp"
#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"

namespace redist::synth_detail {

/// Returns true when each device holds the same block under the tiling `a_dims` on
/// `a_mesh` as under `b_dims` on `b_mesh` (same axes, same device set). False above
/// kMaxInPlaceDevices devices (in_place.hpp: the pairs are an explicit table).
bool same_blocks(const Mesh& a_mesh, std::span<const Factors> a_dims, const Mesh& b_mesh,
                 std::span<const Factors> b_dims);

/// Returns a type on `b_mesh` (same axes as `a_mesh`, another device order) that gives
/// every device the block `type` (no pending reductions) gives it on `a_mesh`: `type`
/// itself where its factors' coordinates stay, else `type` with its factors carried
/// through the digit permutation between the two orders (each axis split into its
/// prime digits, smaller primes major); nullopt when neither holds, a factor does not
/// fall on digit boundaries, or the mesh has more than kMaxInPlaceDevices devices.
std::optional<DistType> same_blocks_type(const Mesh& a_mesh, const DistType& type, const Mesh& b_mesh);

/// Returns true when every permute of `plan` that moves nothing (`moves_nothing()`)
/// leaves each device the block it needs: the same block under the type after it as
/// under the type before it (`states`: type_plan(plan)). A rewrite that changes the
/// type before such a permute but keeps its pairs breaks this.
bool staying_permutes_hold(const Plan& plan, const std::vector<TypedState>& states);

/// Returns the collective_permute to `to` on `to_mesh` whose explicit pairs keep every
/// buffer on its device (`moves_nothing()` holds for it).
Step staying_permute(const DistType& to, const Mesh& to_mesh);

}  // namespace redist::synth_detail
