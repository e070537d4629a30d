#pragma once
// Importing a foreign plan: the compiled SPMD HLO module of one reshard (what
// `jax.jit(...).lower(...).compile().as_text()` prints) read into redist's LOWERED plan
// form (docs/design.md §2) with explicit groups, pairs and offsets tables, so that the
// checker proves XLA's own collectives. See docs/hlo.md, "Importing XLA's plans".
//
// How: the module is run on every device by a small interpreter of the data-movement
// subset of HLO (collectives, slices, concatenates, transposes, bitcasts with layouts,
// dynamic-slice offsets computed from partition-id), on buffers whose elements are
// tags naming (source device, source local index). The buffer before each collective
// and at the root are the plan's states; each collective (with the local
// rearrangement around it) becomes the one lowered step whose definition reproduces
// the next state exactly on every device, from the groups/pairs the module lists.
// Nothing is taken from the target sharding except the target type: the checker then
// proves or refutes the lowered steps against it.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "redist/core/result.hpp"
#include "redist/plan/lowered.hpp"
#include "redist/plan/typing.hpp"

namespace redist {

/// A plan read from an HLO module.
struct ImportedPlan {
  LoweredPlan plan;     // source state (the parameter's sharding) and lowered steps
  TypedState target;    // the root's sharding
  /// Per step: the HLO instruction it was read from (e.g. "%all-gather.1").
  std::vector<std::string> origins;
  /// Per step: true when its declared type after was inferred from the data the
  /// module holds there; false when only its local shape is known (a type of that
  /// shape is declared so the checker can run; its counterexamples then name the
  /// final mismatch, not the first step).
  std::vector<bool> typed;
  /// What the module leaves on each physical device: per local element of the root
  /// (row-major), the row-major global index of the source element it holds, or -1.
  /// The concrete run that counterexamples are replayed against.
  std::vector<std::vector<int64_t>> result_global;
};

/// The plan of the compiled SPMD module `text`, or an error: a syntax error names the
/// line ("line L: ..."); a module that is not one reshard (several parameters, an
/// instruction that is not data movement, a collective whose effect is not one
/// lowered step) names the instruction it cannot place. Reductions (all-reduce,
/// reduce-scatter) are refused as unsupported: the checker does not encode them yet.
Result<ImportedPlan> import_hlo(std::string_view text);

/// The global index (one entry per dim) the module puts at `local_index` of physical
/// device `device`, or nullopt where it holds no source element (padding, zeros).
std::optional<std::vector<int64_t>> imported_global_at(const ImportedPlan& imported, int64_t device,
                                                       const std::vector<int64_t>& local_index);

}  // namespace redist
