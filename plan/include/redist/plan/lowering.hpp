#pragma once
// Lowering: the explicit device groups, permute pairs and slice offsets a typed step
// runs with. One definition shared by the interpreter, the checker and the backends.

#include <cstdint>
#include <span>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"

namespace redist {

/// Groups over `axes`: physical device ids, each group ordered mixed-radix with
/// axes[0] major; groups ordered by their smallest mesh position.
DeviceGroups device_groups(const Mesh& mesh, std::span<const AxisRef> axes);

/// (source, target) physical device pairs of a permute from `before` to `after`, one
/// per target device, sorted by target: every target receives from a source device
/// holding exactly its target shard, every source sends once (a bijection), and a
/// device keeps its own data where the replicated factors allow (pairs with source ==
/// target are included: no communication).
DevicePairs permute_pairs(const TypedState& before, const TypedState& after);

/// The groups a step runs with: its explicit groups if given, else derived from the
/// step's axes on `before.mesh`. Empty for steps without groups (permute).
DeviceGroups step_groups(const TypedState& before, const Step& step);

}  // namespace redist
