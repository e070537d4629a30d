#pragma once
// The senders of a transfer between device sets searched under the cost model
// (docs/meshes.md "Senders"). The lowering's rule (transfer_table: a replica on the
// receiver's node first, then the least loaded) is the start; a local search then
// moves one piece at a time to another of its holders while that lowers the transfer's
// modeled time, ties going to a smaller sum of squared loads so that a later move can
// lower the maximum. A lower bound on any table's time says when the result is optimal.
//
// Example: nodes of 4, a source replicated on node 0 (devices 0, 1) and node 2 (8, 9),
// receivers on node 0 that the rule feeds all from the one local replica of their
// block; where the slow link already carries as many bytes elsewhere, sending one of
// those pieces from node 2 instead lowers the intra term and leaves the inter term.

#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"
#include "redist/synth/cost_model.hpp"

namespace redist::synth_detail {

struct SenderSearch {
  TransferTable table;  // every piece once, by the receivers' mesh order
  double time_us = 0;   // the table's modeled time (as step_cost prices the transfer)
  double bound_us = 0;  // no table of these pieces is faster
};

/// Returns the searched senders of the transfer from `before` to `after` under
/// `model` (its transfer link and nodes), never slower than the rule's table.
SenderSearch search_senders(const TypedState& before, const TypedState& after, const CostModel& model);

/// Returns search_senders(...).bound_us without the search: no table of the transfer's
/// pieces is faster under `model`.
double senders_bound_us(const TypedState& before, const TypedState& after, const CostModel& model);

}  // namespace redist::synth_detail
