#pragma once
// Emitters of the per-device SPMD program of a plan for XLA (`redist emit --target
// stablehlo|hlo`).

#include <string>

#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"

namespace redist::hlo {

/// A StableHLO module (MLIR text) that XLA:CPU compiles with SPMD partitioning: the
/// plan's steps in a manual region, replica groups as partition ids.
Result<std::string> emit_stablehlo(const Plan& plan);
/// The same program as classic HLO text.
Result<std::string> emit_hlo(const Plan& plan);

}  // namespace redist::hlo
