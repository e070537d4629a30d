// fused_all_to_alls() (fuse_all_to_alls.hpp): one pass over the steps, each run of
// all_to_alls grown while apply_step accepts the merged step.

#include "fuse_all_to_alls.hpp"

#include <algorithm>

#include "redist/plan/typing.hpp"

namespace redist::synth_detail {

namespace {

/// True when `step` is an all_to_all whose groups the types define.
bool plain_all_to_all(const Step& step) { return std::holds_alternative<AllToAll>(step.op) && !step.groups; }

}  // namespace

std::optional<Plan> fused_all_to_alls(const Plan& plan) {
  const auto pair = std::adjacent_find(plan.steps.begin(), plan.steps.end(), [](const Step& a, const Step& b) {
    return plain_all_to_all(a) && plain_all_to_all(b);
  });
  if (pair == plan.steps.end()) return std::nullopt;  // most seeds: typed only when two could merge
  auto states = type_plan(plan);
  if (!states) return std::nullopt;
  Plan out = plan;
  out.steps.clear();
  bool merged = false;
  TypedState before{plan.mesh, plan.source};
  for (std::size_t k = 0; k < plan.steps.size();) {
    Step step = plan.steps[k];
    std::size_t next = k + 1;
    while (plain_all_to_all(step) && next < plan.steps.size() && plain_all_to_all(plan.steps[next])) {
      Step wider = step;
      auto& moves = std::get<AllToAll>(wider.op).moves;
      const auto& more = std::get<AllToAll>(plan.steps[next].op).moves;
      moves.insert(moves.end(), more.begin(), more.end());
      if (moves.size() > kMaxFusedMoves) break;
      if (!apply_step(before, wider)) break;
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

}  // namespace redist::synth_detail
