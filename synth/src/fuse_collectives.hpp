#pragma once
// Fused collectives in the constructive seeds. The builders move one (source dim, target
// dim, axes) pair per all_to_all and gather one dim per all_gather.
//
// Consecutive all_to_alls over disjoint axes that one exchange can do (no dim both a
// source and a target, unpadded dims: the typing rule) become one fused all_to_all over
// the group of all their axes, which receives local x (1 - 1/g) bytes instead of the sum
// over the moves and pays one latency. The engine prices both forms (engine.cpp
// best_seed): under link classes the fused one runs at its slowest axis's class and may
// be dearer.
//
// Consecutive all_gathers of distinct unpadded dims become one fused all_gather where
// the cost model prices the merged step lower than the steps it replaces: the bytes are
// those of the sequence, one latency is saved, but the whole gather runs at its slowest
// axis's class (a fast gather of a small buffer before a slow one is not merged when
// that is dearer).

#include <optional>

#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"
#include "redist/synth/cost_model.hpp"

namespace redist::synth_detail {

/// Moves (parts) of one fused all_to_all (all_gather) the engine builds: two, as its
/// successors have (engine_moves.hpp), so that the optimal search's step set holds
/// every default plan.
inline constexpr std::size_t kMaxFusedMoves = 2;

/// Returns `plan` with each run of consecutive all_to_alls (without explicit groups)
/// merged, from its first step on, as far as one fused all_to_all of at most
/// kMaxFusedMoves moves types; nullopt when no two merge or `plan` does not type-check.
/// `states`, where the caller has them, are `plan`'s type_plan() (not typed again).
std::optional<Plan> fused_all_to_alls(const Plan& plan, const std::vector<TypedState>* states = nullptr);

/// Returns `plan` with each run of consecutive all_gathers (without explicit groups)
/// merged, from its first step on, as far as one fused all_gather of at most
/// kMaxFusedMoves parts types and `model` prices it below the gathers it replaces;
/// nullopt when no two merge or `plan` does not type-check; `states` as above.
std::optional<Plan> fused_all_gathers(const CostModel& model, const Plan& plan,
                                      const std::vector<TypedState>* states = nullptr);

}  // namespace redist::synth_detail
