#pragma once
// The property queries of the checker (docs/design.md §3), one function per property.
// Each builds the negation of its property over symbolic devices and indices, solves
// it and reads a counterexample back from the model.

#include "redist/core/bigint.hpp"
#include "redist/plan/lowered.hpp"
#include "redist/verify/checker.hpp"
#include "redist/verify/verdict.hpp"
#include "smt_encoder.hpp"

namespace redist::smt {

/// G1: every non-padding element of `target` holds the right source element; with a
/// pending reduction, the members of each reduction group hold distinct summands.
PropertyResult prove_correct(Encoder& enc, const LoweredPlan& plan, const TypedState& target,
                             const CheckOptions& options);

/// G2: the local buffer after every step (the source included) is <= `bound` bytes.
PropertyResult prove_memory(Encoder& enc, const LoweredPlan& plan, const BigInt& bound,
                            const CheckOptions& options);

/// G3a: no element a device receives is later dropped by a slice on that device.
PropertyResult prove_no_peak(Encoder& enc, const LoweredPlan& plan, const CheckOptions& options);

/// G3b: every device receives exactly LB(d): no received element later leaves or is
/// dropped from the device, and no target element the device held in the source is
/// received again. Equivalent to received(d) == LB(d) for a correct plan without
/// padding or pending reductions.
PropertyResult prove_tight(Encoder& enc, const LoweredPlan& plan, const TypedState& target,
                           const CheckOptions& options);

}  // namespace redist::smt
