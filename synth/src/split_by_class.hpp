#pragma once
// Gathers split by link class. An all_gather over axes of both link classes runs at the
// slower link for all its bytes. Two cheaper forms, which hierarchical all-gathers use:
// gather the minor axes first and the others after, so part of the bytes cross the
// faster link; or, when the slow axes are major, first move the fast minor axes to
// another dim with an all_to_all (same buffer size), gather the slow axes while the
// buffer is small, then the fast ones. Example on {x:4 inter, y:8 intra},
// f32[{x,y}4096, 1024] -> f32[4096, 1024] under the default link speeds:
// all_gather(axes={x,y}) 650 us; all_gather(axes={y}) then (axes={x}) 522 us;
// all_to_all(src=0, dst=1, axes={y}), all_gather(dim=0, axes={x}), all_gather(dim=1,
// axes={y}) 120 us. And where nothing has been received yet and the array is replicated
// over fast axes, slice another dim by them first, so the slow gather moves a part of
// the array and the fast one the rest: on {x:6 inter, y:4, z:2},
// f32[312, {x}1404, 234] -> f32[312, 1404, 234] becomes all_slice(dim=0, axes={y,z}),
// all_gather(dim=1, axes={x}), all_gather(dim=0, axes={y,z}), 4.7x faster. Hierarchical
// gathers: the slow axes exchanged by a permute for fast replicated ones, so the gather
// runs on the fast link (first slicing by the rest of that fast axis, so the permute
// moves less). Shrunk permutes and all_to_alls: a permute (a change of device order's
// too, which runs at the slowest class) or all_to_all before anything is received, done
// on a slice of another dim by fast factors replicated on both sides (sub-axes too:
// y:(2)2 when y:(1)2 is used) and gathered back on the fast link. The seeds are
// built without a cost model, so the engine offers each seed's cheapest such form as
// well (engine.cpp best_seed).

#include <optional>
#include <vector>

#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"
#include "redist/synth/cost_model.hpp"

namespace redist::synth_detail {

/// Returns the slower link class of `model` (inter when both are equally fast).
LinkClass slow_class(const CostModel& model);

/// Returns `plan` (well typed; `states` its type_plan()) with each all_gather (and each
/// permute or all_to_all before anything is received) replaced by the cheapest under `model` of its
/// split forms above, where that is cheaper than the one step; nullopt when no step
/// changes or `model` has one link speed.
/// Reductions are never split (one collective over the flattened group keeps the order
/// of the sums the user asked for).
std::optional<Plan> split_by_link_class(const CostModel& model, const Plan& plan,
                                        const std::vector<TypedState>& states);

}  // namespace redist::synth_detail
