#pragma once
// Permute pairs that keep the most data in place. A collective_permute's lowering
// (plan/lowered.hpp) pairs devices by a fixed rule; but any bijection in which every
// target device's source holds the block it needs is the same step. keep_in_place()
// repairs the lowered pairs of each permute of a plan: while some device already holds
// the block it needs but receives it from another device s, it keeps its own and its
// old destination t' takes s's buffer instead (s holds what t' needs). Each swap adds
// one device that receives nothing, and a new pair (s, t') differs only along axes on
// which the two old pairs differed, so the permute never runs on a slower link.

#include <vector>

#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"

namespace redist::synth_detail {

/// Devices above which permutes keep the lowering's pairs. An explicit table is one
/// pair per device in the plan text; the checker reads it as the type's moves with a
/// few exceptions, entry by entry beyond 64 of them (docs/checker.md). A repaired
/// permute of 1,024 devices proves in 0.25 s; of 4,096 (`{x:8, y:64, z:8}`
/// `f32[{z,x}65536] -> f32[{y}65536]`) G1 is unknown at the default 10 s timeout, so a
/// larger repaired plan would not be VERIFIED.
inline constexpr int64_t kMaxInPlaceDevices = 1024;

/// Returns `plan` (well typed; `states` its type_plan()) with an explicit pair table on
/// each permute whose table keeps more devices in place than the lowering's pairs, or
/// nullopt when no permute gets one (most plans: then nothing is copied). Permutes of
/// types with pending reductions, with explicit pairs already, or on more than
/// kMaxInPlaceDevices devices keep their pairs.
std::optional<Plan> kept_in_place(const Plan& plan, const std::vector<TypedState>& states);

}  // namespace redist::synth_detail
