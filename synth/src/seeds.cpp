// constructive_seeds(): the builders' plans that seed the search engine.

#include "seeds.hpp"

#include <algorithm>

#include "synth_atoms.hpp"
#include "synth_builders.hpp"

namespace redist::synth_detail {

namespace {

/// All_to_alls up to which a direct plan is taken without building the others.
constexpr long kDirectEnough = 2;

/// True when a direct plan is the only seed: at most kDirectEnough all_to_alls and
/// every slice before them.
bool clean_and_short(const Moves& moves) {
  long moved = 0;
  for (const auto& m : moves) {
    if (m.kind == Move::Kind::slice && moved > 0) return false;
    moved += m.kind == Move::Kind::all_to_all;
  }
  return moved <= kDirectEnough;
}

constexpr SlicePlacement kPlacements[] = {SlicePlacement::target_first, SlicePlacement::predecessor_first,
                                         SlicePlacement::exact};

}  // namespace

std::vector<Plan> constructive_seeds(const Problem& problem, const Mesh& src_mesh, const DistType& src,
                                     const Mesh& dst_mesh, const DistType& dst) {
  std::vector<Moves> candidates;
  if (!problem.mesh_change && problem.src == problem.dst) {
    candidates.emplace_back();
  } else if (const auto primes = atomize(problem.frame, problem.src, problem.dst, true); !primes) {
    if (auto m = matched_plan(problem, nullptr)) candidates.push_back(std::move(*m));
  } else {
    auto direct = direct_plan(problem, primes->a, primes->b);
    const bool enough = direct && !problem.mesh_change && clean_and_short(*direct);
    if (direct) candidates.push_back(std::move(*direct));
    if (!enough) {
      if (auto m = matched_plan(problem, &*primes)) candidates.push_back(std::move(*m));
      // The balanced plan of the first placement that gives one.
      std::vector<Ends> tried;
      for (auto placement : kPlacements) {
        auto e = valley_ends(problem.frame, *primes, placement);
        if (!e || std::any_of(tried.begin(), tried.end(),
                              [&](const Ends& x) { return x.lo == e->lo && x.hi == e->hi; }))
          continue;
        if (auto m = balanced_plan(problem, *primes, *e)) {
          candidates.push_back(std::move(*m));
          break;
        }
        tried.push_back(std::move(*e));
      }
    }
  }
  std::vector<Plan> plans;
  for (const auto& moves : candidates) plans.push_back(to_plan(moves, src_mesh, src, dst_mesh, dst));
  return plans;
}

}  // namespace redist::synth_detail
