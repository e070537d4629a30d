#pragma once
// The plan mutator of the checker's tests: wrong (or, by chance, equivalent) variants of
// a plan, made in the plan IR (drop a step, swap two axes, change a dim, reorder steps)
// and in the lowered form (reorder a group's members, change a permute pair, shift a
// slice offset, swap an all-to-all's split and concat dims; for a fused all-to-all:
// swap two moves' axes or destinations, reverse its moves, read part digits from the wrong axes,
// concatenate a part on the wrong dim; for a fused all-gather: swap two parts' axes,
// reverse its parts, read part digits from the wrong axes, gather two parts on each
// other's dims; for reductions: reduce over
// a wrong pending axis, swap devices between reduction groups, apply an all_reduce twice;
// for padded slices: the last shard's offset one early, every chunk one shorter).

#include <algorithm>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/plan/lowered.hpp"
#include "redist/plan/plan.hpp"

namespace redist::testing {

/// One mutant. `plan` is what the interpreter runs; `lowered`, when set, is the mutated
/// lowered form the checker reads (else the checker lowers `plan`). A mutant that the
/// plan IR cannot express has no plan (`runnable` false) and names the mutated step.
struct Mutant {
  std::string kind;
  Plan plan;
  std::optional<LoweredPlan> lowered;
  bool runnable = true;
  int step = 0;  // 1-based mutated step
};

namespace mutate_detail {

/// The axes of a grouped step, or nullptr for a permute or a transfer.
inline std::vector<AxisRef>* step_axes(StepOp& op) {
  return std::visit(
      [](auto& s) -> std::vector<AxisRef>* {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, CollectivePermute> || std::is_same_v<T, Transfer>) return nullptr;
        else if constexpr (std::is_same_v<T, AllToAll>) return &s.moves[0].axes;
        else if constexpr (std::is_same_v<T, AllGather>) return &s.parts[0].axes;
        else return &s.axes;
      },
      op);
}

/// The group spec of a lowered step, or nullptr for a permute or a transfer.
inline GroupSpec* lowered_group(LoweredOp& op) {
  return std::visit(
      [](auto& s) -> GroupSpec* {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, LoweredPermute> || std::is_same_v<T, LoweredTransfer>) return nullptr;
        else return &s.group;
      },
      op);
}

/// `plan` without its asserted target (mutants end wherever they end).
inline Plan untargeted(Plan plan) {
  plan.target.reset();
  return plan;
}

/// Plan-IR mutants of step k.
inline void plan_mutants(const Plan& plan, std::size_t k, std::vector<Mutant>& out) {
  const int rank = static_cast<int>(plan.source.rank());
  auto add = [&](std::string kind, Plan p) { out.push_back({std::move(kind), std::move(p), std::nullopt, true, 0}); };
  {
    Plan p = untargeted(plan);
    p.steps.erase(p.steps.begin() + static_cast<std::ptrdiff_t>(k));
    add("drop a step", std::move(p));
  }
  if (k + 1 < plan.steps.size()) {
    Plan p = untargeted(plan);
    std::swap(p.steps[k], p.steps[k + 1]);
    add("reorder steps", std::move(p));
  }
  Plan p = untargeted(plan);
  StepOp& op = p.steps[k].op;
  p.steps[k].groups.reset();
  p.steps[k].pairs.reset();
  if (auto* axes = step_axes(op); axes && axes->size() >= 2) {
    Plan q = p;
    auto* qa = step_axes(q.steps[k].op);
    std::swap((*qa)[0], (*qa)[1]);
    add("swap two axes", std::move(q));
  }
  if (const auto* permute = std::get_if<CollectivePermute>(&op)) {
    for (std::size_t d = 0; d < permute->to.rank(); ++d) {
      if (permute->to.dims[d].axes.size() < 2) continue;
      Plan q = p;
      auto& axes = std::get<CollectivePermute>(q.steps[k].op).to.dims[d].axes;
      std::swap(axes[0], axes[1]);
      add("swap two axes", std::move(q));
      break;
    }
  }
  if (rank >= 2) {
    Plan q = p;
    std::visit(
        [rank](auto& s) {
          using Op = std::decay_t<decltype(s)>;
          if constexpr (std::is_same_v<Op, AllToAll>) {
            auto& m = s.moves[0];
            m.dst_dim = (m.dst_dim + 1) % rank == m.src_dim ? (m.dst_dim + 2) % rank : (m.dst_dim + 1) % rank;
          } else if constexpr (std::is_same_v<Op, AllGather>) {
            s.parts[0].dim = (s.parts[0].dim + 1) % rank;
          } else if constexpr (requires { s.dim; }) {
            s.dim = (s.dim + 1) % rank;
          }
        },
        q.steps[k].op);
    if (q.steps[k].op != p.steps[k].op) add("change a dim", std::move(q));
  }
  if (const auto* a2a = std::get_if<AllToAll>(&op); a2a && a2a->moves.size() >= 2) {
    Plan q = p;  // a fused all_to_all whose first two moves trade axes
    auto& moves = std::get<AllToAll>(q.steps[k].op).moves;
    std::swap(moves[0].axes, moves[1].axes);
    add("swap two fused moves' axes", std::move(q));
    Plan d = p;  // ... or destinations
    auto& dst = std::get<AllToAll>(d.steps[k].op).moves;
    std::swap(dst[0].dst_dim, dst[1].dst_dim);
    if (d.steps[k].op != p.steps[k].op) add("swap two fused moves' destinations", std::move(d));
    Plan r = p;  // the moves in the other order (the same when they share no dim)
    auto& back = std::get<AllToAll>(r.steps[k].op).moves;
    std::reverse(back.begin(), back.end());
    add("reverse the fused moves", std::move(r));
  }
  if (const auto* gather = std::get_if<AllGather>(&op); gather && gather->parts.size() >= 2) {
    Plan q = p;  // a fused all_gather whose first two parts trade axes
    auto& parts = std::get<AllGather>(q.steps[k].op).parts;
    std::swap(parts[0].axes, parts[1].axes);
    add("swap two fused parts' axes", std::move(q));
    Plan r = p;  // the parts in the other order (the same data: each reads its own axes)
    auto& back = std::get<AllGather>(r.steps[k].op).parts;
    std::reverse(back.begin(), back.end());
    add("reverse the fused parts", std::move(r));
  }
}

/// Lowered-form mutants of step k (0-based) of `lowered`, with the equivalent plan
/// (explicit groups= or pairs=) when the plan IR can express it.
inline void lowered_mutants(const Plan& plan, const LoweredPlan& lowered, std::size_t k, std::vector<Mutant>& out) {
  const LoweredStep& step = lowered.steps[k];
  const Mesh& mesh = step.before.mesh;
  const int at = static_cast<int>(k + 1);
  auto add = [&](std::string kind, LoweredPlan l, std::optional<DeviceGroups> groups, std::optional<DevicePairs> pairs,
                 bool runnable) {
    Plan p = plan;
    p.steps[k].groups = std::move(groups);
    p.steps[k].pairs = std::move(pairs);
    out.push_back({std::move(kind), std::move(p), std::move(l), runnable, at});
  };
  LoweredPlan l = lowered;
  LoweredOp& op = l.steps[k].op;
  if (GroupSpec* g = lowered_group(op); g && g->size >= 2) {
    DeviceGroups table = group_table(*g, mesh);
    std::swap(table[0][0], table[0][1]);
    LoweredPlan m = l;
    lowered_group(m.steps[k].op)->table = table;
    add("reorder a group's members", std::move(m), table, std::nullopt, true);
  }
  if (const auto* s = std::get_if<LoweredSlice>(&op); s && s->group.size >= 2) {
    // Rotate every device's chunk by one within its group: groups= with rotated members.
    const auto base = slice_offsets(*s, mesh);
    DeviceGroups rotated = group_table(s->group, mesh);
    for (auto& group : rotated) std::rotate(group.rbegin(), group.rbegin() + 1, group.rend());
    auto by_chunk = base, by_one = base;
    for (auto& o : by_chunk) o = (o + s->chunk) % (s->chunk * s->group.size);
    for (auto& o : by_one) o += 1;
    LoweredPlan m = l;
    std::get<LoweredSlice>(m.steps[k].op).offsets = by_chunk;
    add("shift a slice offset by a chunk", std::move(m), rotated, std::nullopt, true);
    LoweredPlan n = l;  // off by one element: the plan IR has no form for it
    std::get<LoweredSlice>(n.steps[k].op).offsets = by_one;
    add("shift a slice offset by one", std::move(n), std::nullopt, std::nullopt, false);
  }
  if (const auto* s = std::get_if<LoweredSlice>(&op); s && s->group.size >= 2 && has_padding(step.after.type)) {
    // Padding: the devices whose chunk holds the buffer's last entries start one early
    // (a shard boundary), and every chunk is one shorter (a last shard's length).
    const int64_t extent = local_shape(step.before.type)[static_cast<std::size_t>(s->dim)];
    auto early = slice_offsets(*s, mesh);
    bool moved = false;
    for (auto& o : early)
      if (o >= 1 && o < extent && o + s->chunk >= extent) o -= 1, moved = true;
    if (moved) {
      LoweredPlan m = l;
      std::get<LoweredSlice>(m.steps[k].op).offsets = early;
      add("last shard's offset one early", std::move(m), std::nullopt, std::nullopt, false);
    }
    if (s->chunk >= 2) {
      LoweredPlan m = l;
      std::get<LoweredSlice>(m.steps[k].op).chunk -= 1;
      add("padded chunks one shorter", std::move(m), std::nullopt, std::nullopt, false);
    }
  }
  if (const auto* p = std::get_if<LoweredPermute>(&op); p && mesh.num_devices() >= 2) {
    DevicePairs pairs = pair_table(*p, mesh, step.after.mesh);
    std::swap(pairs[0].first, pairs[1].first);
    LoweredPlan m = l;
    std::get<LoweredPermute>(m.steps[k].op).table = pairs;
    add("change a permute pair", std::move(m), std::nullopt, pairs, true);
  }
  const bool reducing = std::holds_alternative<LoweredReduceScatter>(op) || std::holds_alternative<LoweredAllReduce>(op);
  if (GroupSpec* g = lowered_group(op); reducing && g && !g->table && g->size >= 2) {
    // A pending axis of the same size outside the group in place of a group axis.
    for (const auto& pending : canonical(step.before.type, mesh).reduce_axes) {
      auto axes = g->axes;
      auto it = std::find_if(axes.begin(), axes.end(), [&](const AxisRef& a) { return a.size == pending.size; });
      if (it == axes.end() ||
          std::any_of(axes.begin(), axes.end(), [&](const AxisRef& a) { return overlaps(a, pending); }))
        continue;
      *it = pending;
      const DeviceGroups table = group_table(GroupSpec{axes, std::nullopt, g->size}, mesh);
      LoweredPlan m = l;
      lowered_group(m.steps[k].op)->table = table;
      add("reduce over a wrong pending axis", std::move(m), table, std::nullopt, true);
      break;
    }
    DeviceGroups table = group_table(*g, mesh);
    if (table.size() >= 2) {
      std::swap(table[0][0], table[1][0]);
      LoweredPlan m = l;
      lowered_group(m.steps[k].op)->table = table;
      add("swap devices between reduction groups", std::move(m), table, std::nullopt, true);
    }
  }
  if (std::holds_alternative<LoweredAllReduce>(op)) {
    // The same sums combined again: the first all_reduce is declared to leave its axes
    // pending, and a second one reduces them (so both are well-formed inputs).
    LoweredPlan m = l;
    LoweredStep again = m.steps[k];
    m.steps[k].after = m.steps[k].before;
    m.steps.insert(m.steps.begin() + static_cast<std::ptrdiff_t>(k) + 1, again);
    out.push_back({"apply an all_reduce twice", plan, std::move(m), false, at + 1});
  }
  // Where both dims hold one element before and after (padded dims of global size 1),
  // the swapped all_to_all moves the same elements: no mutant.
  auto one_element = [&](int dim) {
    const auto i = static_cast<std::size_t>(dim);
    return local_shape(step.before.type)[i] == 1 && local_shape(step.after.type)[i] == 1;
  };
  if (auto* a = std::get_if<LoweredAllToAll>(&op); a && a->group.size >= 2 && a->parts.size() == 1 &&
                                                   !(one_element(a->parts[0].split_dim) && one_element(a->parts[0].concat_dim))) {
    std::swap(a->parts[0].split_dim, a->parts[0].concat_dim);
    add("swap split and concat dims", l, std::nullopt, std::nullopt, false);
  }
  if (const auto* a = std::get_if<LoweredAllToAll>(&op); a && a->parts.size() >= 2) {
    // A fused all_to_all whose parts read their member digits from each other's axes
    // (sizes kept: the member index is cut wrongly), and whose first part's chunks are
    // concatenated along the second part's concat dim.
    LoweredPlan m = l;
    auto& parts = std::get<LoweredAllToAll>(m.steps[k].op).parts;
    std::swap(parts[0].axes, parts[1].axes);
    if (parts[0].size >= 2 && parts[1].size >= 2)
      add("swap two fused parts' digits", std::move(m), std::nullopt, std::nullopt, false);
    // A first part of one member concatenates one piece: on any dim the same data.
    if (a->parts[0].size >= 2 && a->parts[0].concat_dim != a->parts[1].concat_dim &&
        a->parts[1].concat_dim != a->parts[0].split_dim) {
      LoweredPlan n = l;
      auto& q = std::get<LoweredAllToAll>(n.steps[k].op).parts;
      q[0].concat_dim = q[1].concat_dim;
      add("concat a fused part on another part's dim", std::move(n), std::nullopt, std::nullopt, false);
    }
  }
  if (const auto* g = std::get_if<LoweredGather>(&op); g && g->parts.size() >= 2 && g->parts[0].size >= 2 &&
                                                       g->parts[1].size >= 2) {
    // A fused all_gather whose parts read their member digits from each other's axes
    // (sizes kept: the member index is cut wrongly), and whose first two parts place
    // their blocks along each other's dims (of equal sizes: the shapes are kept).
    LoweredPlan m = l;
    auto& parts = std::get<LoweredGather>(m.steps[k].op).parts;
    std::swap(parts[0].axes, parts[1].axes);
    add("swap two fused parts' digits", std::move(m), std::nullopt, std::nullopt, false);
    if (g->parts[0].size == g->parts[1].size) {
      LoweredPlan n = l;
      auto& q = std::get<LoweredGather>(n.steps[k].op).parts;
      std::swap(q[0].dim, q[1].dim);
      add("gather fused parts on each other's dims", std::move(n), std::nullopt, std::nullopt, false);
    }
  }
}

}  // namespace mutate_detail

/// Every mutant of `plan` (lowered as `lowered`).
inline std::vector<Mutant> mutants(const Plan& plan, const LoweredPlan& lowered) {
  std::vector<Mutant> out;
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    mutate_detail::plan_mutants(plan, k, out);
    mutate_detail::lowered_mutants(plan, lowered, k, out);
  }
  return out;
}

}  // namespace redist::testing
