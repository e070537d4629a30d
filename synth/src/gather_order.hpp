#pragma once
// The order of gathers on different dims. Two all_gathers on different dims commute:
// the same bytes move either way, and under one link class the same time. On XLA
// (row-major layouts) they do not cost the same memory: an all-gather on a dim other
// than the most major one is run on a transposed copy, so gathering dim 1 after dim 0
// copies the large buffer, where gathering it first copies a small one and the gather
// of dim 0 then lands in the output. Example on {x:2, y:4}: f64[{y:(1)2}6,
// {x,y:(2)2}43688, 2] -> f64[6, {x}43688, 2] gathered dim 0 then dim 1 took 3 MiB of
// XLA:CPU temporaries per device, XLA's own order (dim 1 first) 1 MiB.

#include "redist/plan/plan.hpp"
#include "redist/synth/cost_model.hpp"

namespace redist::synth_detail {

/// Returns `plan` with each run of consecutive all_gathers (no explicit groups)
/// reordered so that higher dims are gathered first (gathers of one dim keep their
/// order), where the result types and costs the same under `model` (one link class
/// for both gathers); else `plan` unchanged.
Plan gathers_major_last(const CostModel& model, Plan plan);

}  // namespace redist::synth_detail
