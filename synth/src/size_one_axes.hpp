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

/// Returns true when a dim of `type` is tiled by an axis of size 1 (its pending
/// reductions are not looked at).
bool tiles_by_size_one_axis(const DistType& type);

/// Returns `type` with the axes of size 1 left out of its dims. Example on
/// {x:4, v:1}: f32[{v,x}8, {v}4] -> f32[{x}8, 4].
DistType without_size_one_axes(DistType type);

/// Returns `plan`, a plan between without_size_one_axes(src) and
/// without_size_one_axes(dst), as a plan from `src` to `dst` of the same modeled cost;
/// nullopt where that takes more than its steps and moves of size-1 axes alone (none
/// of the random suites' pairs). Size-1 axes ride along in the suffixes the plan's
/// gathers and all_to_alls move (a move of {x} out of {x,v} moves {x,v}); after the
/// plan's permute, or where it has none from the source on, each dim holds them where
/// the target's does, a slice of size-1 axes (it drops nothing) putting those the
/// target has at a dim's minor end; before that, a gather of size-1 axes alone removes
/// the source's at a dim's minor end, and a permute that moves nothing re-spells the
/// rest (a plan without one). Example on {x:2, v:1}: the plan
/// f32[{x}8, 4] -> all_to_all(src=0, dst=1, axes={x}) -> f32[8, {x}4]
/// becomes, to f32[{v}8, {x,v}4]: all_to_all(src=0, dst=1, axes={x}),
/// all_slice(dim=0, axes={v}), all_slice(dim=1, axes={v}).
std::optional<Plan> with_size_one_axes(const Plan& plan, const DistType& src, const DistType& dst);

}  // namespace redist::synth_detail
