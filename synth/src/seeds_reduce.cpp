// reduction_seeds(): the seeds of pairs with pending reductions, in the valley normal
// form (docs/synthesis.md "Pending reductions"): the reductions first, as collectives
// that shrink memory or keep it, then the constructive plan of the rest.
//
// Prefixes tried, each one collective per target dim where possible:
// - all_reduce over every axis to reduce, in one collective (all-reduce then slice);
// - reduce_scatter into each dim the target shards reduction axes over (those axes, in
//   the target's order), then one all_reduce over the axes the target replicates;
// - the same with the replicated axes appended to the first such reduce_scatter (one
//   collective over the flattened group; the rest of the plan gathers them:
//   reduce-scatter then all-gather);
// - one reduce_scatter over every reduced axis into each dim in turn, that dim's
//   target axes first (the rest of the plan moves the others where they belong).
// Each prefix is also tried after an all_slice of the source's replicated axes (those
// in no dim and no reduction) into a dim they divide: every replica then reduces a
// part of the buffer, and the rest of the plan gathers it back, which receives fewer
// bytes than reducing the whole buffer on every replica.
// Pending reductions the target adds (Replicate -> Partial) come first of all, as one
// local add_pending over those axes.
// The engine prices every seed under the cost model and keeps the cheapest.

#include <algorithm>

#include "redist/plan/typing.hpp"
#include "seeds.hpp"
#include "synth_scope.hpp"

namespace redist::synth_detail {

namespace {

bool contains(const std::vector<AxisRef>& refs, const AxisRef& r) {
  return std::find(refs.begin(), refs.end(), r) != refs.end();
}

/// `type` with its pending reductions set to `axes` and `op`.
DistType with_reductions(DistType type, std::vector<AxisRef> axes, ReduceOp op) {
  type.reduce_op = axes.empty() ? ReduceOp::sum : op;
  type.reduce_axes = std::move(axes);
  return type;
}

/// The reduction prefixes to try (see the file comment).
std::vector<std::vector<Step>> prefixes(const DistType& src, const DistType& dst) {
  std::vector<AxisRef> reduce;  // reduced by the plan, in the source's order
  for (const auto& r : src.reduce_axes)
    if (!contains(dst.reduce_axes, r)) reduce.push_back(r);
  if (reduce.empty()) return {{}};
  std::vector<std::pair<int, std::vector<AxisRef>>> scatters;  // target dim, its reduced axes
  for (std::size_t d = 0; d < dst.rank(); ++d) {
    std::vector<AxisRef> axes;
    for (const auto& a : dst.dims[d].axes)
      if (contains(reduce, a)) axes.push_back(a);
    if (!axes.empty()) scatters.emplace_back(static_cast<int>(d), std::move(axes));
  }
  std::vector<AxisRef> replicated;  // reduced axes the target uses in no dim
  for (const auto& r : reduce) {
    const bool used = std::any_of(scatters.begin(), scatters.end(),
                                  [&](const auto& s) { return contains(s.second, r); });
    if (!used) replicated.push_back(r);
  }
  std::vector<std::vector<Step>> out;
  out.push_back({Step(AllReduce{reduce})});
  if (!scatters.empty()) {
    std::vector<Step> split, fused;
    for (const auto& [d, axes] : scatters) split.push_back(Step(ReduceScatter{d, axes}));
    fused = split;
    if (!replicated.empty()) {
      split.push_back(Step(AllReduce{replicated}));
      auto& first = std::get<ReduceScatter>(fused.front().op);
      first.axes.insert(first.axes.end(), replicated.begin(), replicated.end());
    }
    out.push_back(std::move(split));
    if (!replicated.empty()) out.push_back(std::move(fused));
  }
  // One reduce_scatter over every reduced axis into one dim: that dim's target axes
  // first, then the others (the rest of the plan moves or gathers them).
  for (std::size_t d = 0; d < src.rank(); ++d) {
    std::vector<AxisRef> axes;
    for (const auto& [sd, sa] : scatters)
      if (sd == static_cast<int>(d)) axes = sa;
    for (const auto& r : reduce)
      if (!contains(axes, r)) axes.push_back(r);
    out.push_back({Step(ReduceScatter{static_cast<int>(d), axes})});
  }
  return out;
}

/// The whole mesh axes `type` uses nowhere (no dim, no reduction), in mesh order.
std::vector<AxisRef> replicated_axes(const Mesh& mesh, const DistType& type) {
  std::vector<AxisRef> out;
  for (const auto& axis : mesh.axes()) {
    bool used = false;
    for (const auto& d : type.dims)
      for (const auto& a : d.axes) used = used || a.name == axis.name;
    for (const auto& r : type.reduce_axes) used = used || r.name == axis.name;
    if (!used && axis.size > 1) out.push_back(AxisRef{axis.name, 1, axis.size, false});
  }
  return out;
}

/// `prefixes` as they are, then each after an all_slice of the replicated axes into
/// each dim.
std::vector<std::vector<Step>> with_pre_slices(const Mesh& mesh, const DistType& src,
                                               std::vector<std::vector<Step>> prefixes) {
  const auto free = replicated_axes(mesh, src);
  if (free.empty()) return prefixes;
  const std::size_t n = prefixes.size();
  for (std::size_t d = 0; d < src.rank(); ++d)
    for (std::size_t i = 0; i < n; ++i) {
      if (prefixes[i].empty()) continue;
      std::vector<Step> sliced{Step(AllSlice{static_cast<int>(d), free})};
      sliced.insert(sliced.end(), prefixes[i].begin(), prefixes[i].end());
      prefixes.push_back(std::move(sliced));
    }
  return prefixes;
}

}  // namespace

std::vector<Plan> reduction_seeds(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                                  const DistType& dst) {
  std::vector<AxisRef> added;  // pending in the target only: add_pending first (local)
  for (const auto& r : dst.reduce_axes)
    if (!contains(src.reduce_axes, r)) added.push_back(r);
  if (!added.empty()) {
    const Step add(AddPending{added, dst.reduce_op});
    auto after = apply_step(TypedState{src_mesh, src}, add);
    if (!after) return {};
    std::vector<Plan> plans = reduction_seeds(src_mesh, after->type, dst_mesh, dst);
    for (auto& plan : plans) {
      plan.source = src;
      plan.steps.insert(plan.steps.begin(), add);
    }
    return plans;
  }
  std::vector<Plan> plans;
  for (auto& prefix : with_pre_slices(src_mesh, src, prefixes(src, dst))) {
    Plan head{src_mesh, src, prefix, std::nullopt};
    auto states = type_plan(head);
    if (!states) continue;  // a dim the scatter does not divide
    const DistType& mid = states->empty() ? src : states->back().type;
    const DistType rest_src = with_reductions(mid, {}, ReduceOp::sum);
    const DistType rest_dst = with_reductions(dst, {}, ReduceOp::sum);
    auto problem = make_problem(src_mesh, rest_src, dst_mesh, rest_dst);
    if (!problem) continue;
    for (auto& rest : constructive_seeds(*problem, src_mesh, rest_src, dst_mesh, rest_dst)) {
      Plan plan{src_mesh, src, prefix, dst};
      for (auto& step : rest.steps) {
        // The rest was built without the pending reductions the target keeps.
        if (auto* p = std::get_if<CollectivePermute>(&step.op))
          p->to = with_reductions(p->to, dst.reduce_axes, dst.reduce_op);
        plan.steps.push_back(std::move(step));
      }
      plans.push_back(std::move(plan));
    }
  }
  return plans;
}

}  // namespace redist::synth_detail
