// synthesize(): the search engine (engine.hpp) in its default mode: seeded with the
// constructive plans (seeds.hpp), run for a small bounded number of expansions under
// the caller's cost model (the default one otherwise), keeping the best plan found.

#include "redist/synth/synthesize.hpp"

#include <fmt/format.h>

#include "engine.hpp"
#include "redist/synth/mesh_change.hpp"
#include "redist/core/bigint.hpp"
#include "redist/synth/cost_model.hpp"
#include "seeds.hpp"
#include "size_one_axes.hpp"
#include "synth_scope.hpp"

namespace redist {

namespace {

/// Expansions of the fallback runs when no seed is valid (the builders, the exchange-last
/// ones included, found no plan that slices first within the bound).
constexpr int64_t kFallbackExpansions = 20'000;
/// Their queue's weight on the lower bound (weighted A*): they look for any plan, and
/// run deeper towards the target. On the 1,000-pair harness suite (seed 20240611)
/// weight 2 against 1 gave 4 of the 25 fallback plans cheaper (up to 2x), none dearer.
constexpr double kFallbackBoundWeight = 2.0;
/// The queue's weight on the lower bound in the bounded search's deep pass. Plain A*
/// runs first, and proves most seeds within the gap and stops; where it ends at its
/// budget instead, a weighted pass from its best plan runs deeper towards the target and
/// finds the plans of four or five steps the plain pass does not reach in its budget
/// (docs/synthesis.md; measured in docs/history/issue-13.md).
constexpr double kDeepPassBoundWeight = 2.0;
/// Where the plain pass ends without proving its plan within this factor of the least
/// modeled time it leaves, the deep pass has kDeepPassScale times the budget. Most plans
/// above 1.1x the optimum are among these (the least estimate a plain pass leaves is at
/// most the optimum, and the bound is near it), and the deep pass finds the cheaper
/// plans of most of them at four to ten times the budget (docs/history/issue-13.md "A deeper pass
/// where the plan is far from proved", "A step floor in the bound"); the plans proved
/// within the factor, most calls', cost no more time.
constexpr double kDeepPassFactor = 1.1;
constexpr int64_t kDeepPassScale = 10;
/// Where the deep pass leaves its plan above this factor of the plain pass's least
/// estimate, a pass of the optimal search's own order and step set (plain A*, every
/// permute target) follows from its plan, with kFarPassScale times the budget: the plans
/// above 1.5x the optimum that weighted passes miss need a permute target outside the
/// capped set or a few thousand states in plain order (docs/history/issue-13.md "The far pass").
constexpr double kFarPassFactor = 1.5;
constexpr int64_t kFarPassScale = 50;
/// Permute targets a state of the default budget's search is offered (EngineLimits), of
/// kPermuteTargets, those whose dims agree most with the target's (engine_permute.cpp):
/// on the random suite, 16 keep the plans of 96 (p90 1.047 against the optimal) at half
/// the 90th-percentile call time; 8 lose a little (1.067).
constexpr std::size_t kSearchPermuteTargets = 16;

/// The plan between `src` and `dst` with their size-1 axes left out, with those put back
/// (size_one_axes.hpp: at no cost), where synthesize() finds one and the result types;
/// else nullopt, and the search plans with them.
std::optional<Plan> planned_without_size_one_axes(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                                                  const DistType& dst, const SynthOptions& options) {
  const DistType bare_src = synth_detail::without_size_one_axes(src), bare_dst = synth_detail::without_size_one_axes(dst);
  if (synth_detail::has_reductions(bare_src, bare_dst)) return std::nullopt;  // pending over other axes: searched
  auto plan = synthesize(src_mesh, bare_src, dst_mesh, bare_dst, options);
  if (!plan) return std::nullopt;
  auto dressed = synth_detail::with_size_one_axes(*plan, src, dst);
  if (!dressed || !type_plan(*dressed)) return std::nullopt;
  return dressed;
}

}  // namespace

Result<Plan> synthesize(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh, const DistType& dst,
                        const SynthOptions& options) {
  if (other_device_sets(src_mesh, dst_mesh)) {
    auto plan = device_set_plan(src_mesh, src, dst_mesh, dst, options.cost_model ? *options.cost_model : bytes_model());
    if (!plan) return plan.error();
    const BigInt least = std::max(local_bytes(src), local_bytes(dst));
    if (options.budget_bytes && BigInt(*options.budget_bytes) < least)
      return Error{Error::Kind::no_plan,
                   fmt::format("no plan within the budget of {} bytes per device: the source holds {} and the target "
                               "{} bytes per device",
                               *options.budget_bytes, to_decimal(local_bytes(src)), to_decimal(local_bytes(dst))),
                   Error::npos};
    return plan;
  }
  if (needs_refinement(src_mesh, dst_mesh)) {
    auto refined = refine(src_mesh, src, dst_mesh, dst);
    if (!refined) return refined.error();
    static const CostModel kBytesModel = bytes_model();
    auto model = refined_model(options.cost_model ? *options.cost_model : kBytesModel, src_mesh, *refined);
    if (!model) return model.error();
    SynthOptions on_refined = options;
    on_refined.cost_model = &*model;
    return synthesize(refined->source_mesh, refined->source, refined->target_mesh, refined->target, on_refined);
  }
  if (auto e = synth_detail::reduction_error(src_mesh, src, dst_mesh, dst)) return *e;
  const bool reducing = synth_detail::has_reductions(src, dst);
  if (synth_detail::names_size_one_axis(src) || synth_detail::names_size_one_axis(dst))
    if (auto plan = planned_without_size_one_axes(src_mesh, src, dst_mesh, dst, options)) return std::move(*plan);
  auto problem = synth_detail::make_problem(src_mesh, synth_detail::without_reductions(src), dst_mesh,
                                            synth_detail::without_reductions(dst));
  if (!problem) return problem.error();
  const BigInt src_bytes = local_bytes(src), dst_bytes = local_bytes(dst);
  const BigInt least = std::max(src_bytes, dst_bytes);
  if (options.budget_bytes && BigInt(*options.budget_bytes) < least)
    return Error{Error::Kind::no_plan,
                 fmt::format("no plan within the budget of {} bytes per device: the source holds {} and the "
                             "target {} bytes per device",
                             *options.budget_bytes, to_decimal(src_bytes), to_decimal(dst_bytes)),
                 Error::npos};
  const BigInt bound = options.budget_bytes ? BigInt(*options.budget_bytes) : least;
  static const CostModel kDefaultModel = bytes_model();
  const CostModel& model = options.cost_model ? *options.cost_model : kDefaultModel;
  if (auto s = validate(model, src_mesh); !s) return s.error();
  const std::vector<bool> slow = synth_detail::slow_axes(model, src_mesh);
  const bool two_speeds = !slow.empty();
  const auto seeds = reducing ? synth_detail::reduction_seeds(src_mesh, src, dst_mesh, dst)
                              : synth_detail::constructive_seeds(*problem, src_mesh, src, dst_mesh, dst,
                                                                 {.slow_axes = slow});
  const int64_t expansions = options.max_expanded.value_or(two_speeds ? SynthOptions::kDefaultSearch : 0);
  engine_detail::EngineLimits limits;
  limits.max_expanded = expansions;
  limits.gap = options.gap;
  // The capped step set is for the default budget's speed; a budget the caller sets
  // searches the optimal search's step set, so its gap is proved against the optimum.
  limits.max_permute_targets = options.max_expanded ? engine_detail::kPermuteTargets : kSearchPermuteTargets;
  limits.require_seed = true;
  const auto scaled = [&](int64_t scale) { return expansions > INT64_MAX / scale ? INT64_MAX : expansions * scale; };
  // The bounded search from the cheapest valid plan of `from`: the plain pass, then,
  // where it ends at its budget without proving its plan within the gap, the deep pass
  // from that plan, longer where the plan is far from proved, and where the deep pass
  // leaves it still far, the far pass from its plan. No plan when none of `from` is
  // valid.
  auto bounded = [&](const std::vector<Plan>& from) -> Result<engine_detail::EngineResult> {
    auto plain = engine_detail::run_engine(model, src_mesh, src, dst_mesh, dst, bound, from, limits);
    if (!plain || !plain->plan || plain->stopped.empty() || expansions <= 0) return plain;
    engine_detail::EngineLimits deep_limits = limits;
    deep_limits.bound_weight = kDeepPassBoundWeight;
    if (plain->time_us > kDeepPassFactor * plain->least_us) deep_limits.max_expanded = scaled(kDeepPassScale);
    auto deep = engine_detail::run_engine(model, src_mesh, src, dst_mesh, dst, bound, {*plain->plan}, deep_limits);
    if (!deep || !deep->plan || deep->stopped.empty() || deep->time_us <= kFarPassFactor * plain->least_us)
      return deep;
    engine_detail::EngineLimits far_limits = limits;
    far_limits.max_expanded = scaled(kFarPassScale);
    far_limits.max_permute_targets = engine_detail::kPermuteTargets;
    return engine_detail::run_engine(model, src_mesh, src, dst_mesh, dst, bound, {*deep->plan}, far_limits);
  };
  auto found = bounded(seeds);
  if (!found) return found.error();
  if (found->plan) return std::move(*found->plan);
  // No seed is valid. The seeds are built again with the balanced builder backtracking
  // and the exchange-last plans (a superset of the plain seeds; the exchange-last ones
  // fit the bound wherever they apply), and the plain pass runs from them, with or
  // without a valid one, with the fused steps the fallback search leaves out...
  std::vector<Plan> backtracked;
  if (!reducing)
    backtracked = synth_detail::constructive_seeds(*problem, src_mesh, src, dst_mesh, dst,
                                                   {.backtrack = true, .exchange_last = true, .slow_axes = slow});
  const std::vector<Plan>& fallback_seeds = backtracked.empty() ? seeds : backtracked;
  engine_detail::EngineLimits unseeded_limits = limits;
  unseeded_limits.require_seed = false;
  auto unseeded =
      engine_detail::run_engine(model, src_mesh, src, dst_mesh, dst, bound, fallback_seeds, unseeded_limits);
  if (!unseeded) return unseeded.error();
  // ...and where that gives no plan that slices first, the fallback search looks for
  // any plan without fused all_to_alls or all_gathers (engine.hpp), from the upper bound
  // of those seeds, then offers the plan found as the one seed of an unexpanded run,
  // which fuses its all_to_alls and all_gathers where the model prices that lower...
  auto fallback_search = [&]() -> Result<engine_detail::EngineResult> {
    engine_detail::EngineLimits fallback = limits;
    fallback.max_expanded = std::max(expansions, kFallbackExpansions);
    fallback.fused_steps = false;
    fallback.max_permute_targets = engine_detail::kPermuteTargets;
    fallback.bound_weight = kFallbackBoundWeight;
    fallback.gap = 0;
    fallback.require_seed = false;
    auto any = engine_detail::run_engine(model, src_mesh, src, dst_mesh, dst, bound, fallback_seeds, fallback);
    if (!any) return any;
    if (!any->plan) {
      // No plan slices first (rare: a device-order change on a fully used mesh); one that
      // slices later is correct and within the bound, but G3a does not hold for it.
      fallback.slice_after_receive = true;
      any = engine_detail::run_engine(model, src_mesh, src, dst_mesh, dst, bound, fallback_seeds, fallback);
      if (!any) return any;
    }
    if (any->plan) {
      fallback.max_expanded = 0;
      auto fused = engine_detail::run_engine(model, src_mesh, src, dst_mesh, dst, bound, {*any->plan}, fallback);
      if (!fused) return fused;
      if (fused->plan) any = std::move(fused);
    }
    // ...whose plan is taken where cheaper than the plain pass's, or where that slices
    // after received data (G3a holds only for plans that slice first).
    if (unseeded->plan &&
        (!any->plan || !engine_detail::slices_first(*any->plan) || unseeded->time_us < any->time_us))
      return std::move(unseeded);
    return any;
  };
  // The fallback search takes hundreds of milliseconds, and on eight random suites its
  // plans are within 1.1x of those the passes find from the plain pass's (docs/history/issue-13.md);
  // without a search budget (one link speed) it is the call's only search, and runs.
  found = expansions > 0 && unseeded->plan && engine_detail::slices_first(*unseeded->plan) ? std::move(unseeded)
                                                                                          : fallback_search();
  if (!found) return found.error();
  if (found->plan) {
    // Where no plan slices first, the bounded search too looks among those that do not.
    limits.slice_after_receive = !engine_detail::slices_first(*found->plan);
    auto searched = bounded({*found->plan});
    if (!searched) return searched.error();
    if (searched->plan) found = std::move(searched);
  }
  if (!found->plan)
    if (auto e = synth_detail::padding_error(src, dst, bound)) return *e;
  if (!found->plan)
    return Error{Error::Kind::no_plan,
                 fmt::format("no plan from {} to {} within {} bytes per device was found{}", to_string(src),
                             to_string(dst), to_decimal(bound),
                             found->stopped.empty() ? "" : fmt::format(" ({})", found->stopped)),
                 Error::npos};
  return std::move(*found->plan);
}

Result<Plan> synthesize(const Mesh& mesh, const DistType& src, const DistType& dst, const SynthOptions& options) {
  return synthesize(mesh, src, mesh, dst, options);
}

}  // namespace redist
