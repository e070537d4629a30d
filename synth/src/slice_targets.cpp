// slices_at_their_target() (slice_targets.hpp): each (all_slice, all_to_all) pair whose
// axes overlap gives one rewritten plan; the engine keeps it only where it types, ends
// at the target and costs less (engine.cpp best_seed).

#include "slice_targets.hpp"

#include <algorithm>

namespace redist::synth_detail {

std::vector<Plan> slices_at_their_target(const Plan& plan) {
  std::vector<Plan> out;
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const auto* slice = std::get_if<AllSlice>(&plan.steps[k].op);
    if (!slice || plan.steps[k].groups) continue;
    // The first all_to_all after the slice, with only slices of other dims between.
    std::size_t m = k + 1;
    while (m < plan.steps.size() && std::holds_alternative<AllSlice>(plan.steps[m].op)) ++m;
    if (m == plan.steps.size() || plan.steps[m].groups) continue;
    const auto* a2a = std::get_if<AllToAll>(&plan.steps[m].op);
    if (!a2a || a2a->moves.size() != 1 || a2a->moves[0].src_dim != slice->dim) continue;  // one move only
    const AllToAllMove& move = a2a->moves[0];
    std::vector<AxisRef> moved;  // sliced into src_dim, then moved out of it
    for (const auto& a : slice->axes)
      if (std::find(move.axes.begin(), move.axes.end(), a) != move.axes.end()) moved.push_back(a);
    if (moved.empty()) continue;
    bool clear = true;  // no slice between cuts the all_to_all's target dim
    for (std::size_t j = k + 1; j < m; ++j) clear = clear && std::get<AllSlice>(plan.steps[j].op).dim != move.dst_dim;
    if (!clear) continue;
    Plan p{plan.mesh, plan.source, {}, plan.target};
    for (std::size_t j = 0; j < plan.steps.size(); ++j) {
      if (j == k) {
        if (auto rest = axes_minus(slice->axes, moved); !rest.empty()) p.steps.emplace_back(AllSlice{slice->dim, rest});
        p.steps.emplace_back(AllSlice{move.dst_dim, moved});
      } else if (j == m) {
        if (auto rest = axes_minus(move.axes, moved); !rest.empty())
          p.steps.emplace_back(AllToAll{move.src_dim, move.dst_dim, rest});
      } else {
        p.steps.push_back(plan.steps[j]);
      }
    }
    out.push_back(std::move(p));
  }
  return out;
}

}  // namespace redist::synth_detail
