// permutes_first() (permute_first.hpp): the rewrite of (all_to_all, permute) pairs.

#include "permute_first.hpp"

#include <algorithm>

#include "factors.hpp"

namespace redist::synth_detail {

namespace {

/// Removes from the minor end of `dim` factors whose sizes multiply to `group`, the
/// last one split into its major and minor parts where needed; returns them, major
/// first, or nullopt when the sizes do not divide so.
std::optional<Factors> cut_minor(Factors& dim, int64_t group) {
  Factors cut;
  while (group > 1) {
    if (dim.empty()) return std::nullopt;
    Factor f = dim.back();
    if (group % f.size == 0) {
      dim.pop_back();
      group /= f.size;
      cut.insert(cut.begin(), f);
    } else if (f.size % group == 0) {
      dim.back().size = f.size / group;  // the major part stays
      cut.insert(cut.begin(), Factor{f.axis, f.pre * (f.size / group), group});
      group = 1;
    } else {
      return std::nullopt;
    }
  }
  return cut;
}

/// `plan` with steps k (the all_to_all of `moves`, in this order) and k + 1 (the
/// permute to `to`) exchanged: the permute to `to` with each move's share of its
/// destination dim's minor end put back at the end of its source dim, then the
/// all_to_all of those shares; nullopt where the sizes do not divide so.
std::optional<Plan> exchanged(const Plan& plan, std::size_t k, const std::vector<AllToAllMove>& moves,
                              const DistType& to) {
  const Mesh& mesh = plan.mesh;
  std::vector<Factors> dims;
  for (const auto& d : to.dims) dims.push_back(factors_of(d.axes, mesh));
  // The moves append in order, so the last one's share is the most minor.
  std::vector<Factors> shares(moves.size());
  for (std::size_t i = moves.size(); i-- > 0;) {
    auto share = cut_minor(dims[static_cast<std::size_t>(moves[i].dst_dim)], product_of_sizes(moves[i].axes));
    if (!share) return std::nullopt;
    shares[i] = std::move(*share);
  }
  // Each move takes the minor end of what is left of its source dim: the first move's
  // share goes last.
  for (std::size_t i = moves.size(); i-- > 0;) {
    auto& src = dims[static_cast<std::size_t>(moves[i].src_dim)];
    src.insert(src.end(), shares[i].begin(), shares[i].end());
  }
  DistType first = to;
  for (std::size_t d = 0; d < dims.size(); ++d) first.dims[d].axes = refs_of(dims[d], mesh);
  std::vector<AllToAllMove> exchange;
  for (std::size_t i = 0; i < moves.size(); ++i)
    exchange.push_back({moves[i].src_dim, moves[i].dst_dim, refs_of(shares[i], mesh)});
  Plan out = plan;
  out.steps[k] = Step(CollectivePermute{std::move(first), std::nullopt});
  out.steps[k + 1] = Step(AllToAll{std::move(exchange)});
  return out;
}

}  // namespace

std::vector<Plan> permutes_first(const Plan& plan) {
  std::vector<Plan> out;
  for (std::size_t k = 0; k + 1 < plan.steps.size(); ++k) {
    const auto* a2a = std::get_if<AllToAll>(&plan.steps[k].op);
    const auto* permute = std::get_if<CollectivePermute>(&plan.steps[k + 1].op);
    if (!a2a || !permute || plan.steps[k].groups || plan.steps[k + 1].pairs || permute->to_mesh) continue;
    if (auto p = exchanged(plan, k, a2a->moves, permute->to)) out.push_back(std::move(*p));
    if (a2a->moves.size() == 2)  // the fused moves in the other order
      if (auto p = exchanged(plan, k, {a2a->moves[1], a2a->moves[0]}, permute->to)) out.push_back(std::move(*p));
  }
  return out;
}

}  // namespace redist::synth_detail
