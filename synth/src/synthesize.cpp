// synthesize(): builds the candidate plans in normal form and keeps the cheapest.

#include "redist/synth/synthesize.hpp"

#include <algorithm>

#include "redist/core/bigint.hpp"
#include "synth_atoms.hpp"
#include "synth_builders.hpp"
#include "synth_scope.hpp"

namespace redist {

namespace {

using namespace synth_detail;

/// Depth of the search on each side of the permute, and the deeper retry.
constexpr int kSearchDepth = 2;
constexpr int kRetryDepth = 3;
/// All_to_alls up to which a direct plan is taken without comparing it to the others.
constexpr long kDirectEnough = 2;

/// True when a direct plan is kept without trying the others (it is what they would
/// refine): at most kDirectEnough all_to_alls, and every slice before them (a slice
/// that waits for an all_to_all makes it move more than a permute-based plan might).
bool clean_and_short(const Moves& moves) {
  long moved = 0;
  for (const auto& m : moves) {
    if (m.kind == Move::Kind::slice && moved > 0) return false;
    moved += m.kind == Move::Kind::all_to_all;
  }
  return moved <= kDirectEnough;
}

/// The cheapest candidate: fewest bytes received per device, then (counting the
/// devices each permute moves) fewest in total, then fewest steps; the earlier one on
/// ties.
std::optional<Moves> cheapest(const Problem& problem, std::vector<Moves>& candidates, const Factors* primes) {
  auto less = [](double x, double y) { return x < y * (1 - 1e-9) - 1e-9; };
  std::vector<double> max;
  double best_max = 0;
  for (const auto& c : candidates) {
    max.push_back(estimated_cost(problem, c));
    if (max.size() == 1 || less(max.back(), best_max)) best_max = max.back();
  }
  // Totals only matter (and are only counted) between candidates tied on the max.
  const auto tied = std::count_if(max.begin(), max.end(), [&](double m) { return !less(best_max, m); });
  std::optional<std::size_t> best;
  double best_total = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    if (less(best_max, max[i])) continue;
    const double total = tied > 1 ? estimated_total(problem, candidates[i], primes) : 0;
    if (!best || less(total, best_total) ||
        (!less(best_total, total) && candidates[i].size() < candidates[*best].size())) {
      best = i;
      best_total = total;
    }
  }
  if (!best) return std::nullopt;
  return std::move(candidates[*best]);
}

/// Elements per device of the larger of source and target.
double bound_elements(const Problem& problem) {
  return std::max(local_elements(problem.frame, problem.src), local_elements(problem.frame, problem.dst));
}

constexpr SlicePlacement kPlacements[] = {SlicePlacement::target_first, SlicePlacement::predecessor_first,
                                         SlicePlacement::exact};

/// The cheapest valley-shaped plan of the greedy builders, else of the search; when no
/// valley is found, a plan within the bound that gathers before it moves; nullopt when
/// neither is found.
std::optional<Moves> plan_moves(const Problem& problem) {
  if (!problem.mesh_change && problem.src == problem.dst) return Moves{};
  std::vector<Moves> candidates;
  const auto primes = atomize(problem.frame, problem.src, problem.dst, true);
  if (!primes) {
    if (auto m = matched_plan(problem, nullptr)) candidates.push_back(std::move(*m));
    return cheapest(problem, candidates, nullptr);
  }
  if (auto m = direct_plan(problem, primes->a, primes->b)) {
    if (!problem.mesh_change && clean_and_short(*m)) return m;
    candidates.push_back(std::move(*m));
  }
  if (auto m = matched_plan(problem, &*primes)) candidates.push_back(std::move(*m));
  // The balanced plan of the first placement that gives one; the searches start from
  // the ends of every placement tried when no builder found a plan.
  std::vector<Ends> ends;
  for (auto placement : kPlacements) {
    auto e = valley_ends(problem.frame, *primes, placement);
    if (!e || std::any_of(ends.begin(), ends.end(), [&](const Ends& x) { return x.lo == e->lo && x.hi == e->hi; }))
      continue;
    if (auto m = balanced_plan(problem, *primes, *e)) {
      candidates.push_back(std::move(*m));
      break;
    }
    ends.push_back(std::move(*e));
  }
  for (int depth : {kSearchDepth, kRetryDepth}) {
    if (!candidates.empty()) break;
    for (const auto& e : ends)
      if (auto m = searched_plan(problem, *primes, e, depth)) candidates.push_back(std::move(*m));
  }
  if (candidates.empty())
    for (int depth : {kSearchDepth + 1, kRetryDepth + 1})
      if (auto m = bounded_plan(problem, *primes, bound_elements(problem), depth)) return m;
  return cheapest(problem, candidates, &primes->all);
}

}  // namespace

Result<Plan> synthesize(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh, const DistType& dst,
                        const SynthOptions& options) {
  auto problem = make_problem(src_mesh, src, dst_mesh, dst);
  if (!problem) return problem.error();
  const BigInt src_bytes = local_bytes(src), dst_bytes = local_bytes(dst);
  if (options.budget_bytes && BigInt(*options.budget_bytes) < std::max(src_bytes, dst_bytes))
    return Error{Error::Kind::no_plan,
                 "no plan within the budget of " + std::to_string(*options.budget_bytes) +
                     " bytes per device: the source holds " + to_decimal(src_bytes) + " and the target " +
                     to_decimal(dst_bytes) + " bytes per device",
                 Error::npos};
  auto moves = plan_moves(*problem);
  if (!moves)
    return unsupported_error("no plan in normal form was found from " + to_string(src) + " to " + to_string(dst));
  // Replicating then slicing is allowed only when the budget holds the whole array.
  if (options.budget_bytes && BigInt(*options.budget_bytes) >= global_elements(src) * elem_bytes(src.elem)) {
    Moves easy = gather_then_slice_moves(*problem);
    std::vector<Moves> both{std::move(*moves), std::move(easy)};
    moves = cheapest(*problem, both, nullptr);
  }
  return to_plan(*moves, src_mesh, src, dst_mesh, dst);
}

Result<Plan> synthesize(const Mesh& mesh, const DistType& src, const DistType& dst, const SynthOptions& options) {
  return synthesize(mesh, src, mesh, dst, options);
}

}  // namespace redist
