#pragma once
// Synthesis of redistribution plans (docs/design.md §4): the one search engine
// (docs/synthesis.md) in its default mode, seeded with constructive plans in the paper's
// normal form (memory-shrinking all_slices first, then size-preserving all_to_alls with
// at most one collective_permute, then all_gathers) ranked under the cost model, and run
// for a bounded number of expansions (by default 100 under a model whose links differ
// between the mesh's axes, none otherwise unless no seed is valid), keeping the best
// plan found. No device ever holds
// more than max(source, target) local bytes (or the budget), and no all_slice follows a
// step that communicates, so nothing received is dropped (G3a) -- except for the rare
// pairs where no such plan exists in the step set (found by a full search), which get
// a correct plan within the bound that slices later.

#include <cstdint>
#include <optional>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"

namespace redist {

struct CostModel;

struct SynthOptions {
  /// Per-device memory bound in bytes. Absent: max(source, target) local bytes. A
  /// budget below that admits no plan.
  std::optional<uint64_t> budget_bytes;
  /// The cost model plans are ranked by (not owned; must outlive the call). Absent:
  /// bytes_model(), bytes on each device's links.
  const CostModel* cost_model = nullptr;
  /// The default search budget where the cost model's links differ between the mesh's
  /// axes (below).
  static constexpr int64_t kDefaultSearch = 100;
  /// States the engine may expand to improve on its seed (the default mode's bounded
  /// budget; `redist plan --search`): plain A* first, offered at most 16 permute targets
  /// a state. Where that ends at its budget with its plan unproved within `gap`, a
  /// weighted pass from its plan reaches deeper plans, with the same budget, or ten times
  /// it where the plan is above 1.1x of the least modeled time the plain pass leaves;
  /// where the weighted pass leaves its plan still above 1.5x, the far pass follows from
  /// it, 50 times the budget in the optimal search's order with its whole step set
  /// (docs/synthesis.md). Where the lower bound
  /// proves the seed within `gap`, no state is expanded. 0 returns the cheapest valid
  /// seed (tens of microseconds; the engine then searches only when no seed is valid).
  /// Absent: kDefaultSearch where the model prices some of the mesh's axes at another
  /// link speed than others, and 0 otherwise: the seeds are built without a model, and
  /// miss the least modeled time mostly across link classes (under one speed a search
  /// costs 15x the median and thousands of times the 90th-percentile call on the
  /// synthesize benchmark's rank-4 pairs: docs/history/issue-13.md). A budget set here offers
  /// every pass the optimal search's step set.
  std::optional<int64_t> max_expanded;
  /// Where it searches, the engine stops once its plan is proved within a factor
  /// (1 + gap) of the least modeled time in its step set, and a seed within that factor
  /// of the source's lower bound is returned without expanding a state. 0: only a proof
  /// of the least time, or the expansion budget, stops it. At 100 expansions on the
  /// random suite, 0.1 gives the same plans within 0.1% at the 90th percentile in 0.6x
  /// the median call time of 0 (docs/history/issue-13.md).
  double gap = 0.1;
};

/// A plan from `src` on `src_mesh` to `dst` on `dst_mesh` in normal form, with the
/// target asserted, deterministic for equal inputs. Errors: `invalid` when an input
/// does not validate or the two types describe different arrays; `unsupported: <why>`
/// for pairs outside the scope (meshes with different axes, non-divisible dims,
/// pending reductions); `invalid` for a cost model naming an axis the mesh lacks;
/// `no_plan` when the budget is below max(source, target) or no plan is found.
Result<Plan> synthesize(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh, const DistType& dst,
                        const SynthOptions& options = {});

/// synthesize() on one mesh.
Result<Plan> synthesize(const Mesh& mesh, const DistType& src, const DistType& dst,
                        const SynthOptions& options = {});

}  // namespace redist
