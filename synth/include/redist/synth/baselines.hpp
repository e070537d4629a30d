#pragma once
// Baseline plan generators for comparison with synthesize() (never its default):
//   gather_then_slice  gather every source axis, then slice to the target (the paper's
//                      "easy" plan; peaks at the whole array on every device);
//   xla_style          modeled on XLA GSPMD's reshard order (PartitionedHlo::
//                      ReshardNoCache in spmd_partitioner.cc): one collective_permute
//                      when only the device assignment differs, all_to_alls (then a
//                      permute) when the per-dim tile counts are a permutation of each
//                      other, a permute and all_gathers (or all_slices and a permute)
//                      when every dim's tile count divides the other's (XLA's partial-
//                      replication reshards), otherwise replicate then slice;
//   all_reduce_then_slice  for pending reductions the target drops: one all_reduce over
//                      them (what XLA's partitioner emits), then synthesize()'s plan of
//                      the rest, which slices the reduced axes locally where the target
//                      shards them.
// See docs/synthesis.md.

#include <optional>
#include <string_view>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"

namespace redist {

enum class Baseline { gather_then_slice, xla_style, all_reduce_then_slice };

/// The baseline named `name` ("gather_then_slice", "xla_style", "all_reduce_then_slice"),
/// if any.
std::optional<Baseline> parse_baseline(std::string_view name);
/// The name of `baseline` as parse_baseline() reads it.
std::string_view baseline_name(Baseline baseline);

/// The baseline's plan from `src` on `src_mesh` to `dst` on `dst_mesh`, with the target
/// asserted. Same scope and errors as synthesize(), without a memory bound;
/// gather_then_slice and xla_style refuse pending reductions, all_reduce_then_slice
/// needs one the target drops.
Result<Plan> baseline_plan(Baseline baseline, const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                           const DistType& dst);

}  // namespace redist
