#pragma once
// A permute moved before the all_to_all it follows. An all_to_all keeps every dim's
// local size but one pair, so the permute after it can be done first, on the layout
// before the exchange, with the exchange then moving the same number of factors: the
// permute's pairs then differ along other axes, which under link classes can be the fast
// ones only. Example on {x:2 inter, y:4}: all_to_all(src=0, dst=1, axes={y}) then
// collective_permute(to=T) becomes collective_permute(to=T with the suffix of dim 1 of
// size 4 moved to the end of dim 0), all_to_all(src=0, dst=1, axes=that suffix).

#include <vector>

#include "redist/plan/plan.hpp"

namespace redist::synth_detail {

/// Returns, for each one-move all_to_all (no explicit groups) directly followed by a
/// permute (no explicit pairs, same mesh), `plan` with the permute first: to the
/// permute's target with the minor factors of the all_to_all's destination dim whose
/// sizes multiply to the all_to_all's group size moved to the end of its source dim, then
/// an all_to_all of those factors. Pairs with no such factors are skipped. Unchecked:
/// the engine types and prices them.
std::vector<Plan> permutes_first(const Plan& plan);

}  // namespace redist::synth_detail
