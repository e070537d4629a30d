#pragma once
// The constructive plans that seed the search engine (engine.hpp) with an upper bound:
// the direct, sorted, slow-first, count-matched and balanced builders of
// synth_builders.hpp and XLA's own first choices (one permute; all_to_alls then a
// permute), each a plan in normal form built in microseconds, or nothing when its
// construction does not apply.

#include <vector>

#include "redist/plan/plan.hpp"
#include "redist/synth/cost_model.hpp"
#include "synth_moves.hpp"

namespace redist::synth_detail {

/// Which builders run beyond the plain call's.
struct SeedOptions {
  /// The balanced builder searches past its greedy path (synthesize()'s fallback, when
  /// no seed of the plain call is valid).
  bool backtrack = false;
  /// The exchange-last plans join (slow_first_plans() without slow axes, 4,096 layouts a
  /// variant): synthesize()'s fallback, where no plain seed fits the bound.
  bool exchange_last = false;
  /// Per mesh axis, true where the model prices it at the inter-node (slow) link; empty
  /// where it gives the mesh one link speed (slow_axes()). With two speeds the sorted and
  /// slow-first builders join: their plans cross a slow axis once, where the balanced
  /// builder's exchanges of prime atoms leave part of it to a permute; under one speed
  /// they seldom help and their seeds add to the call's typing time.
  std::vector<bool> slow_axes;
};

/// Returns true when `model` prices some axis of `mesh` (of size 2 or more) at another
/// link speed than another axis: then the seeds, built without a model, are least often
/// the cheapest plan, and synthesize() searches by default.
bool two_link_speeds(const CostModel& model, const Mesh& mesh);

/// Returns, per axis of `mesh`, true where `model` prices it at the inter-node link;
/// empty unless two_link_speeds(model, mesh).
std::vector<bool> slow_axes(const CostModel& model, const Mesh& mesh);

/// The builders' plans for `problem` (from `src` on `src_mesh` to `dst` on `dst_mesh`),
/// target asserted, the staged (where built) and direct plans first. When the direct
/// plan slices first, has at most two all_to_alls and the device order stays, only XLA's
/// choices join it (the others would refine it). Unchecked: the engine keeps only those
/// that are valid.
std::vector<Plan> constructive_seeds(const Problem& problem, const Mesh& src_mesh, const DistType& src,
                                     const Mesh& dst_mesh, const DistType& dst, const SeedOptions& options = {});

/// The seeds of a pair with pending reductions (`dst`'s a subset of `src`'s, same op):
/// a prefix of reduce_scatters / all_reduces (seeds_reduce.cpp), then the constructive
/// plans of the rest. Unchecked, like constructive_seeds.
std::vector<Plan> reduction_seeds(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                                  const DistType& dst);

}  // namespace redist::synth_detail
