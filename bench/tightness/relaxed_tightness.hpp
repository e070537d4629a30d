// A relaxation of the tight-plan search that holds in every device order: whether no
// plan can be LB-tight whatever device orders (and orders of an axis's digits) its
// types take, which find_tight_plan() does not search (docs/lb-tightness.md).
//
// A state is a tiling (tiles per dim) and, for each device, the set of blocks it may
// hold. Each step is applied to every block of every device's set and keeps the results
// that are tight on that device (tight_plans.hpp): a gather or an all_to_all gives a
// device a block fixed by the one it holds, in any order; a slice by a prime p may give
// it any of the p parts; a permute any block of its target it did not hold, where it
// holds none of its target. Devices are not tied to one another (no group or pairing is
// checked), so every tight plan's types are among the states, and where the search ends
// without reaching the target tiling with each device's target block in its set, no plan
// is tight.

#pragma once

#include <cstdint>
#include <optional>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"

namespace redist::tightness {

/// Returns true where no plan from `src` to `dst` is LB-tight in any device order, false
/// where the relaxation reaches the target (some plan may be tight), nullopt where it
/// visits more than `max_states` states or the types have more than 8 dims.
/// `within_bound`: every tiling within max(source, target) local bytes. Same
/// preconditions as find_tight_plan().
std::optional<bool> none_in_any_order(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                                      const DistType& dst, int64_t max_states, bool within_bound);

}  // namespace redist::tightness
