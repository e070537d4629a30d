#pragma once
// Random valid plans for property tests: each step is drawn among the candidate steps
// that type-check on the current state, sometimes with its lowering made explicit.

#include <rapidcheck.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "redist/plan/lowering.hpp"
#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"
#include "tests/support/generators.hpp"

namespace redist::testing {

/// Size of the axis `name` of `mesh`.
inline int64_t axis_size_of(const Mesh& mesh, const std::string& name) { return mesh.axis_size(*mesh.axis_index(name)); }

/// Factor-level suffixes of `axes`: every suffix of whole references, and each minor
/// factor of the last reference when its size is composite (x:(2)2 of x on x:4).
inline std::vector<std::vector<AxisRef>> suffixes(const Mesh& mesh, const std::vector<AxisRef>& axes) {
  std::vector<std::vector<AxisRef>> out;
  for (std::size_t k = 1; k <= axes.size(); ++k) out.emplace_back(axes.end() - k, axes.end());
  if (!axes.empty()) {
    const AxisRef& last = axes.back();
    for (int64_t f = 2; f < last.size; ++f)
      if (last.size % f == 0)
        out.push_back({make_axis_ref(last.name, last.pre * (last.size / f), f, axis_size_of(mesh, last.name))});
  }
  return out;
}

/// Axes `type` does not mention at all, whole, and split in two when composite.
inline std::vector<AxisRef> unused_pieces(const Mesh& mesh, const DistType& type) {
  const auto used = used_axes(type);
  std::vector<AxisRef> out;
  for (const auto& axis : mesh.axes()) {
    if (std::any_of(used.begin(), used.end(), [&](const AxisRef& a) { return a.name == axis.name; })) continue;
    out.push_back({axis.name, 1, axis.size, false});
    for (int64_t a = 2; a < axis.size; ++a)
      if (axis.size % a == 0) {
        out.push_back({axis.name, 1, a, true});
        out.push_back({axis.name, a, axis.size / a, true});
        break;
      }
  }
  return out;
}

/// `mesh` with its device order reversed.
inline Mesh reversed_order(const Mesh& mesh) {
  std::vector<int64_t> order;
  for (int64_t p = mesh.num_devices(); p-- > 0;) order.push_back(mesh.device_at(p));
  return Mesh::create(mesh.axes(), order).value();
}

/// Returns true when `op` is a fused all_to_all or all_gather (several moves or parts).
inline bool is_fused(const StepOp& op) {
  if (const auto* a2a = std::get_if<AllToAll>(&op)) return a2a->moves.size() > 1;
  if (const auto* gather = std::get_if<AllGather>(&op)) return gather->parts.size() > 1;
  return false;
}

/// Steps of every kind that may apply to `state`; some may not type-check.
inline std::vector<StepOp> candidate_ops(const TypedState& state) {
  const DistType& t = state.type;
  const int rank = static_cast<int>(t.rank());
  std::vector<StepOp> ops;
  std::vector<AllToAllMove> moves;
  std::vector<AllGatherPart> gathers;
  for (int d = 0; d < rank; ++d)
    for (const auto& s : suffixes(state.mesh, t.dims[d].axes)) {
      ops.push_back(AllGather{d, s});
      gathers.push_back({d, s});
      for (int dst = 0; dst < rank; ++dst)
        if (dst != d) {
          ops.push_back(AllToAll{d, dst, s});
          moves.push_back({d, dst, s});
        }
    }
  // Fused all_to_alls: a move, then a move of what it leaves (another source dim, or the
  // rest of the same one), no more of them than single moves; the first also with a third.
  std::size_t fused = 0;
  for (const auto& first : moves) {
    auto mid = apply_step(state, Step{AllToAll{first.src_dim, first.dst_dim, first.axes}});
    if (!mid) continue;
    std::vector<AllToAllMove> seconds;
    for (int d = 0; d < rank; ++d)
      for (const auto& s : suffixes(state.mesh, mid->type.dims[d].axes))
        for (int dst = 0; dst < rank; ++dst)
          if (dst != d && d != first.dst_dim && dst != first.src_dim) seconds.push_back({d, dst, s});
    for (std::size_t j = 0; j < seconds.size() && fused < moves.size(); ++j, ++fused) {
      ops.push_back(AllToAll{std::vector<AllToAllMove>{first, seconds[j]}});
      if (fused == 0 && j + 1 < seconds.size())
        ops.push_back(AllToAll{std::vector<AllToAllMove>{first, seconds[j], seconds[j + 1]}});
    }
  }
  // Fused all_gathers: two parts on distinct dims (either order), the first also with a
  // third, no more of them than single gathers.
  std::size_t fused_gathers = 0;
  for (std::size_t i = 0; i < gathers.size(); ++i)
    for (std::size_t j = 0; j < gathers.size() && fused_gathers < gathers.size(); ++j)
      if (gathers[i].dim != gathers[j].dim) {
        ops.push_back(AllGather{std::vector<AllGatherPart>{gathers[i], gathers[j]}});
        for (std::size_t m = 0; fused_gathers == 0 && m < gathers.size(); ++m)
          if (gathers[m].dim != gathers[i].dim && gathers[m].dim != gathers[j].dim) {
            ops.push_back(AllGather{std::vector<AllGatherPart>{gathers[i], gathers[j], gathers[m]}});
            break;
          }
        ++fused_gathers;
      }
  const auto unused = unused_pieces(state.mesh, t);
  for (const auto& p : unused)
    for (int d = 0; d < rank; ++d) ops.push_back(AllSlice{d, {p}});
  for (const auto& r : t.reduce_axes) {
    ops.push_back(AllReduce{{r}});
    for (int d = 0; d < rank; ++d) ops.push_back(ReduceScatter{d, {r}});
  }
  if (t.reduce_axes.size() > 1) ops.push_back(AllReduce{t.reduce_axes});
  for (int d = 0; d < rank; ++d) {
    const auto& axes = t.dims[d].axes;
    if (axes.size() > 1) {
      DistType to = t;
      std::reverse(to.dims[d].axes.begin(), to.dims[d].axes.end());
      ops.push_back(CollectivePermute{to, std::nullopt});
    }
    for (std::size_t i = 0; i < axes.size(); ++i)
      for (const auto& p : unused)
        if (p.size == axes[i].size && !p.sub) {
          DistType to = t;
          to.dims[d].axes[i] = p;
          ops.push_back(CollectivePermute{to, std::nullopt});
        }
  }
  if (state.mesh.num_devices() > 1) ops.push_back(CollectivePermute{t, reversed_order(state.mesh)});
  return ops;
}

/// A random plan of up to `max_steps` valid steps from a random source; the target is
/// sometimes asserted, and some steps carry their explicit lowering.
inline rc::Gen<Plan> gen_plan(int max_steps = 6) {
  return rc::gen::exec([max_steps] {
    MeshOptions mesh_options;
    mesh_options.max_devices = 64;
    TypeOptions type_options;
    type_options.reductions = true;
    Plan plan;
    plan.mesh = *gen_mesh(mesh_options);
    plan.source = *gen_type(plan.mesh, type_options);
    TypedState state{plan.mesh, plan.source};
    const int steps = *rc::gen::inRange(0, max_steps + 1);
    for (int i = 0; i < steps; ++i) {
      std::vector<std::pair<Step, TypedState>> valid;
      for (auto& op : candidate_ops(state)) {
        Step step{std::move(op), std::nullopt, std::nullopt};
        if (auto next = apply_step(state, step)) valid.emplace_back(std::move(step), std::move(*next));
      }
      if (valid.empty()) break;
      // A third of the time a fused all_to_all or all_gather where one applies (they are few).
      std::vector<std::size_t> fused;
      for (std::size_t v = 0; v < valid.size(); ++v)
        if (is_fused(valid[v].first.op)) fused.push_back(v);
      const std::size_t pick = !fused.empty() && *rc::gen::inRange(0, 3) == 0
                                   ? fused[*rc::gen::inRange<std::size_t>(0, fused.size())]
                                   : *rc::gen::inRange<std::size_t>(0, valid.size());
      auto [step, next] = valid[pick];
      if (*rc::gen::inRange(0, 4) == 0) {
        if (std::holds_alternative<CollectivePermute>(step.op)) step.pairs = permute_pairs(state, next);
        else step.groups = step_groups(state, step);
      }
      plan.steps.push_back(std::move(step));
      state = std::move(next);
    }
    if (*rc::gen::arbitrary<bool>()) plan.target = state.type;
    return plan;
  });
}

}  // namespace redist::testing
