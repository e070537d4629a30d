// permutes_first() (permute_first.hpp): the rewrite of (all_to_all, permute) pairs.

#include "permute_first.hpp"

namespace redist::synth_detail {

std::vector<Plan> permutes_first(const Plan& plan) {
  std::vector<Plan> out;
  for (std::size_t k = 0; k + 1 < plan.steps.size(); ++k) {
    const auto* a2a = std::get_if<AllToAll>(&plan.steps[k].op);
    const auto* permute = std::get_if<CollectivePermute>(&plan.steps[k + 1].op);
    if (!a2a || !permute || a2a->moves.size() != 1 || plan.steps[k].groups || plan.steps[k + 1].pairs ||
        permute->to_mesh)
      continue;
    const AllToAllMove& move = a2a->moves.front();
    const int64_t group = product_of_sizes(move.axes);
    // The minor factors of the target's destination dim that multiply to the group size.
    DistType to = permute->to;
    auto& dst = to.dims[static_cast<std::size_t>(move.dst_dim)].axes;
    int64_t size = 1;
    std::size_t cut = dst.size();
    while (cut > 0 && size < group) size *= dst[--cut].size;
    if (size != group) continue;
    std::vector<AxisRef> moved(dst.begin() + static_cast<std::ptrdiff_t>(cut), dst.end());
    dst.resize(cut);
    auto& src = to.dims[static_cast<std::size_t>(move.src_dim)].axes;
    src.insert(src.end(), moved.begin(), moved.end());
    Plan rewritten = plan;
    rewritten.steps[k] = Step(CollectivePermute{std::move(to), std::nullopt});
    rewritten.steps[k + 1] = Step(AllToAll{move.src_dim, move.dst_dim, std::move(moved)});
    out.push_back(std::move(rewritten));
  }
  return out;
}

}  // namespace redist::synth_detail
