#pragma once
// Fused all_to_alls in the constructive seeds. The builders move one (source dim, target
// dim, axes) pair per all_to_all; consecutive all_to_alls over disjoint axes that one
// exchange can do (no dim both a source and a target, unpadded dims: the typing rule)
// become one fused all_to_all over the group of all their axes, which receives
// local x (1 - 1/g) bytes instead of the sum over the moves and pays one latency. The
// engine prices both forms (engine.cpp best_seed): under link classes the fused one runs
// at its slowest axis's class and may be dearer.

#include <optional>

#include "redist/plan/plan.hpp"

namespace redist::synth_detail {

/// Moves of one fused all_to_all the engine builds: two, as its successors have
/// (engine_moves.hpp), so that the optimal search's step set holds every default plan.
inline constexpr std::size_t kMaxFusedMoves = 2;

/// Returns `plan` with each run of consecutive all_to_alls (without explicit groups)
/// merged, from its first step on, as far as one fused all_to_all of at most
/// kMaxFusedMoves moves types; nullopt when no two merge or `plan` does not type-check.
std::optional<Plan> fused_all_to_alls(const Plan& plan);

}  // namespace redist::synth_detail
