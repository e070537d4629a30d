// The baseline plans; docs/synthesis.md says where each is modeled from.

#include "redist/synth/baselines.hpp"

#include <algorithm>

#include "redist/plan/typing.hpp"
#include "redist/synth/mesh_change.hpp"
#include "redist/synth/synthesize.hpp"
#include "same_blocks.hpp"
#include "synth_atoms.hpp"
#include "synth_builders.hpp"
#include "synth_scope.hpp"

namespace redist {

namespace {

using namespace synth_detail;

/// XLA's all-to-all reshard, for per-dim tile counts that are a permutation of each
/// other: all_to_alls that move tile counts between dims (the balanced plan without
/// slices or gathers), then one permute for the device assignment. nullopt otherwise.
std::optional<Moves> xla_all_to_alls(const Problem& problem) {
  auto sorted = [](Counts c) {
    std::sort(c.begin(), c.end());
    return c;
  };
  if (sorted(counts(problem.src)) != sorted(counts(problem.dst))) return std::nullopt;
  const auto primes = atomize(problem.frame, problem.src, problem.dst, true);
  if (!primes) return std::nullopt;
  auto plans = balanced_plans(problem, *primes, Ends{primes->a, {}, primes->b}, true);
  if (plans.empty()) return std::nullopt;
  return std::move(plans.front());
}

/// XLA's partial-replication reshards: when every target dim's tile count divides the
/// source's (or every source's divides the target's), a permute to matching tile groups
/// and all_gathers (or all_slices and a permute): the count-matched plan.
std::optional<Moves> xla_partial_replication(const Problem& problem) {
  const Counts src = counts(problem.src), dst = counts(problem.dst);
  bool coarsens = true, refines = true;
  for (std::size_t d = 0; d < src.size(); ++d) {
    coarsens = coarsens && src[d] % dst[d] == 0;
    refines = refines && dst[d] % src[d] == 0;
  }
  if (!coarsens && !refines) return std::nullopt;
  const auto primes = atomize(problem.frame, problem.src, problem.dst, true);
  return matched_plan(problem, primes ? &*primes : nullptr);
}

/// XLA's order (PartitionedHlo::ReshardNoCache): a permute, all_to_alls, the partial-
/// replication reshards, else replicate then slice.
Moves xla_style_moves(const Problem& problem) {
  if (!problem.mesh_change && problem.src == problem.dst) return {};
  if (counts(problem.src) == counts(problem.dst)) return {permute_move(problem.dst)};
  if (auto m = xla_all_to_alls(problem)) return *m;
  if (auto m = xla_partial_replication(problem)) return *m;
  return gather_then_slice_moves(problem);
}

}  // namespace

std::optional<Baseline> parse_baseline(std::string_view name) {
  if (name == "gather_then_slice") return Baseline::gather_then_slice;
  if (name == "xla_style") return Baseline::xla_style;
  if (name == "all_reduce_then_slice") return Baseline::all_reduce_then_slice;
  return std::nullopt;
}

std::string_view baseline_name(Baseline baseline) {
  switch (baseline) {
    case Baseline::gather_then_slice: return "gather_then_slice";
    case Baseline::xla_style: return "xla_style";
    case Baseline::all_reduce_then_slice: return "all_reduce_then_slice";
  }
  return "";
}

namespace {

/// One all_reduce over the pending reductions `dst` drops, then synthesize()'s plan
/// from the reduced type to `dst` (on one mesh: the caller refines first).
Result<Plan> all_reduce_then_slice(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                                   const DistType& dst) {
  if (auto e = reduction_error(src_mesh, src, dst_mesh, dst)) return *e;
  std::vector<AxisRef> reduced, kept;
  for (const auto& r : src.reduce_axes)
    (std::find(dst.reduce_axes.begin(), dst.reduce_axes.end(), r) == dst.reduce_axes.end() ? reduced : kept)
        .push_back(r);
  if (reduced.empty())
    return unsupported_error("all_reduce_then_slice: the source " + to_string(src) +
                             " has no pending reduction that the target " + to_string(dst) + " drops");
  DistType mid = src;
  mid.reduce_axes = kept;
  if (kept.empty()) mid.reduce_op = ReduceOp::sum;
  auto rest = synthesize(src_mesh, mid, dst_mesh, dst);
  if (!rest) return rest.error();
  Plan plan{src_mesh, src, {Step(AllReduce{reduced})}, dst};
  plan.steps.insert(plan.steps.end(), rest->steps.begin(), rest->steps.end());
  return plan;
}

}  // namespace

Result<Plan> baseline_plan(Baseline baseline, const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                           const DistType& dst) {
  if (other_device_sets(src_mesh, dst_mesh)) return device_set_plan(src_mesh, src, dst_mesh, dst, bytes_model());
  if (needs_refinement(src_mesh, dst_mesh)) {  // other axes: on the refinement (docs/meshes.md)
    auto refined = refine(src_mesh, src, dst_mesh, dst);
    if (!refined) return refined.error();
    return baseline_plan(baseline, refined->source_mesh, refined->source, refined->target_mesh, refined->target);
  }
  if (baseline == Baseline::all_reduce_then_slice) return all_reduce_then_slice(src_mesh, src, dst_mesh, dst);
  auto problem = make_problem(src_mesh, src, dst_mesh, dst);
  if (!problem) return problem.error();
  const Moves moves =
      baseline == Baseline::gather_then_slice ? gather_then_slice_moves(*problem) : xla_style_moves(*problem);
  Plan plan = to_plan(moves, src_mesh, src, dst_mesh, dst);
  if (type_plan(plan)) return plan;
  // The moves are planned on the source's canonical spelling, which may name factors
  // the source's own spelling does not: {x:6}, f64[{x:(1)2,x:(2)3}12] -> f64[{x:(1)3}12]
  // gathers x:(3)2 of {x}. A permute that moves nothing re-spells the source first.
  const DistType spelled = canonical(src, src_mesh);
  Plan respelled = to_plan(moves, src_mesh, spelled, dst_mesh, dst);
  respelled.source = src;
  respelled.steps.insert(respelled.steps.begin(), staying_permute(spelled, src_mesh));
  auto typed = type_plan(respelled);
  if (!typed)
    return unsupported_error(std::string(baseline_name(baseline)) + ": no well-typed plan from " + to_string(src) +
                             " to " + to_string(dst) + ": " + typed.error().to_string());
  return respelled;
}

}  // namespace redist
