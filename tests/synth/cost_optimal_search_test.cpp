// optimal_plan(): its plans type-check, fit the budget, are correct on every element,
// and cost no more than the greedy synthesizer's, on the anchors and random cases.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "redist/plan/plan_text.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/optimal.hpp"
#include "redist/synth/synthesize.hpp"
#include "redist/verify/checker.hpp"
#include "synth/anchor_cases.hpp"
#include "synth/cost_optimal_checks.hpp"
#include "synth/synthesis_cases.hpp"
#include "synth/test_util.hpp"

namespace redist::testing {
namespace {

/// Returns the default cost model with mesh axis `x` inter-node.
CostModel x_inter_node() {
  CostModel model;
  model.axis_class["x"] = LinkClass::inter;
  return model;
}

/// True when `a` is not above `b` beyond rounding.
bool at_most(double a, double b) { return a <= b + 1e-9 * std::max(1.0, b); }

/// Checks the optimal plan of `c` under `model` (if the search finishes) and compares
/// it with the greedy plan; returns false when the search gave up.
bool check_against_greedy(const CostModel& model, const ReshardCase& c) {
  auto best = optimal_plan(model, c.mesh, c.src, c.target_mesh, c.dst);
  if (!best && best.error().message.find("stopped after") != std::string::npos) return false;
  auto greedy = synthesize(c.mesh, c.src, c.target_mesh, c.dst);
  if (!best) {
    RC_ASSERT(!greedy.ok());
    return true;
  }
  const BigInt bound = std::max(local_bytes(c.src), local_bytes(c.dst));
  const std::string problem = optimal_problem(best->plan, c.mesh, c.src, c.target_mesh, c.dst, bound);
  if (!problem.empty()) RC_FAIL(problem);
  if (greedy) {
    const double greedy_us = plan_cost(model, *greedy)->time_us;
    if (!at_most(best->time_us, greedy_us))
      RC_FAIL("optimal " + std::to_string(best->time_us) + " us above greedy " + std::to_string(greedy_us) +
              " us\noptimal:\n" + to_string(best->plan) + "\ngreedy:\n" + to_string(*greedy));
  }
  return true;
}

/// A model marking each axis of `mesh` inter-node with probability one half, and in half
/// the models each collective kind below its link's bandwidth (shares 0.1 to 1).
CostModel random_model(const Mesh& mesh) {
  CostModel model;
  for (const auto& axis : mesh.axes())
    if (*rc::gen::inRange(0, 2)) model.axis_class[axis.name] = LinkClass::inter;
  if (*rc::gen::inRange(0, 2))
    for (double* share : {&model.efficiency.all_gather, &model.efficiency.reduce_scatter, &model.efficiency.all_to_all,
                          &model.efficiency.all_reduce, &model.efficiency.permute})
      *share = *rc::gen::inRange(1, 11) / 10.0;
  return model;
}

RC_GTEST_PROP(OptimalSearch, CorrectWithinBoundAndNoDearerThanGreedy, ()) {
  MeshOptions small;
  small.max_axes = 3;
  small.max_devices = 32;
  const ReshardCase c = *gen_reshard_case(small, 3);
  RC_LOG() << c << "\n";
  RC_CLASSIFY(!check_against_greedy(CostModel{}, c), "search gave up");
}

RC_GTEST_PROP(OptimalSearch, NoDearerThanGreedyUnderMixedLinks, ()) {
  MeshOptions small;
  small.max_axes = 3;
  small.max_devices = 32;
  const ReshardCase c = *gen_reshard_case(small, 3);
  const CostModel model = random_model(c.mesh);
  RC_LOG() << c << "\n";
  RC_CLASSIFY(!check_against_greedy(model, c), "search gave up");
}

TEST(OptimalSearch, AnchorsInScopeGetCheckedPlans) {
  int solved = 0;
  for (const auto& a : anchors()) {
    const Mesh mesh = mesh_of(a.mesh);
    const Mesh target_mesh = a.target_mesh.empty() ? mesh : mesh_of(a.target_mesh);
    const DistType src = type_of(a.src, mesh), dst = type_of(a.dst, target_mesh);
    if (mesh.num_devices() > 4096) continue;  // pod scale: greedy's domain
    auto best = optimal_plan(CostModel{}, mesh, src, target_mesh, dst);
    if (has_padding(src) || has_padding(dst)) {  // gathered whole; padding is sent, so no per-element figures
      ASSERT_TRUE(best.ok()) << a.name << ": " << best.error().to_string();
      const auto data = run_plan(best->plan, distribute(mesh, src));
      ASSERT_TRUE(data.ok()) << a.name << ": " << data.error().to_string();
      EXPECT_FALSE(compare(target_mesh, dst, *data)) << a.name;
      continue;
    }
    ASSERT_TRUE(best.ok()) << a.name << ": " << best.error().to_string();
    const BigInt bound = std::max(local_bytes(src), local_bytes(dst));
    EXPECT_EQ(optimal_problem(best->plan, mesh, src, target_mesh, dst, bound), "") << a.name;
    if (auto greedy = synthesize(mesh, src, target_mesh, dst)) {
      EXPECT_TRUE(at_most(best->time_us, plan_cost(CostModel{}, *greedy)->time_us)) << a.name;
    }
    ++solved;
  }
  EXPECT_GE(solved, 12);
}

TEST(OptimalSearch, TakesTheReduceScatterForALargePendingSum) {
  // 16 MiB: bandwidth dominates, so reduce-scatter first (1.25x the buffer on the wire
  // in two collectives) beats one all-reduce (1.75x). Small arrays take the all-reduce.
  const Mesh mesh = mesh_of("{a:2, b:2, c:2}");
  const DistType src = type_of("f32[4096, 1024] sum{a,b,c}", mesh), dst = type_of("f32[{b}4096, 1024]", mesh);
  auto best = optimal_plan(CostModel{}, mesh, src, mesh, dst);
  ASSERT_TRUE(best.ok()) << best.error().to_string();
  EXPECT_EQ(optimal_problem(best->plan, mesh, src, mesh, dst, local_bytes(src)), "");
  EXPECT_TRUE(std::holds_alternative<ReduceScatter>(best->plan.steps.front().op)) << to_string(best->plan);
}

TEST(OptimalSearch, PrefersTheFastAxisForAPermute) {
  // {x}16 -> {y}16 with z free: the permute moves devices along x and y either way,
  // but the search may not route through the slow z.
  const Mesh mesh = mesh_of("{x:2, y:2, z:2}");
  const DistType src = type_of("f32[{x}1024, 1024]", mesh), dst = type_of("f32[{y}1024, 1024]", mesh);
  CostModel slow_z;
  slow_z.axis_class["z"] = LinkClass::inter;
  auto best = optimal_plan(slow_z, mesh, src, mesh, dst);
  ASSERT_TRUE(best.ok()) << best.error().to_string();
  auto cost = plan_cost(slow_z, best->plan);
  for (const auto& s : cost->steps) EXPECT_EQ(s.link, LinkClass::intra) << to_string(best->plan);
  CostModel slow_x;
  slow_x.axis_class["x"] = LinkClass::inter;
  auto slower = optimal_plan(slow_x, mesh, src, mesh, dst);
  ASSERT_TRUE(slower.ok());
  EXPECT_GT(slower->time_us, best->time_us);
}

TEST(OptimalSearch, ALargerBudgetNeverCostsMore) {
  const Mesh mesh = mesh_of("{x:4, y:2}");
  const DistType src = type_of("f32[{y}16, 16, {x}16]", mesh), dst = type_of("f32[16, {x,y}16, 16]", mesh);
  auto tight = optimal_plan(CostModel{}, mesh, src, mesh, dst);
  OptimalOptions loose;
  loose.budget_bytes = 16 * 16 * 16 * 4;
  auto wide = optimal_plan(CostModel{}, mesh, src, mesh, dst, loose);
  ASSERT_TRUE(tight.ok() && wide.ok());
  EXPECT_TRUE(at_most(wide->time_us, tight->time_us));
  EXPECT_EQ(optimal_problem(wide->plan, mesh, src, mesh, dst, *loose.budget_bytes), "");
}

/// Returns optimal_plan() from `src` to `dst` on `mesh` with x inter-node, capped at
/// 20,000 expansions as in the comparison harness.
Result<OptimalPlan> optimal_with_slow_x(const Mesh& mesh, const char* src, const char* dst) {
  const CostModel model = x_inter_node();
  OptimalOptions options;
  options.max_expanded = 20'000;
  return optimal_plan(model, mesh, type_of(src, mesh), mesh, type_of(dst, mesh), options);
}

TEST(OptimalSearch, SlowLinkBoundFinishesWhereTheDataBoundGaveUp) {
  // x is inter-node: what each group of the 16 intra-node devices lacks must cross the
  // slow link, which the bound now counts (engine_bound.cpp). With the fastest link
  // only, the search gave up after 20,000 states (the comparison harness's random
  // case of this shape); it now proves its plan well within that.
  auto best = optimal_with_slow_x(mesh_of("{x:4, y:16}"), "f32[80, {x}480, 1920]", "f32[80, 480, {y}1920]");
  ASSERT_TRUE(best.ok()) << best.error().to_string();
  EXPECT_TRUE(best->proved);
  EXPECT_LT(best->expanded, 2'000);
  // The cheapest plan slices y before the gather crosses the slow link.
  ASSERT_FALSE(best->plan.steps.empty());
  EXPECT_EQ(to_string(best->plan.steps[0]), "all_slice(dim=2, axes={y})") << to_string(best->plan);
}

TEST(OptimalSearch, SlowLatencyBoundFinishesWhereTheLeastLatencyGaveUp) {
  // x is inter-node (5 us a collective) and the target leaves it replicated, so some
  // step must run at the slow class: the bound charges that step the slow latency, not
  // the least one. With the least latency the search gave up after 20,000 states (the
  // harness's random284); it now proves the LB-tight plan at once.
  auto best = optimal_with_slow_x(mesh_of("{x:2, y:4, z:16}"), "bf16[{z}48, 32, 1, {x,y}16]", "bf16[48, {z}32, 1, 16]");
  ASSERT_TRUE(best.ok()) << best.error().to_string();
  EXPECT_TRUE(best->proved);
  EXPECT_LT(best->expanded, 500);
  ASSERT_EQ(best->plan.steps.size(), 2u) << to_string(best->plan);
  EXPECT_EQ(to_string(best->plan.steps[0]), "all_to_all(src=0, dst=1, axes={z})");
  EXPECT_EQ(to_string(best->plan.steps[1]), "all_gather(dim=3, axes={x,y})");
  EXPECT_NEAR(best->time_us, 6.10872, 1e-9);
}

TEST(OptimalSearch, ASourceSpeltInSubAxesThatMergeIsSearchedAsItsMergedForm) {
  // {y:(1)4,y:(4)2} is y spelt in two sub-axes: every step of the merged form names a
  // suffix of the written one, so the search needs no free permute that re-spells the
  // source (it offered one, whose state repeated every state after it with the permute
  // spent: 8 expansions here against 4, and `random141` of the harness's seed 60606 gave
  // up at its memory cap). Both spellings search the same states to the same optimum.
  const Mesh mesh = mesh_of("{x:2, y:8, z:2}");
  auto split = optimal_with_slow_x(mesh, "f32[{x}8, {y:(1)4,y:(4)2}16]", "f32[{y}8, {x}16]");
  auto merged = optimal_with_slow_x(mesh, "f32[{x}8, {y}16]", "f32[{y}8, {x}16]");
  ASSERT_TRUE(split.ok()) << split.error().to_string();
  ASSERT_TRUE(merged.ok()) << merged.error().to_string();
  EXPECT_EQ(split->expanded, merged->expanded);
  EXPECT_EQ(split->expanded, 4);
  EXPECT_NEAR(split->time_us, merged->time_us, 1e-12);
  EXPECT_NEAR(split->time_us, 6.00136, 1e-9);
  const DistType dst = type_of("f32[{y}8, {x}16]", mesh);
  const DistType src = type_of("f32[{x}8, {y}16]", mesh);
  const BigInt bound = std::max(local_bytes(src), local_bytes(dst));
  EXPECT_EQ(optimal_problem(split->plan, mesh, type_of("f32[{x}8, {y:(1)4,y:(4)2}16]", mesh), mesh, dst, bound), "");
  EXPECT_EQ(optimal_problem(merged->plan, mesh, src, mesh, dst, bound), "");
  // Where the written sub-axes hide a step of the merged form, the re-spelling permute
  // stays: x:(2)3 is no suffix of {x:(1)3,x:(3)2}, and the least plan re-spells first.
  const Mesh six = mesh_of("{x:6}");
  const DistType written = type_of("f32[{x:(1)3,x:(3)2}6, 6]", six), target = type_of("f32[6, {x:(2)3}6]", six);
  auto hidden = optimal_plan(CostModel{}, six, written, six, target);
  ASSERT_TRUE(hidden.ok()) << hidden.error().to_string();
  EXPECT_EQ(optimal_problem(hidden->plan, six, written, six, target,
                            std::max(local_bytes(written), local_bytes(target))),
            "");
  ASSERT_EQ(hidden->plan.steps.size(), 3u) << to_string(hidden->plan);
  EXPECT_EQ(to_string(hidden->plan.steps[0]), "collective_permute(to=f32[{x}6, 6])");
  EXPECT_NEAR(hidden->time_us, 2.00013, 1e-5);
}

TEST(OptimalSearch, TheCountBoundLetsOneFusedStepFixTwoDims) {
  // After the permute, dims 1 and 2 both need a suffix taken out; one fused all_gather
  // takes both. A bound charging a latency per such dim pruned this plan and proved a
  // dearer one (8.07168 us, the harness's random245).
  const Mesh mesh = mesh_of("{x:16, y:4, z:4, w:2}");
  const CostModel model = x_inter_node();
  const DistType src = type_of("bf16[2, {w,x:(2)8,y}192, {z}128]", mesh);
  const DistType dst = type_of("bf16[{z:(1)2}2, 192, {x,w}128]", mesh);
  auto fused = parse_plan(
      "mesh {x:16, y:4, z:4, w:2}\n"
      "source bf16[2, {w,x:(2)8,y}192, {z}128]\n"
      "all_slice(dim=2, axes={x:(1)2})\n"
      "all_to_all(src=1, dst=2, axes={y})\n"
      "collective_permute(to=bf16[2, {y,z}192, {x,w}128])\n"
      "all_to_all(src=1, dst=2, axes={z:(2)2}; src=1, dst=0, axes={z:(1)2})\n"
      "all_gather(dim=1, axes={y}; dim=2, axes={z:(2)2})\n"
      "target bf16[{z:(1)2}2, 192, {x,w}128]\n");
  ASSERT_TRUE(fused.ok()) << fused.error().to_string();
  auto fused_cost = plan_cost(model, *fused);
  ASSERT_TRUE(fused_cost.ok()) << fused_cost.error().to_string();
  EXPECT_NEAR(fused_cost->time_us, 8.01312, 1e-9);
  auto best = optimal_plan(model, mesh, src, mesh, dst);
  ASSERT_TRUE(best.ok()) << best.error().to_string();
  EXPECT_TRUE(best->proved);
  EXPECT_TRUE(at_most(best->time_us, fused_cost->time_us)) << to_string(best->plan);
  EXPECT_EQ(optimal_problem(best->plan, mesh, src, mesh, dst, std::max(local_bytes(src), local_bytes(dst))), "");
}

/// The number of moves of each all_to_all of `plan`, in order.
std::vector<std::size_t> all_to_all_moves(const Plan& plan) {
  std::vector<std::size_t> out;
  for (const auto& step : plan.steps)
    if (const auto* a2a = std::get_if<AllToAll>(&step.op)) out.push_back(a2a->moves.size());
  return out;
}

TEST(OptimalSearch, FusesAllToAllsWhereTheModelPricesItLower) {
  // Bytes: one exchange over {x,y} (3/4 of the buffer) beats two (1/2 + 1/2).
  const Mesh m = mesh_of("{x:2, y:2}");
  const DistType src = type_of("f32[{x}8, {y}8, 8]", m), dst = type_of("f32[8, 8, {x,y}8]", m);
  auto best = optimal_plan(bytes_model(), m, src, m, dst);
  ASSERT_TRUE(best.ok()) << best.error().to_string();
  EXPECT_EQ(all_to_all_moves(best->plan), (std::vector<std::size_t>{2})) << to_string(best->plan);
  auto greedy = synthesize(m, src, dst);
  ASSERT_TRUE(greedy.ok());
  EXPECT_EQ(all_to_all_moves(*greedy), (std::vector<std::size_t>{2})) << to_string(*greedy);
  // x inter-node: the fused exchange runs every byte at the slow link's rate, the
  // sequence only the x half; both planners keep two all_to_alls.
  const Mesh big = mesh_of("{x:2, y:8}");
  const CostModel model = x_inter_node();
  const DistType s2 = type_of("f32[{x}2048, {y}2048, 64]", big), d2 = type_of("f32[2048, 2048, {x,y}64]", big);
  auto split = optimal_plan(model, big, s2, big, d2);
  ASSERT_TRUE(split.ok()) << split.error().to_string();
  EXPECT_EQ(all_to_all_moves(split->plan), (std::vector<std::size_t>{1, 1})) << to_string(split->plan);
  SynthOptions options;
  options.cost_model = &model;
  auto greedy_split = synthesize(big, s2, d2, options);
  ASSERT_TRUE(greedy_split.ok());
  EXPECT_EQ(all_to_all_moves(*greedy_split), (std::vector<std::size_t>{1, 1})) << to_string(*greedy_split);
}

/// Returns the number of parts of each all_gather of `plan`, in order.
std::vector<std::size_t> all_gather_parts(const Plan& plan) {
  std::vector<std::size_t> out;
  for (const auto& step : plan.steps)
    if (const auto* gather = std::get_if<AllGather>(&step.op)) out.push_back(gather->parts.size());
  return out;
}

TEST(OptimalSearch, FusesAllGathersWhereTheModelPricesItLower) {
  // Bytes: one gather over {x,y} moves what the two do and pays one latency.
  const Mesh m = mesh_of("{x:2, y:2}");
  const DistType src = type_of("f32[{x}8, {y}8, 8]", m), dst = type_of("f32[8, 8, 8]", m);
  auto best = optimal_plan(bytes_model(), m, src, m, dst);
  ASSERT_TRUE(best.ok()) << best.error().to_string();
  EXPECT_EQ(all_gather_parts(best->plan), (std::vector<std::size_t>{2})) << to_string(best->plan);
  auto greedy = synthesize(m, src, dst);
  ASSERT_TRUE(greedy.ok());
  EXPECT_EQ(all_gather_parts(*greedy), (std::vector<std::size_t>{2})) << to_string(*greedy);
  const Plan sequence{m, src, {Step(AllGather{1, {AxisRef{"y", 1, 2}}}), Step(AllGather{0, {AxisRef{"x", 1, 2}}})}, dst};
  EXPECT_LT(plan_cost(bytes_model(), *greedy)->time_us, plan_cost(bytes_model(), sequence)->time_us);
  // x inter-node: the fused gather runs every byte at the slow link's rate, the
  // sequence only the x half (after y's gather on the fast link); both planners keep
  // two all_gathers.
  const Mesh big = mesh_of("{x:2, y:8}");
  const CostModel model = x_inter_node();
  const DistType s2 = type_of("f32[{x}2048, {y}2048]", big), d2 = type_of("f32[2048, 2048]", big);
  auto split = optimal_plan(model, big, s2, big, d2);
  ASSERT_TRUE(split.ok()) << split.error().to_string();
  EXPECT_EQ(all_gather_parts(split->plan), (std::vector<std::size_t>{1, 1})) << to_string(split->plan);
  SynthOptions options;
  options.cost_model = &model;
  auto greedy_split = synthesize(big, s2, d2, options);
  ASSERT_TRUE(greedy_split.ok());
  EXPECT_EQ(all_gather_parts(*greedy_split), (std::vector<std::size_t>{1, 1})) << to_string(*greedy_split);
  // Both axes intra-node (1 us a latency): one gather.
  const CostModel intra;
  options.cost_model = &intra;
  auto fused = synthesize(big, s2, d2, options);
  ASSERT_TRUE(fused.ok());
  EXPECT_EQ(all_gather_parts(*fused), (std::vector<std::size_t>{2})) << to_string(*fused);
}

TEST(OptimalSearch, TheDefaultFallbackFindsAPlanWithoutFusedSuccessors) {
  // No seed of this case is valid; offering fused pairs to the fallback search made it
  // stop at 20,000 expansions without a plan (random178 of the seed-13013 harness run).
  const Mesh m = mesh_of("{x:4, y:3, z:2, w:16}");
  const CostModel model = x_inter_node();
  SynthOptions options;
  options.cost_model = &model;
  auto plan = synthesize(m, type_of("f32[{x,y}768, {w}1536, {z}48]", m), type_of("f32[{w}768, {y,z}1536, 48]", m),
                         options);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_TRUE(type_plan(*plan).ok());
}

TEST(OptimalSearch, StartsFromEverySeedTheDefaultCallMayStartFrom) {
  // No plain seed of this pair is valid (random100 of the 1,000-case harness suite). The
  // default call's fallback starts from a seed of the balanced builder's backtracking,
  // 3.05 us: a permute to a tiling outside the search's permute targets, one fused
  // all_to_all and a gather. Seeded without it, the optimal search "proved" a plan of
  // five steps, 4.12 us, dearer than the default one.
  const Mesh m = mesh_of("{x:4, y:16, z:6, w:4, u:2}");
  const CostModel model = x_inter_node();
  const DistType src = type_of("f32[{w:(1)2}8, 1, {z:(1)2,z:(2)3,y,w:(2)2}576, {u}36]", m);
  const DistType dst = type_of("f32[8, 1, {w}576, {z,u}36]", m);
  auto best = optimal_plan(model, m, src, m, dst);
  ASSERT_TRUE(best.ok()) << best.error().to_string();
  SynthOptions options;
  options.cost_model = &model;
  auto by_default = synthesize(m, src, dst, options);
  ASSERT_TRUE(by_default.ok()) << by_default.error().to_string();
  EXPECT_TRUE(at_most(best->time_us, plan_cost(model, *by_default)->time_us));
  EXPECT_NEAR(best->time_us, 3.04848, 1e-5);
  EXPECT_TRUE(best->proved);
}

/// The optimal plan of `src` -> `dst` on `mesh` under x inter-node, asserted proved
/// optimal at `time_us`, within max(source, target), and proved by the checker correct
/// on every element, within memory and slicing first (G1, G2, G3a: these arrays are too
/// large for the interpreter check of optimal_problem()).
Plan proved_optimum(const std::string& mesh, const std::string& src_text, const std::string& dst_text,
                    double time_us) {
  const Mesh m = mesh_of(mesh);
  const DistType src = type_of(src_text, m), dst = type_of(dst_text, m);
  auto best = optimal_plan(x_inter_node(), m, src, m, dst);
  EXPECT_TRUE(best.ok()) << best.error().to_string();
  if (!best) return Plan{};
  EXPECT_NEAR(best->time_us, time_us, 1e-4);
  EXPECT_TRUE(best->proved);
  EXPECT_EQ(optimal_problem(best->plan, m, src, m, dst, std::max(local_bytes(src), local_bytes(dst))), "");
  auto report = check_plan(best->plan);
  EXPECT_TRUE(report.ok()) << report.error().to_string();
  if (report) {
    EXPECT_EQ(report->correct.verdict, Verdict::proved) << report->correct.detail;
    EXPECT_EQ(report->memory.verdict, Verdict::proved) << report->memory.detail;
    EXPECT_EQ(report->no_peak.verdict, Verdict::proved) << report->no_peak.detail;
  }
  return best->plan;
}

TEST(OptimalSearch, StartsFromTheExchangeLastSeedsAndTakesEverySeedsPermutes) {
  // random35 of the seed-9001 random suite: the cheapest plan permutes to a tiling that
  // only an exchange-last seed (synthesize()'s fallback seeds) reaches; seeded without
  // them the search "proved" 58.0457 us.
  EXPECT_EQ(proved_optimum("{x:16, y:3, z:4, w:2}", "bf16[138, {x,y}1104, {w}92]", "bf16[{y}138, {z,w}1104, 92]",
                           55.6135)
                .steps.size(),
            6u);
  // random339 of seed 13013: with the exchange-last seeds another seed ranks first; the
  // search offered only the best seed's permutes missed this one's (7.2863 us).
  const Plan plan = proved_optimum("{x:2, y:8, z:16, w:2}", "bf16[{w}512, 2, {y,x}32, {z}16]",
                                   "bf16[{y:(2)4,z,y:(1)2}512, 2, 32, 16]", 7.27947);
  ASSERT_EQ(plan.steps.size(), 3u);
  EXPECT_EQ(to_string(plan.steps[0]),
            "collective_permute(to=bf16[{y:(2)2}512, 2, {z:(8)2,y:(1)2,w,x}32, {y:(4)2,z:(1)8}16])");
}

TEST(OptimalSearch, ErrorsAreValues) {
  const Mesh mesh = mesh_of("{x:4, y:2}");
  const DistType src = type_of("f32[{x}16, {y}8]", mesh), dst = type_of("f32[{y}16, {x}8]", mesh);
  OptimalOptions tiny;
  tiny.budget_bytes = 8;
  EXPECT_EQ(optimal_plan(CostModel{}, mesh, src, mesh, dst, tiny).error().kind, Error::Kind::no_plan);
  EXPECT_EQ(optimal_plan(CostModel{}, mesh, src, mesh, type_of("f32[{y}16, {x}16]", mesh)).error().kind,
            Error::Kind::invalid);
  // Other axes over the same devices are planned on the refinement (docs/meshes.md);
  // axes that do not nest are unsupported.
  const Mesh other = mesh_of("{x:4, z:2}");
  auto refined = optimal_plan(CostModel{}, mesh, src, other, type_of("f32[{z}16, {x}8]", other));
  ASSERT_TRUE(refined.ok()) << refined.error().to_string();
  EXPECT_EQ(to_string(refined->plan.mesh), "{x:4, y:2}");
  const Mesh two_three = mesh_of("{u:2, v:3}"), three_two = mesh_of("{p:3, q:2}");
  EXPECT_EQ(optimal_plan(CostModel{}, two_three, type_of("f32[{u}6]", two_three), three_two,
                         type_of("f32[{p}6]", three_two)).error().kind,
            Error::Kind::unsupported);
  CostModel unknown;
  unknown.axis_class["w"] = LinkClass::inter;
  EXPECT_EQ(optimal_plan(unknown, mesh, src, mesh, dst).error().kind, Error::Kind::invalid);
  // A search its cap stops (this one proves its plan after 14,420 expansions).
  const Mesh big = mesh_of("{x:4, y:8, z:16}");
  CostModel slow_x;
  slow_x.axis_class["x"] = LinkClass::inter;
  const DistType long_src = type_of("f32[{x:(2)2,z:(1)2}16748544]", big);
  const DistType long_dst = type_of("f32[{y,z,x:(1)2,x:(2)2}16748544]", big);
  OptimalOptions capped;
  capped.max_expanded = 1;
  auto stopped = optimal_plan(slow_x, big, long_src, big, long_dst, capped);
  ASSERT_FALSE(stopped.ok());
  EXPECT_EQ(stopped.error().kind, Error::Kind::runtime);
  // With a timeout the search is anytime: a cap that stops it first still returns the
  // best plan so far (the seed), unproved and saying why.
  capped.timeout_s = 60;
  auto anytime = optimal_plan(slow_x, big, long_src, big, long_dst, capped);
  ASSERT_TRUE(anytime.ok()) << anytime.error().to_string();
  EXPECT_FALSE(anytime->proved);
  EXPECT_EQ(anytime->stopped, "the search stopped after expanding 1 states");
  EXPECT_TRUE(type_plan(anytime->plan).ok());
}

}  // namespace
}  // namespace redist::testing
