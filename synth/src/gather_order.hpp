#pragma once
// The order of gathers on different dims. Two all_gathers on different dims commute:
// the same bytes move either way, and under one link class the same time; under two,
// a slow gather is cheaper while the buffer is small. On XLA
// (row-major layouts) they do not cost the same memory: an all-gather on a dim other
// than the most major one is run on a transposed copy, so gathering dim 1 after dim 0
// copies the large buffer, where gathering it first copies a small one and the gather
// of dim 0 then lands in the output. Example on {x:2, y:4}: f64[{y:(1)2}6,
// {x,y:(2)2}43688, 2] -> f64[6, {x}43688, 2] gathered dim 0 then dim 1 took 3 MiB of
// XLA:CPU temporaries per device, XLA's own order (dim 1 first) 1 MiB.
// Two consecutive all_gathers of one dim over one link class are one all_gather of
// both suffixes: the same bytes, one latency.

#include <optional>
#include <vector>

#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"
#include "redist/synth/cost_model.hpp"

namespace redist::synth_detail {

/// Returns `plan` with each run of consecutive all_gathers (no explicit groups) in its
/// cheapest order under `model` that keeps the gathers of each dim in order, higher
/// dims first among the cheapest; `plan` itself when that is no cheaper. On {x:3 inter,
/// y:4, z:2}, f32[{y:(1)2,z}4320, {y:(2)2,x}12960] -> f32[4320, 12960]: x, then y:(2)2,
/// then dim 0 (1,407 us; dim 0 first: 3,460 us). `states`, where the caller has them,
/// are `plan`'s type_plan() (not typed again).
Plan ordered_gathers(const CostModel& model, Plan plan, const std::vector<TypedState>* states = nullptr);

/// Returns `plan` with each collective_permute that is followed by gathers of one dim
/// rewritten so that the gathered factors of the slow link class are replaced in the
/// permute's target by a fast factor of their size that the target leaves replicated
/// (all gathered in one fast gather; {x:2 inter, y:2, w:2}: to {..., w, x} then a gather
/// of {w, x} becomes to {..., w, y} and a gather of {w, y}), or where there is none come
/// last in it (gathered first, while the buffer is small) and those of the fast class
/// before them (gathered after, in one gather); nullopt when no permute changes or
/// `model` has one class. The caller types and prices the result. On {x:4 inter, y:6,
/// z:8, w:2}, ... collective_permute(to=f32[{y:(2)3,w,x:(2)2,z,y:(1)2}N]),
/// all_gather(axes={z,y:(1)2}), all_gather(axes={x:(2)2}) becomes collective_permute(to=
/// f32[{y:(2)3,w,z,y:(1)2,x:(2)2}N]), all_gather(axes={x:(2)2}), all_gather(axes={z,y:(1)2}).
std::optional<Plan> slow_gathers_first(const CostModel& model, const Plan& plan);

/// Returns, for each all_gather of `plan` whose axes are all on the slow link class of
/// `model` and each earlier position, `plan` with that gather moved there (its axes
/// taken out of the target type of each permute it crosses); none when `model` has one
/// class. A slow gather on a small buffer can be cheaper than exchanging the whole
/// array first: on {x:16 inter, y:8, z:3}, bf16[{y,z}672, {x:(1)2}672] -> bf16[672,
/// {z,y}672], all_to_all(src=0, dst=1, axes={y,z}), collective_permute(to=bf16[672,
/// {z,y,x:(1)2}672]), all_gather(dim=1, axes={x:(1)2}) becomes the gather, the
/// all_to_all and a permute to bf16[672, {z,y}672]. Unchecked: the engine types and
/// prices them (within the bound).
std::vector<Plan> slow_gathers_early(const CostModel& model, const Plan& plan);

/// Returns `plan` with each pair of consecutive all_gathers of one dim (no explicit
/// groups) whose axes are all of one link class under `model` merged into one gather of
/// both suffixes, where the result types and costs less; else `plan` unchanged. On
/// {x:2, y:4, z:8}: all_gather(dim=0, axes={y:(2)2,z}), all_gather(dim=0, axes={y:(1)2})
/// becomes all_gather(dim=0, axes={y:(1)2,y:(2)2,z}).
Plan merged_gathers(const CostModel& model, Plan plan);

}  // namespace redist::synth_detail
