// fused_all_to_alls() and fused_all_gathers() (fuse_collectives.hpp): one pass over the
// steps, each run of one kind grown while apply_step accepts the merged step (and, for
// gathers, the cost model prices it lower).

#include "fuse_collectives.hpp"

#include <algorithm>
#include <type_traits>

#include "redist/plan/typing.hpp"

namespace redist::synth_detail {

namespace {

/// Returns true when `step` is an `Op` whose groups the types define.
template <class Op>
bool plain(const Step& step) {
  return std::holds_alternative<Op>(step.op) && !step.groups;
}

/// Returns the moves of an all_to_all or the parts of an all_gather (`Op`, maybe const).
template <class Op>
auto& parts_of(Op& op) {
  if constexpr (std::is_same_v<std::remove_const_t<Op>, AllToAll>) return op.moves;
  else return op.parts;
}

/// Returns true when all_to_alls `a` and `b` have at most kMaxFusedMoves moves together
/// (whether one exchange does them is the typing rule's question).
bool may_merge(const AllToAll& a, const AllToAll& b) { return a.moves.size() + b.moves.size() <= kMaxFusedMoves; }

/// Returns true when all_gathers `a` and `b` have at most kMaxFusedMoves parts together
/// and gather distinct dims (checked before anything is typed: most seeds' adjacent
/// gathers are of one dim).
bool may_merge(const AllGather& a, const AllGather& b) {
  if (a.parts.size() + b.parts.size() > kMaxFusedMoves) return false;
  for (const auto& p : a.parts)
    for (const auto& q : b.parts)
      if (p.dim == q.dim) return false;
  return true;
}

/// Returns true when steps `a` and `b` are plain `Op`s that may merge.
template <class Op>
bool mergeable(const Step& a, const Step& b) {
  return plain<Op>(a) && plain<Op>(b) && may_merge(std::get<Op>(a.op), std::get<Op>(b.op));
}

/// Returns `plan` with each run of consecutive plain `Op`s merged, from its first step
/// on, while the merged step has at most kMaxFusedMoves parts, types, and `accept(before,
/// merged, after, first, last)` holds for it (steps first..last of `plan` from state
/// `before`, typed as `states`); nullopt when no two merge or `plan` does not type-check.
/// `typed`: `plan`'s states where the caller has them.
template <class Op, class Accept>
std::optional<Plan> fused_runs(const Plan& plan, const std::vector<TypedState>* typed, Accept accept) {
  const auto pair = std::adjacent_find(plan.steps.begin(), plan.steps.end(), mergeable<Op>);
  if (pair == plan.steps.end()) return std::nullopt;  // most seeds: typed only when two could merge
  std::optional<std::vector<TypedState>> own;
  if (!typed) {
    auto result = type_plan(plan);
    if (!result) return std::nullopt;
    own = std::move(*result);
  }
  const std::vector<TypedState>* states = typed ? typed : &*own;
  Plan out = plan;
  out.steps.clear();
  bool merged = false;
  TypedState before{plan.mesh, plan.source};
  for (std::size_t k = 0; k < plan.steps.size();) {
    Step step = plan.steps[k];
    std::size_t next = k + 1;
    while (next < plan.steps.size() && mergeable<Op>(step, plan.steps[next])) {
      Step wider = step;
      auto& parts = parts_of(std::get<Op>(wider.op));
      const auto& more = parts_of(std::get<Op>(plan.steps[next].op));
      parts.insert(parts.end(), more.begin(), more.end());
      const auto after = apply_step(before, wider);
      if (!after || !accept(before, wider, *after, *states, k, next)) break;
      step = std::move(wider);
      ++next;
      merged = true;
    }
    out.steps.push_back(std::move(step));
    before = (*states)[next - 1];
    k = next;
  }
  if (!merged) return std::nullopt;
  return out;
}

}  // namespace

std::optional<Plan> fused_all_to_alls(const Plan& plan, const std::vector<TypedState>* states) {
  return fused_runs<AllToAll>(plan, states, [](const TypedState&, const Step&, const TypedState&,
                                       const std::vector<TypedState>&, std::size_t, std::size_t) { return true; });
}

std::optional<Plan> fused_all_gathers(const CostModel& model, const Plan& plan,
                                      const std::vector<TypedState>* states) {
  return fused_runs<AllGather>(plan, states, [&](const TypedState& before, const Step& merged, const TypedState& after,
                                         const std::vector<TypedState>& states, std::size_t first, std::size_t last) {
    double apart = 0;
    for (std::size_t i = first; i <= last; ++i)
      apart += step_cost(model, i == first ? before : states[i - 1], states[i], plan.steps[i]).time_us;
    return step_cost(model, before, after, merged).time_us < apart * (1 - 1e-9);
  });
}

}  // namespace redist::synth_detail
