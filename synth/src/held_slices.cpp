#include "held_slices.hpp"

#include <algorithm>
#include <vector>

#include "factors.hpp"

namespace redist::synth_detail {

std::optional<Plan> held_slices(const Plan& plan) {
  std::size_t k = 0;
  while (k < plan.steps.size() && std::holds_alternative<AllSlice>(plan.steps[k].op)) ++k;
  if (k == 0 || k == plan.steps.size()) return std::nullopt;
  const auto* permute = std::get_if<CollectivePermute>(&plan.steps[k].op);
  if (!permute || permute->to_mesh || plan.steps[k].pairs) return std::nullopt;
  const DistType& source = plan.source;
  const DistType& after = permute->to;
  if (!source.reduce_axes.empty() || has_padding(source) || has_padding(after)) return std::nullopt;
  const Mesh& mesh = plan.mesh;
  const auto digits = digits_of(mesh);
  // Per dim: the source's and the target's digits; `equal[s]` is the target digit that
  // equals source digit s on the devices that hold their block.
  std::vector<std::vector<std::size_t>> held(source.rank()), wanted(source.rank());
  std::vector<std::optional<std::size_t>> equal(digits.size());
  for (std::size_t d = 0; d < source.rank(); ++d) {
    auto s = digit_list(factors_of(source.dims[d].axes, mesh), digits);
    auto t = digit_list(factors_of(after.dims[d].axes, mesh), digits);
    if (!s || !t || t->size() < s->size()) return std::nullopt;
    for (std::size_t j = 0; j < s->size(); ++j) {
      if (digits[(*s)[j]].radix != digits[(*t)[j]].radix) return std::nullopt;
      equal[(*s)[j]] = (*t)[j];
    }
    held[d] = std::move(*s);
    wanted[d] = std::move(*t);
  }
  std::vector<bool> used(digits.size(), false);
  for (const auto& s : held)
    for (auto i : s) used[i] = true;
  std::vector<Step> slices;
  for (std::size_t d = 0; d < source.rank(); ++d) {
    std::vector<std::size_t> extras;
    for (std::size_t j = held[d].size(); j < wanted[d].size(); ++j) {
      std::size_t u = wanted[d][j];
      for (std::size_t hops = 0; used[u] && equal[u] && hops <= digits.size(); ++hops) u = *equal[u];
      if (used[u]) return std::nullopt;  // a source digit with no free equal
      used[u] = true;
      extras.push_back(u);
    }
    if (!extras.empty())
      slices.emplace_back(AllSlice{static_cast<int>(d), refs_of(factors_of_digits(extras, digits), mesh)});
  }
  const auto rest = plan.steps.begin() + static_cast<std::ptrdiff_t>(k);
  if (std::equal(slices.begin(), slices.end(), plan.steps.begin(), rest)) return std::nullopt;
  Plan out{plan.mesh, plan.source, std::move(slices), plan.target};
  out.steps.insert(out.steps.end(), rest, plan.steps.end());
  return out;
}

}  // namespace redist::synth_detail
