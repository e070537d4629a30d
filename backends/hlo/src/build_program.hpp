#pragma once
// A plan as a per-device SPMD program wrapped in a manual region, the way JAX lowers
// shard_map: Sharding -> SPMDFullToShardShape {manual} -> steps -> Sharding {manual} ->
// SPMDShardToFullShape.

#include "program.hpp"
#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"

namespace redist::hlo::detail {

/// The program of `plan`; an error when the plan does not type-check.
Result<Program> build_program(const Plan& plan);

}  // namespace redist::hlo::detail
