// constructive_seeds(): the builders' plans that seed the search engine.

#include "seeds.hpp"

#include <algorithm>
#include <array>
#include <iterator>

#include "same_blocks.hpp"
#include "synth_atoms.hpp"
#include "synth_scope.hpp"
#include "synth_builders.hpp"

namespace redist::synth_detail {

namespace {

/// All_to_alls up to which a direct plan is taken without building the others.
constexpr long kDirectEnough = 2;

/// True when some slice of `moves` follows an all_to_all.
bool slices_after_exchange(const Moves& moves) {
  bool moved = false;
  for (const auto& m : moves) {
    if (m.kind == Move::Kind::slice && moved) return true;
    moved = moved || m.kind == Move::Kind::all_to_all;
  }
  return false;
}

/// True when a direct plan is the only seed: at most kDirectEnough all_to_alls and
/// every slice before them.
bool clean_and_short(const Moves& moves) {
  return !slices_after_exchange(moves) &&
         std::count_if(moves.begin(), moves.end(),
                       [](const Move& m) { return m.kind == Move::Kind::all_to_all; }) <= kDirectEnough;
}

/// Appends `plan` to `plans` unless an equal plan is there (builders often agree; the
/// engine types, rewrites and prices each seed).
void add_once(std::vector<Plan>& plans, Plan plan) {
  if (std::find(plans.begin(), plans.end(), plan) == plans.end()) plans.push_back(std::move(plan));
}

constexpr SlicePlacement kPlacements[] = {SlicePlacement::target_first, SlicePlacement::predecessor_first,
                                         SlicePlacement::exact};

}  // namespace

bool two_link_speeds(const CostModel& model, const Mesh& mesh) {
  if (model.intra == model.inter) return false;
  bool intra = false, inter = false;
  for (const auto& axis : mesh.axes())
    if (axis.size >= 2) (model.class_of(axis.name) == LinkClass::inter ? inter : intra) = true;
  return intra && inter;
}

std::vector<bool> slow_axes(const CostModel& model, const Mesh& mesh) {
  std::vector<bool> slow;
  if (!two_link_speeds(model, mesh)) return slow;
  for (const auto& axis : mesh.axes()) slow.push_back(model.class_of(axis.name) == LinkClass::inter);
  return slow;
}

std::vector<Plan> constructive_seeds(const Problem& problem, const Mesh& src_mesh, const DistType& src,
                                     const Mesh& dst_mesh, const DistType& dst, const SeedOptions& options) {
  std::vector<Moves> candidates;
  if (!problem.mesh_change && problem.src == problem.dst) {
    candidates.emplace_back();
  } else if (const auto primes = atomize(problem.frame, problem.src, problem.dst, true); !primes) {
    if (auto m = matched_plan(problem, nullptr)) candidates.push_back(std::move(*m));
  } else {
    auto direct = direct_plan(problem, primes->a, primes->b);
    const bool enough = direct && !problem.mesh_change && clean_and_short(*direct);
    // Where the exact placement defers an atom (the direct plan then slices it after an
    // exchange, or fails), the staged plan slices it first on another dim, to arrive in
    // the same (fused) exchange; elsewhere the two are the same plan.
    if (!direct || slices_after_exchange(*direct))
      if (auto staged = direct_plan(problem, primes->a, primes->b, SlicePlacement::staged);
          staged && !(direct && same_steps(*direct, *staged)))
        candidates.push_back(std::move(*staged));
    if (direct) candidates.push_back(std::move(*direct));
    // XLA's own first choices (baselines.cpp), so the default plan is never dearer than
    // xla_style where that fits the bound and slices first: one permute when the tile
    // counts already match, all_to_alls then a permute when they are a permutation.
    const Counts have = counts(problem.src), want = counts(problem.dst);
    if (have == want) {
      candidates.push_back(Moves{permute_move(problem.dst)});
    } else {
      Counts a = have, b = want;
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      if (a == b) {
        auto balanced = balanced_plans(problem, *primes, Ends{primes->a, {}, primes->b}, !options.backtrack);
        std::move(balanced.begin(), balanced.end(), std::back_inserter(candidates));
      }
    }
    if (!enough) {
      // Over the factor-level atoms (whole factors move, so a slow axis crosses its
      // link once): blocks to their target dims, then one permute to sort them; and one
      // permute that puts the slow atoms in place, then fast exchanges and gathers.
      if (!options.slow_axes.empty())
        if (auto coarse = atomize(problem.frame, problem.src, problem.dst, false)) {
          if (auto sorted = sorted_plan(problem, coarse->a, coarse->b)) candidates.push_back(std::move(*sorted));
          // Over whole factors, and over prime atoms, which can park part of a factor.
          for (const Atomized* atoms : std::array<const Atomized*, 2>{&*coarse, &*primes})
            std::ranges::move(found_plans(slow_first_plans(problem, atoms->a, atoms->b, options.slow_axes)),
                              std::back_inserter(candidates));
        }
      // Slices taking the target's atoms major first, and minor first (where the
      // target keeps them, more devices stay in place across the permute).
      auto major = matched_plan(problem, &*primes), minor = matched_plan(problem, &*primes, true);
      if (minor && !(major && same_steps(*major, *minor))) candidates.push_back(std::move(*minor));
      if (major) candidates.push_back(std::move(*major));
      // Where no plain seed fits the bound: slices, one permute, then all_to_alls and
      // gathers, which always fit it (synth_builders.hpp), over every cut of the target.
      if (options.exchange_last)
        std::ranges::move(found_plans(slow_first_plans(problem, primes->a, primes->b, {}, kExchangeLastTries)),
                          std::back_inserter(candidates));
      // The balanced plans of the first placement that gives some.
      std::vector<Ends> tried;
      for (auto placement : kPlacements) {
        auto e = valley_ends(problem.frame, *primes, placement);
        if (!e || std::any_of(tried.begin(), tried.end(),
                              [&](const Ends& x) { return x.lo == e->lo && x.hi == e->hi; }))
          continue;
        auto balanced = balanced_plans(problem, *primes, *e, !options.backtrack);
        std::move(balanced.begin(), balanced.end(), std::back_inserter(candidates));
        if (!balanced.empty()) break;
        tried.push_back(std::move(*e));
      }
    }
  }
  std::vector<Plan> plans;
  for (const auto& moves : candidates) add_once(plans, to_plan(moves, src_mesh, src, dst_mesh, dst));
  if (!problem.mesh_change) return plans;
  // Where some type on the new device order gives every device the block the source
  // gives it, a permute that moves nothing comes first and the rest is planned on the
  // new order (same_blocks.hpp): `{x:2}` `f32[8] -> f32[{x}8]`, devices [1,0], is then
  // one slice.
  if (auto moved = same_blocks_type(src_mesh, src, dst_mesh))
    if (auto same = make_problem(dst_mesh, *moved, dst_mesh, dst))
      for (auto& plan : constructive_seeds(*same, dst_mesh, *moved, dst_mesh, dst, options)) {
        plan.mesh = src_mesh;
        plan.source = src;
        plan.steps.insert(plan.steps.begin(), staying_permute(*moved, dst_mesh));
        add_once(plans, std::move(plan));
      }
  // Where some type on the old order gives every device the block the target gives it
  // on the new one, the plan reaches that type and ends with such a permute: a gather to
  // a replicated array, then the new order for free.
  if (auto back = same_blocks_type(dst_mesh, dst, src_mesh))
    if (auto same = make_problem(src_mesh, src, src_mesh, *back))
      for (auto& plan : constructive_seeds(*same, src_mesh, src, src_mesh, *back, options)) {
        plan.target = dst;
        plan.steps.push_back(staying_permute(dst, dst_mesh));
        add_once(plans, std::move(plan));
      }
  return plans;
}

}  // namespace redist::synth_detail
