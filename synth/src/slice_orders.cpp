// reordered_slices() (slice_orders.hpp): std::next_permutation over the positions of
// one all_slice's axes, for the first all_slice that a permute follows.

#include "slice_orders.hpp"

#include <algorithm>
#include <numeric>

namespace redist::synth_detail {

std::vector<Plan> reordered_slices(const Plan& plan) {
  std::vector<Plan> out;
  const auto permute = std::find_if(plan.steps.begin(), plan.steps.end(), [](const Step& s) {
    return std::holds_alternative<CollectivePermute>(s.op);
  });
  for (auto it = plan.steps.begin(); it != permute; ++it) {
    const auto* slice = std::get_if<AllSlice>(&it->op);
    if (!slice || slice->axes.size() < 2 || slice->axes.size() > kMaxReorderedAxes) continue;
    std::vector<std::size_t> order(slice->axes.size());
    std::iota(order.begin(), order.end(), 0);
    while (std::next_permutation(order.begin(), order.end())) {
      Plan p = plan;
      auto& axes = std::get<AllSlice>(p.steps[static_cast<std::size_t>(it - plan.steps.begin())].op).axes;
      for (std::size_t i = 0; i < order.size(); ++i) axes[i] = slice->axes[order[i]];
      out.push_back(std::move(p));
    }
    break;
  }
  return out;
}

}  // namespace redist::synth_detail
