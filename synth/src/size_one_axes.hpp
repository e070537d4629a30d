#pragma once
// Mesh axes of size 1. A partitioner's mesh often has one (JAX's ('data', 'model') with
// one model shard, DTensor's (8, 1)), and its types name it: f32[{data,model}64]. Such
// an axis tiles nothing, so a type that names it gives every device the same block as
// the type without it. The search plans without them (engine states that carry them
// are spellings of one state, and the search enumerated each: 20 times the states on
// some random pairs) and puts them back into the plan it found, at no cost: a step
// over them alone (a slice, a gather) moves nothing, and they ride along in the
// suffixes the plan's collectives move. docs/search-engine.md, "Size-1 axes".

#include <optional>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/plan/plan.hpp"

namespace redist::synth_detail {

/// Returns true when `type` names an axis of size 1: in a dim, or pending (a pending
/// sum over one device is the value itself).
bool names_size_one_axis(const DistType& type);

/// Returns `type` with the axes of size 1 left out of its dims and pending reductions.
/// Example on {x:4, v:1, u:1}: f32[{v,x}8, 4] sum{u} -> f32[{x}8, 4].
DistType without_size_one_axes(DistType type);

/// Returns `plan`, a plan between without_size_one_axes(src) and
/// without_size_one_axes(dst), as a plan from `src` to `dst` of the same modeled cost;
/// nullopt where a step's suffix cannot be found or the plan has a reduction step.
/// `src` and `dst` may be pending over size-1 axes only: an all_reduce over them comes
/// first, an add_pending of the target's last (both move nothing).
/// Size-1 axes ride along in the suffixes the plan's gathers and all_to_alls move up to
/// its last permute (a move of {x} out of {x,v} moves {x,v}). The permute's target and
/// the steps after it are computed back from the target, whose size-1 axes at a dim's
/// minor end are sliced in last (such a slice drops nothing). Without a permute, the end,
/// else the source, is re-spelt by gathers and slices of size-1 axes at minor ends, else
/// the type after the plan's first slices (or the end) by a permute that moves nothing.
/// Example on {x:2, v:1}: the plan
/// f32[{x}8, 4] -> all_to_all(src=0, dst=1, axes={x}) -> f32[8, {x}4]
/// becomes, to f32[8, {x,v}4]: all_to_all(src=0, dst=1, axes={x}),
/// all_slice(dim=1, axes={v}).
std::optional<Plan> with_size_one_axes(const Plan& plan, const DistType& src, const DistType& dst);

}  // namespace redist::synth_detail
