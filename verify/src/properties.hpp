#pragma once
// The property queries of the checker (docs/design.md §3), one function per property.
// Each builds the negation of its property in its own Query (fresh Z3 context): the
// types' index maps, one constraint group per lowered step (step_relations.hpp) and
// the negated goal; solves it and reads a counterexample back from the model.

#include "redist/core/bigint.hpp"
#include "redist/plan/lowered.hpp"
#include "redist/verify/checker.hpp"
#include "redist/verify/verdict.hpp"

namespace redist::smt {

/// G1: every non-padding element of `target` holds the right source element; with
/// pending reductions or reducing steps, the summands combined into each target
/// element are exactly the source's summands of that element, each once.
PropertyResult prove_correct(const LoweredPlan& plan, const TypedState& target, const CheckOptions& options);

/// G2: the local buffer after every step (the source included) is <= the bound:
/// `budget` when given, else max(source, target) local bytes, all as formulas of the
/// types.
PropertyResult prove_memory(const LoweredPlan& plan, const TypedState& target, const std::optional<BigInt>& budget,
                            const CheckOptions& options);

/// G3a: no element a device receives is later dropped by a slice on that device.
PropertyResult prove_no_peak(const LoweredPlan& plan, const TypedState& target, const CheckOptions& options);

/// G3b: every device receives exactly LB(d): no received element later leaves or is
/// dropped from the device, and no target element the device held in the source is
/// received again. Equivalent to received(d) == LB(d) for a correct plan without
/// padding or pending reductions.
PropertyResult prove_tight(const LoweredPlan& plan, const TypedState& target, const CheckOptions& options);

/// G3b for a plan with pending reductions (query_transfers_reduce.cpp): the reducing
/// steps first, measured against the reductions' share of LB; the rest by prove_tight.
/// Unknown when a reducing step follows another step.
PropertyResult prove_tight_reducing(const LoweredPlan& plan, const TypedState& target, const CheckOptions& options);

}  // namespace redist::smt
