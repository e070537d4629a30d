#pragma once
// The one search engine of synthesis (docs/synthesis.md): a best-first (A*) search over
// canonical factor-level states (engine_state.hpp), one successor generator over the
// step set (engine_moves.hpp: all_slice, all_gather, all_to_all, reduce_scatter,
// all_reduce, at most one collective_permute), priced by a CostModel, with an
// admissible lower bound (engine_bound.cpp). It is seeded with constructive plans: the
// cheapest valid one is the upper bound, so states that cannot beat it are never
// queued, and once the queue's least estimate reaches it the seed is proved optimal.
// synthesize() runs it with a small budget, in passes (plain; where that cannot prove
// its plan, one weighted towards the target, longer where the plan is far from proved;
// where it stays far, a longer one in plain order), and keeps the best plan found;
// optimal_plan() runs it to the end (or a cap, or a deadline).

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "redist/core/bigint.hpp"
#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"
#include "redist/synth/cost_model.hpp"
#include "engine_state.hpp"

namespace redist::engine_detail {

/// Where the engine stops when it has not finished.
struct EngineLimits {
  int64_t max_expanded = 200'000;  // states expanded
  int64_t max_states = 4'000'000;  // distinct states kept
  int64_t max_memory_bytes = int64_t{1} << 30;  // estimated memory of the kept states
  std::optional<std::chrono::steady_clock::time_point> deadline;
  /// Called about once a second while the search runs: (expanded, states, best modeled
  /// time so far or a negative number when none).
  std::function<void(int64_t, int64_t, double)> progress;
  /// Search only from a valid seed: without one, return at once with no plan (the
  /// bounded search of synthesize(), whose fallbacks find a plan to start from).
  bool require_seed = false;
  /// Allow all_slice after received data (G3a then not guaranteed): only for pairs
  /// that have no plan otherwise.
  bool slice_after_receive = false;
  /// Offer fused all_to_alls and all_gathers as successors. They only lower the cost of
  /// paths that exist without them (each is its moves or parts in one collective) and
  /// multiply the branching, so a search for any plan at all (synthesize()'s fallback)
  /// leaves them out and fuses the plan it finds afterwards.
  bool fused_steps = true;
  /// Permute edges offered per state before the permute, besides the seed's own (the
  /// step set's cap: docs/synthesis.md). optimal_plan() offers all kPermuteTargets;
  /// synthesize()'s default budget fewer (synthesize.cpp, kSearchPermuteTargets): those
  /// of them whose dims agree most with the target's.
  std::size_t max_permute_targets = kPermuteTargets;
  /// Offer the permutes of every valid seed and rewritten form the ranking saw as edges,
  /// besides the best plan's (optimal_plan()): "optimal" then does not depend on which
  /// candidate ranks first (`random339` of the seed-13013 suite needs a rewrite's permute
  /// target). The default call offers the best plan's only: collecting them all costs its
  /// median call 1.5 us (5%) and changed none of its plans on two suites of 400.
  bool every_candidates_permutes = false;
  /// Hold states that differ only by a relabeling of the digits the target does not use
  /// once (engine_symmetry.hpp). Off only to measure or test what it saves.
  bool swap_digits = true;
  /// The queue's order: cost + bound_weight x lower bound. Above 1 (weighted A*) the
  /// search runs deeper towards the target and finds plans sooner, but proves nothing
  /// until its queue is empty: for a search for any plan within a budget
  /// (synthesize()'s fallback).
  double bound_weight = 1.0;
  /// The search stops once the best plan costs at most (1 + gap) x the least estimate
  /// (cost + lower bound) of every state it has not ruled out, and rules out states
  /// whose estimate x (1 + gap) reaches the best plan: the plan it returns is then
  /// proved within that factor of the least cost (bounded-suboptimal A*). 0: optimal.
  /// Where the seed is within the factor of the source's lower bound, nothing is
  /// expanded.
  double gap = 0.0;
};

/// What the engine found.
struct EngineResult {
  std::optional<Plan> plan;  // the cheapest plan found, target asserted; none if none was
  double time_us = 0;        // plan_cost(model, *plan).time_us
  bool proved = false;       // no plan in the step set costs less than time_us / (1 + gap)
                             // (or, without a plan: none exists)
  std::string stopped;       // why the search stopped before finishing, empty when it finished
  /// Where the search stopped early under the plain order (bound_weight 1): the least
  /// estimate (cost + lower bound) it left unexpanded, a lower bound on the least cost of
  /// any plan (within the gap: states it ruled out cost at least time_us / (1 + gap)).
  /// 0 otherwise.
  double least_us = 0;
  int64_t expanded = 0;
  int64_t generated = 0;
};

/// True when no all_slice of `plan` follows a step that communicates: a slice after
/// received data drops some of it (G3a). The engine keeps only such plans. Steps that
/// move nothing (moves_nothing(): a slice of size-1 axes drops nothing) do not count.
bool slices_first(const Plan& plan);

/// Runs the engine from `src` on `src_mesh` to `dst` on `dst_mesh` (validated, same
/// axes, same array) with every step's result within `bound` bytes per device. `seeds`
/// are candidate plans; those that type-check, end at the target, stay within the bound
/// and slice first (unless limits allow otherwise) are priced and the cheapest is the starting upper bound (its
/// permutes are also offered to the search). Errors only for internal inconsistencies
/// (a plan that fails to type or to price as the search did).
Result<EngineResult> run_engine(const CostModel& model, const Mesh& src_mesh, const DistType& src,
                                const Mesh& dst_mesh, const DistType& dst, const BigInt& bound,
                                const std::vector<Plan>& seeds, const EngineLimits& limits);

}  // namespace redist::engine_detail
