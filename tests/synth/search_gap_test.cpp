// The search's gap (SynthOptions::gap, EngineLimits::gap): a default call that searches
// stops once its plan is proved within a factor (1 + gap) of the least modeled time in
// the step set. The property compares what it returns with the optimal plan; the fixed
// cases pin the two ways it stops early.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <cmath>
#include <sstream>

#include "redist/plan/plan_text.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/optimal.hpp"
#include "redist/synth/synthesize.hpp"
#include "synth/cost_optimal_checks.hpp"
#include "synth/src/engine.hpp"
#include "synth/src/seeds.hpp"
#include "synth/src/synth_scope.hpp"
#include "synth/synthesis_cases.hpp"
#include "synth/test_util.hpp"

namespace redist::testing {
namespace {

/// Returns the engine's result under `limits` from `from`, or from the constructive seeds
/// of `src` -> `dst` on `mesh` where `from` is empty, priced by `model` (no plan, and a
/// test failure, where the pair is refused).
engine_detail::EngineResult search(const CostModel& model, const Mesh& mesh, const DistType& src, const DistType& dst,
                                   const engine_detail::EngineLimits& limits, const std::vector<Plan>& from = {}) {
  auto problem = synth_detail::make_problem(mesh, src, mesh, dst);
  if (!problem) {
    ADD_FAILURE() << problem.error().to_string();
    return {};
  }
  const auto seeds = from.empty() ? synth_detail::constructive_seeds(*problem, mesh, src, mesh, dst) : from;
  const BigInt bound = std::max(local_bytes(src), local_bytes(dst));
  auto found = engine_detail::run_engine(model, mesh, src, mesh, dst, bound, seeds, limits);
  if (!found) {
    ADD_FAILURE() << found.error().to_string();
    return {};
  }
  return std::move(*found);
}

/// Returns the engine's result from the constructive seeds, expanding up to `expansions`
/// states with the given gap (the other limits the engine's defaults).
engine_detail::EngineResult search(const CostModel& model, const Mesh& mesh, const DistType& src, const DistType& dst,
                                   double gap, int64_t expansions = 100'000) {
  engine_detail::EngineLimits limits;
  limits.max_expanded = expansions;
  limits.gap = gap;
  return search(model, mesh, src, dst, limits);
}

/// Returns the limits of the default call's plain pass: its budget and gap, 16 permute
/// targets a state, from a valid seed only.
engine_detail::EngineLimits default_plain_pass() {
  engine_detail::EngineLimits limits;
  limits.max_expanded = SynthOptions::kDefaultSearch;
  limits.gap = SynthOptions{}.gap;
  limits.max_permute_targets = 16;
  limits.require_seed = true;
  return limits;
}

/// Returns the modeled time of the default call's plan for `src` -> `dst` on `mesh` under
/// `model`, after checking the plan is correct within the default bound (a test failure
/// and infinity where the pair is refused).
double default_plan_us(const CostModel& model, const Mesh& mesh, const DistType& src, const DistType& dst) {
  SynthOptions options;
  options.cost_model = &model;
  auto plan = synthesize(mesh, src, dst, options);
  if (!plan.ok()) {
    ADD_FAILURE() << plan.error().to_string();
    return INFINITY;
  }
  EXPECT_EQ(optimal_problem(*plan, mesh, src, mesh, dst, std::max(local_bytes(src), local_bytes(dst))), "");
  return plan_cost(model, *plan)->time_us;
}

/// Returns the optimal plan's modeled time for `src` -> `dst` on `mesh` under `model` (a
/// test failure and 0 where the search fails).
double optimal_us_of(const CostModel& model, const Mesh& mesh, const DistType& src, const DistType& dst) {
  auto best = optimal_plan(model, mesh, src, mesh, dst, OptimalOptions{});
  if (!best.ok()) {
    ADD_FAILURE() << best.error().to_string();
    return 0;
  }
  return best->time_us;
}

// A gather over one axis: the seed costs exactly the source's lower bound (one latency,
// the bytes a device lacks), so no gap needs a state expanded.
TEST(SearchGap, ASeedAtTheSourcesBoundExpandsNothing) {
  const Mesh mesh = mesh_of("{x:4}");
  const auto found = search(bytes_model(), mesh, type_of("f32[{x}1024]", mesh), type_of("f32[1024]", mesh), 0.1);
  ASSERT_TRUE(found.plan);
  EXPECT_EQ(to_string(*found.plan), "mesh {x:4}\nsource f32[{x}1024]\nall_gather(dim=0, axes={x})\ntarget f32[1024]\n");
  EXPECT_EQ(found.expanded, 0);
  EXPECT_TRUE(found.proved);
  EXPECT_TRUE(found.stopped.empty());
}

// The harness's random184 (x inter-node): the seed exchanges over x first and costs 2.1x
// the optimal plan, which slices and exchanges over z first. A search with a gap of 0.1
// finds a plan within 1.1x of the optimal one with no more expansions than the optimal
// search, and proves it.
TEST(SearchGap, ASearchWithAGapLeavesASeedTwiceTheOptimal) {
  CostModel model;
  model.axis_class["x"] = LinkClass::inter;
  const Mesh mesh = mesh_of("{x:2, y:2, z:4}");
  const DistType src = type_of("bf16[{y}32, 48, 128, {x,z:(1)2}192]", mesh);
  const DistType dst = type_of("bf16[{x}32, 48, {y}128, 192]", mesh);
  const auto seed = search(model, mesh, src, dst, 0, 0);
  const auto optimal = search(model, mesh, src, dst, 0);
  const auto gapped = search(model, mesh, src, dst, 0.1);
  ASSERT_TRUE(seed.plan && optimal.plan && gapped.plan);
  EXPECT_NEAR(seed.time_us, 337.30144, 1e-5);
  EXPECT_NEAR(optimal.time_us, 160.35424, 1e-5);
  EXPECT_TRUE(optimal.proved);
  EXPECT_TRUE(gapped.proved);
  EXPECT_TRUE(gapped.stopped.empty());
  EXPECT_GT(gapped.expanded, 0);
  EXPECT_LE(gapped.expanded, optimal.expanded);
  EXPECT_LE(gapped.time_us, 1.1 * optimal.time_us * (1 + 1e-9));
  EXPECT_GE(gapped.time_us, optimal.time_us * (1 - 1e-9));
  const BigInt bound = std::max(local_bytes(src), local_bytes(dst));
  EXPECT_EQ(optimal_problem(*gapped.plan, mesh, src, mesh, dst, bound), "");
  // synthesize() under the same model: a call without a search keeps the seed, the
  // default call (a search of 100 states with the default gap) gets the gapped plan.
  SynthOptions options;
  options.cost_model = &model;
  auto searched = synthesize(mesh, src, dst, options);
  options.max_expanded = 0;
  auto plain = synthesize(mesh, src, dst, options);
  ASSERT_TRUE(plain.ok() && searched.ok());
  EXPECT_NEAR(plan_cost(model, *plain)->time_us, seed.time_us, 1e-5);
  EXPECT_NEAR(plan_cost(model, *searched)->time_us, gapped.time_us, 1e-5);
}

// The default call's budget (SynthOptions::max_expanded absent): 100 states where the
// model gives the mesh's axes two link speeds, none under one. On {x:2, y:2, z:4} the
// seeds exchange y, then x and z:(1)2, and gather z:(1)2 (73.78 us under the default
// model); 100 states find a slice, one permute and a gather (64.91 us). All axes of one
// class, intra- or inter-node, is one speed: the default call keeps the seed. With x
// inter-node beside intra-node y and z, it searches (337.3 -> 160.4 us).
TEST(SearchGap, TheDefaultCallSearchesOnlyAcrossTwoLinkSpeeds) {
  struct Case {
    const char* config;
    bool searches;
  };
  auto steps_of = [](const Plan& plan) {
    std::vector<std::string> out;
    for (const auto& step : plan.steps) out.push_back(to_string(step));
    return out;
  };
  const Mesh mesh = parse_mesh("{x:2, y:2, z:4}").value();
  const DistType src = parse_type("bf16[{y}32, 48, 128, {x,z:(1)2}192]", mesh).value();
  const DistType dst = parse_type("bf16[{x}32, 48, {y}128, 192]", mesh).value();
  for (const Case& c :
       {Case{"", false}, Case{"x = inter\ny = inter\nz = inter\n", false}, Case{"x = inter\n", true}}) {
    SCOPED_TRACE(c.config);
    const CostModel model = parse_cost_model(c.config).value();
    SynthOptions options;
    options.cost_model = &model;
    auto by_default = synthesize(mesh, src, dst, options);
    options.max_expanded = 0;
    auto unsearched = synthesize(mesh, src, dst, options);
    options.max_expanded = SynthOptions::kDefaultSearch;
    auto bounded = synthesize(mesh, src, dst, options);
    ASSERT_TRUE(by_default.ok() && unsearched.ok() && bounded.ok());
    EXPECT_EQ(steps_of(*by_default), steps_of(c.searches ? *bounded : *unsearched));
    const double seed_us = plan_cost(model, *unsearched)->time_us, bounded_us = plan_cost(model, *bounded)->time_us;
    EXPECT_LT(bounded_us, seed_us * (1 - 1e-9)) << bounded_us << " against " << seed_us;
    EXPECT_EQ(steps_of(*unsearched),
              (std::vector<std::string>{"all_to_all(src=0, dst=2, axes={y})",
                                        "all_to_all(src=3, dst=0, axes={x,z:(1)2})",
                                        "all_gather(dim=0, axes={z:(1)2})"}));
    if (!c.searches)
      EXPECT_EQ(steps_of(*bounded),
                (std::vector<std::string>{"all_slice(dim=2, axes={z:(2)2})",
                                          "collective_permute(to=bf16[{x}32, 48, {y}128, {z:(2)2,z:(1)2}192])",
                                          "all_gather(dim=3, axes={z:(2)2,z:(1)2})"}));
  }
}

// {x:16, y:4, z:2}, x inter-node: bf16[8, {x}384, {y:(2)2}512, 32] ->
// bf16[8, {y:(1)2}384, {x}512, {y:(2)2}32]. The optimal plan (42.73 us) is a chain of
// three all_to_alls (y:(2)2 out of dim 2, then x into it, then y:(1)2 into dim 1) and
// a gather, all on a shard sliced by the free z too; the cheapest seed (the staged direct
// plan) runs that chain on a shard twice the size, 71.23 us. A plain A* pass of the
// default budget ends without reaching the optimal chain; the deep pass (weighted, from
// the plain pass's plan) finds a plan within 10% of it (44.86 us).
TEST(SearchGap, TheDeepPassReachesPlansThePlainPassDoesNot) {
  const Mesh mesh = parse_mesh("{x:16, y:4, z:2}").value();
  const DistType src = parse_type("bf16[8, {x}384, {y:(2)2}512, 32]", mesh).value();
  const DistType dst = parse_type("bf16[8, {y:(1)2}384, {x}512, {y:(2)2}32]", mesh).value();
  const CostModel model = parse_cost_model("x = inter\n").value();
  const double optimal_us = 42.7341;
  const auto plain = search(model, mesh, src, dst, SynthOptions{}.gap, SynthOptions::kDefaultSearch);
  ASSERT_TRUE(plain.plan.has_value());
  EXPECT_FALSE(plain.stopped.empty());
  EXPECT_GT(plain.time_us, 1.5 * optimal_us);
  const double default_us = default_plan_us(model, mesh, src, dst);
  EXPECT_LT(default_us, 1.1 * optimal_us);
  const double best_us = optimal_us_of(model, mesh, src, dst);
  EXPECT_NEAR(best_us, optimal_us, 1e-3);
  EXPECT_LE(best_us, default_us * (1 + 1e-9));
}

/// Returns the limits of the default call's far pass: plain A* with every permute
/// target and 50 times the budget.
engine_detail::EngineLimits default_far_pass() {
  engine_detail::EngineLimits limits = default_plain_pass();
  limits.max_expanded = 50 * SynthOptions::kDefaultSearch;
  limits.max_permute_targets = engine_detail::kPermuteTargets;
  return limits;
}

// {x:2, y:8, z:3, w:4, u:2}, x inter-node: f32[2, {z,u,x}72, {y}288, 32] -> f32[2, 72,
// {z,y:(2)4,w}288, {x,u,y:(1)2}32] (harness case random394 of seed 9001). The plain
// pass leaves its plan (12.08 us) far from proved (above 1.5x its least estimate,
// 7.33), and the deep pass from it, at weight 2 and ten times the budget, does not
// improve it. The far pass from the deep pass's plan, in plain order with every permute
// target, proves the optimum (7.50 us), and the default call returns it. (Stop 46: the
// case before, {x:4, y:6, z:1, w:6} f32[2, {x}12, 6] -> f32[2, {w}12, {y}6], is solved by
// the deep pass since the bound charges a gather where the tile counts do not divide.)
TEST(SearchGap, TheFarPassFindsWhatTheDeepPassMisses) {
  const Mesh mesh = parse_mesh("{x:2, y:8, z:3, w:4, u:2}").value();
  const DistType src = parse_type("f32[2, {z,u,x}72, {y}288, 32]", mesh).value();
  const DistType dst = parse_type("f32[2, 72, {z,y:(2)4,w}288, {x,u,y:(1)2}32]", mesh).value();
  const CostModel model = parse_cost_model("x = inter\n").value();
  const double optimal_us = 7.4992;
  engine_detail::EngineLimits limits = default_plain_pass();
  const auto plain = search(model, mesh, src, dst, limits);
  ASSERT_TRUE(plain.plan.has_value());
  EXPECT_FALSE(plain.stopped.empty());
  EXPECT_LE(plain.least_us, optimal_us);
  EXPECT_GT(plain.time_us, 1.5 * plain.least_us);
  limits.bound_weight = 2;  // a deep pass, ten times the budget
  limits.max_expanded = 10 * SynthOptions::kDefaultSearch;
  const auto deep = search(model, mesh, src, dst, limits, {*plain.plan});
  ASSERT_TRUE(deep.plan.has_value());
  EXPECT_FALSE(deep.stopped.empty());
  EXPECT_GT(deep.time_us, 1.5 * optimal_us);
  const auto far = search(model, mesh, src, dst, default_far_pass(), {*deep.plan});
  ASSERT_TRUE(far.plan.has_value());
  EXPECT_TRUE(far.stopped.empty()) << far.stopped;
  EXPECT_NEAR(far.time_us, optimal_us, 1e-4);
  EXPECT_NEAR(default_plan_us(model, mesh, src, dst), optimal_us, 1e-4);
  EXPECT_NEAR(optimal_us_of(model, mesh, src, dst), optimal_us, 1e-4);
}

// {x:2, y:16, z:6}, x inter-node: bf16[{x,z}24, 8, 1536] -> bf16[24, 8, {z,x,y}1536]
// (harness case random204 of seed 31337). The plain pass stops at its budget with its
// plan above 1.5x its least estimate (10.24 us against 5.12); the deep pass from that
// plan, with ten times the plain budget, finds a cheaper one (7.14 us), which a deep
// pass of the plain budget does not. (Stop 46: the case of stop 34, random63 of seed
// 31337, found it in the plain budget once states were held once per relabeling of y's
// digits, engine_symmetry.hpp.)
TEST(SearchGap, TheDeepPassRunsLongerWhereThePlanIsFarFromProved) {
  const Mesh mesh = parse_mesh("{x:2, y:16, z:6}").value();
  const DistType src = parse_type("bf16[{x,z}24, 8, 1536]", mesh).value();
  const DistType dst = parse_type("bf16[24, 8, {z,x,y}1536]", mesh).value();
  const CostModel model = parse_cost_model("x = inter\n").value();
  engine_detail::EngineLimits limits = default_plain_pass();
  const auto plain = search(model, mesh, src, dst, limits);
  ASSERT_TRUE(plain.plan.has_value());
  EXPECT_FALSE(plain.stopped.empty());
  EXPECT_NEAR(plain.time_us, 10.23552, 1e-4);
  EXPECT_NEAR(plain.least_us, 5.12224, 1e-4);
  limits.bound_weight = 2;
  const auto short_deep = search(model, mesh, src, dst, limits, {*plain.plan});
  EXPECT_NEAR(short_deep.time_us, 10.23552, 1e-4);
  limits.max_expanded = 10 * SynthOptions::kDefaultSearch;
  const auto deep = search(model, mesh, src, dst, limits, {*plain.plan});
  EXPECT_NEAR(deep.time_us, 7.13696, 1e-4);
  // The default call, whose seeds include the slow-first ones, returns 7.13653 us.
  EXPECT_NEAR(default_plan_us(model, mesh, src, dst), 7.13653, 1e-4);
}

/// A model marking the first axis of `mesh` inter-node, each other one with probability
/// one half (seeds miss the optimal plan most often across link classes).
CostModel random_model(const Mesh& mesh) {
  CostModel model;
  for (const auto& axis : mesh.axes())
    if (model.axis_class.empty() || *rc::gen::inRange(0, 2)) model.axis_class[axis.name] = LinkClass::inter;
  return model;
}

/// True when some constructive seed of `c` is valid under `model`: synthesize()'s plain
/// pass starts from it. Where none is, a call without a search budget runs the fallback
/// search (docs/search-engine.md "Fallback"), which a call with one skips where a
/// fallback seed is valid, searching from that seed within its gap instead.
bool has_valid_seed(const CostModel& model, const ReshardCase& c) {
  auto problem = synth_detail::make_problem(c.mesh, c.src, c.target_mesh, c.dst);
  if (!problem) return true;
  const auto seeds = synth_detail::constructive_seeds(*problem, c.mesh, c.src, c.target_mesh, c.dst,
                                                      {.slow_axes = synth_detail::slow_axes(model, c.mesh)});
  engine_detail::EngineLimits limits;
  limits.max_expanded = 0;
  limits.require_seed = true;
  auto found = engine_detail::run_engine(model, c.mesh, c.src, c.target_mesh, c.dst,
                                         std::max(local_bytes(c.src), local_bytes(c.dst)), seeds, limits);
  return !found || found->plan.has_value();
}

/// Checks, where the optimal search finishes on a random pair, that a search with a
/// random gap returns a correct plan within the bound, at most (1 + gap) x the optimal
/// time and, where a constructive seed is valid, at most the unsearched call's; returns
/// true when the seed was outside the gap (the search had to improve on it).
bool check_a_random_pair() {
  const ReshardCase c = *gen_reshard_case({.max_axes = 4, .max_axis_size = 8, .max_devices = 128}, 4);
  const CostModel model = random_model(c.mesh);
  const double gap = *rc::gen::element(0.0, 0.05, 0.1, 0.25);
  OptimalOptions limits;
  limits.max_expanded = 20'000;
  auto best = optimal_plan(model, c.mesh, c.src, c.target_mesh, c.dst, limits);
  if (!best.ok() || !best->proved) return false;
  SynthOptions options;
  options.cost_model = &model;
  options.max_expanded = 0;  // the unsearched call (the default searches across link speeds)
  auto plain = synthesize(c.mesh, c.src, c.target_mesh, c.dst, options);
  options.max_expanded = 100'000;
  options.gap = gap;
  auto gapped = synthesize(c.mesh, c.src, c.target_mesh, c.dst, options);
  RC_ASSERT(plain.ok() && gapped.ok());
  const BigInt bound = std::max(local_bytes(c.src), local_bytes(c.dst));
  std::ostringstream where_text;
  where_text << c << "gap " << gap << "\n";
  const std::string where = where_text.str();
  const std::string problem = optimal_problem(*gapped, c.mesh, c.src, c.target_mesh, c.dst, bound);
  if (!problem.empty()) RC_FAIL(where + problem);
  const double plain_us = plan_cost(model, *plain)->time_us, gapped_us = plan_cost(model, *gapped)->time_us;
  if (gapped_us > plain_us * (1 + 1e-9)) {
    if (has_valid_seed(model, c)) RC_FAIL(fmt::format("{}{} us, above the seed's {} us", where, gapped_us, plain_us));
    RC_CLASSIFY(true, "no valid seed, and the fallback search of the call without a budget found a cheaper plan");
  }
  if (gapped_us > best->time_us * (1 + gap) * (1 + 1e-9))
    RC_FAIL(fmt::format("{}{} us, over (1 + {}) x the optimal {} us\n{}", where, gapped_us, gap, best->time_us,
                        to_string(*gapped)));
  return plain_us > best->time_us * (1 + gap) * (1 + 1e-9);
}

// 100 runs of 5 pairs each; about one pair in twenty has a seed outside its gap.
RC_GTEST_PROP(SearchGap, ThePlanIsWithinTheGapOfTheOptimal, ()) {
  int outside = 0;
  for (int i = 0; i < 5; ++i) outside += check_a_random_pair();
  RC_CLASSIFY(outside > 0, "a seed outside the gap");
}

}  // namespace
}  // namespace redist::testing
