// gathers_major_last() (gather_order.hpp): a stable sort of each run of gathers by dim,
// highest first, kept when the sorted plan types and costs the same (the caller's
// modeled time stays exact).

#include "gather_order.hpp"

#include <algorithm>
#include <cmath>


namespace redist::synth_detail {

Plan gathers_major_last(const CostModel& model, Plan plan) {
  Plan sorted = plan;
  auto& steps = sorted.steps;
  auto gather = [](const Step& s) { return std::holds_alternative<AllGather>(s.op) && !s.groups; };
  bool changed = false;
  for (std::size_t i = 0; i < steps.size();) {
    std::size_t j = i;
    while (j < steps.size() && gather(steps[j])) ++j;
    if (j - i >= 2) {
      auto dim = [](const Step& s) { return std::get<AllGather>(s.op).dim; };
      std::stable_sort(steps.begin() + static_cast<std::ptrdiff_t>(i), steps.begin() + static_cast<std::ptrdiff_t>(j),
                       [&](const Step& a, const Step& b) { return dim(a) > dim(b); });
      changed = changed || !std::equal(steps.begin() + static_cast<std::ptrdiff_t>(i),
                                       steps.begin() + static_cast<std::ptrdiff_t>(j),
                                       plan.steps.begin() + static_cast<std::ptrdiff_t>(i));
    }
    i = std::max(j, i + 1);
  }
  if (!changed) return plan;
  // Each dim loses the same suffixes in the same order, so a sorted plan that types
  // (plan_cost types it) ends where `plan` does.
  auto old_cost = plan_cost(model, plan), new_cost = plan_cost(model, sorted);
  if (!old_cost || !new_cost || std::abs(new_cost->time_us - old_cost->time_us) > 1e-12 * old_cost->time_us)
    return plan;
  return sorted;
}

}  // namespace redist::synth_detail
