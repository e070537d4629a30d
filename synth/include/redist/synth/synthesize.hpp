#pragma once
// Synthesis of redistribution plans in the paper's normal form (docs/design.md §4): memory-
// shrinking all_slices first, then size-preserving all_to_alls with at most one
// collective_permute, then all_gathers, so that no device ever holds more than
// max(source, target) local bytes. Where no such plan exists a slice may follow an
// all_to_all, or (rarely, on fully used meshes) a gather precede one, still within the
// bound; docs/synthesis.md describes the algorithm.

#include <cstdint>
#include <optional>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"

namespace redist {

struct SynthOptions {
  /// Per-device memory bound in bytes. Absent: max(source, target) local bytes. A
  /// budget below that admits no plan; one that admits the whole array also lets
  /// synthesis replicate then slice when that is estimated cheaper.
  std::optional<uint64_t> budget_bytes;
};

/// A plan from `src` on `src_mesh` to `dst` on `dst_mesh` in normal form, with the
/// target asserted, deterministic for equal inputs. Errors: `invalid` when an input
/// does not validate or the two types describe different arrays; `unsupported: <why>`
/// for pairs outside the scope (meshes with different axes, non-divisible dims,
/// pending reductions); `no_plan` when the budget is below max(source, target).
Result<Plan> synthesize(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh, const DistType& dst,
                        const SynthOptions& options = {});

/// synthesize() on one mesh.
Result<Plan> synthesize(const Mesh& mesh, const DistType& src, const DistType& dst,
                        const SynthOptions& options = {});

}  // namespace redist
