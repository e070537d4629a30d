#pragma once
// Exact optimal plans under the cost model (docs/design.md §4, docs/cost_model.md): the
// one search engine (docs/synthesis.md) run to the end, each step kept within the memory
// budget and no all_slice after received data (G3a). The step set:
// all_slice of any free factor (sub-axes included), all_gather and all_to_all of any
// suffix of a dim (factor by factor), reduce_scatter and all_reduce of pending
// reduction axes, and at most one collective_permute, to the target or to an
// intermediate with the current per-dim tile counts whose dims each keep their factors
// or start with a prefix of the target's followed by up to three more factors, or to
// the intermediate the seed plan permutes to. Seeded with the constructive plans
// synthesize() starts from (its fallback's included), so it never returns a plan dearer
// than the default one.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"

namespace redist {

struct CostModel;

struct OptimalOptions {
  /// Per-device memory bound in bytes for every step's result. Absent: max(source,
  /// target) local bytes.
  std::optional<uint64_t> budget_bytes;
  /// States the search may expand before it gives up.
  int64_t max_expanded = 200'000;
  /// Distinct states the search may keep, and their estimated memory.
  int64_t max_states = 2'000'000;
  int64_t max_memory_bytes = int64_t{1} << 30;
  /// Wall-clock seconds after which the search returns the best plan found so far,
  /// with `proved` false (or `no_plan` when it found none). With a timeout the search
  /// is anytime: a cap above that stops it first also returns the best plan so far,
  /// since the caller asked for an answer in bounded time, not for a proof.
  std::optional<double> timeout_s;
  /// Called about once a second while the search runs: (states expanded, states kept,
  /// best modeled time so far in us or a negative number when none yet).
  std::function<void(int64_t, int64_t, double)> progress;
};

/// The cheapest plan and what the search did.
struct OptimalPlan {
  Plan plan;             // target asserted; consecutive slices of one dim fused
  double time_us = 0;    // plan_cost(model, plan).time_us
  int64_t expanded = 0;  // states expanded
  int64_t generated = 0; // distinct states kept (generated with a cost plus bound below the best plan's)
  bool proved = true;    // false when the timeout stopped the search: optimality not proved
  std::string stopped;   // why the search stopped early ("" when proved)
};

/// The plan of least modeled time from `src` on `src_mesh` to `dst` on `dst_mesh` whose
/// every step's result fits the budget; ties go to the plan found first
/// (deterministic). Errors: `invalid` for inputs that do not validate or describe
/// different arrays; `unsupported` for meshes with different axes or arrays of 2^62
/// bytes or more; `no_plan` when no plan in the step set fits the budget, or the
/// search stopped (timeout or cap) before any plan was found; `runtime` when, without a
/// timeout, the search reached options.max_expanded or options.max_states without
/// finishing ("stopped after ...", "stopped at its cap ...") or, as an internal error, when its plan fails to type or
/// to price as the search did.
Result<OptimalPlan> optimal_plan(const CostModel& model, const Mesh& src_mesh, const DistType& src,
                                 const Mesh& dst_mesh, const DistType& dst, const OptimalOptions& options = {});

}  // namespace redist
