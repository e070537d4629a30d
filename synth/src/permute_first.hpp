#pragma once
// A permute moved before the all_to_all it follows. An all_to_all keeps every dim's
// local size but one pair, so the permute after it can be done first, on the layout
// before the exchange, with the exchange then moving the same number of factors: the
// permute's pairs then differ along other axes, which under link classes can be the fast
// ones only. Example on {x:2 inter, y:4}: all_to_all(src=0, dst=1, axes={y}) then
// collective_permute(to=T) becomes collective_permute(to=T with the suffix of dim 1 of
// size 4 moved to the end of dim 0), all_to_all(src=0, dst=1, axes=that suffix). On
// {x:8 inter, y:16}, `bf16[96, {y:(2)8}32, 2, {y:(1)2,x}32] -> bf16[{y}96, 32, 2, {x}32]`:
// the fused all_to_all (y:(2)8 from dim 1, x:(4)2 from dim 3) then a permute across x
// becomes a permute to `[96, {y:(2)8}32, 2, {x,y:(1)2}32]`, then the fused all_to_all
// of y:(1)2 and y:(2)8 over y alone: 10.2 -> 6.1 us, the optimal plan.

#include <vector>

#include "redist/plan/plan.hpp"

namespace redist::synth_detail {

/// Returns, for each all_to_all (no explicit groups) directly followed by a permute (no
/// explicit pairs, same mesh), `plan` with the permute first: to the permute's target
/// with, for each move, the minor factors of its destination dim whose sizes multiply to
/// its group size (a factor split into sub-axes where needed; the last move's the most
/// minor) moved to the end of its source dim, then an all_to_all of those factors; a
/// fused all_to_all of two moves also in the other order of its moves. Pairs whose sizes
/// do not divide so are skipped. Unchecked: the engine types and prices them.
std::vector<Plan> permutes_first(const Plan& plan);

}  // namespace redist::synth_detail
