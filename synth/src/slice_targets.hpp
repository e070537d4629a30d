#pragma once
// Slices aimed where an all_to_all takes them. A seed that slices a dim by axes and
// then moves those axes to another dim with an all_to_all exchanges data for nothing:
// the slice could have put them in that other dim at once, and the all_to_all then
// moves only the rest, in smaller groups (Rink et al.'s "slice before moving"). The
// order of the other dim's axes may come out different; a permute after it (which
// names its target type) absorbs that, otherwise the plan does not reach the target
// and the engine drops it. Example, an MoE dispatch on {dp:2, ep:4} whose tokens are
// replicated over dp, f32[{ep}64, 64] -> f32[{dp}64, {ep}64]:
//   all_slice(dim=0, axes={dp}), all_to_all(src=0, dst=1, axes={ep:(2)2,dp}), permute
// becomes
//   all_slice(dim=1, axes={dp}), all_to_all(src=0, dst=1, axes={ep:(2)2}), permute
// a 2-way all_to_all instead of a 4-way one: 512 instead of 768 bytes received per
// device on average (XLA's own plan for it, which slices the same way).

#include <vector>

#include "redist/plan/plan.hpp"

namespace redist::synth_detail {

/// Returns, for each all_slice whose axes a later all_to_all moves to another dim (the
/// same references, with nothing but slices between them and that dim unchanged in
/// between), `plan` with those axes sliced into that dim and left out of the
/// all_to_all (dropped when it moves nothing else). Unchecked: the engine types and
/// prices them.
std::vector<Plan> slices_at_their_target(const Plan& plan);

}  // namespace redist::synth_detail
