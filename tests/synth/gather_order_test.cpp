// The order of gathers on different dims (synth/src/gather_order.hpp): dim 0 last, so
// XLA gathers the other dims on the smaller buffer; never at a higher modeled cost, and
// gathers of one dim (split by link class) keep their order. Consecutive gathers of one
// dim on one link class are merged into one; on two classes they stay apart.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "redist/plan/plan_text.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/optimal.hpp"
#include "redist/synth/synthesize.hpp"
#include "synth/src/gather_order.hpp"
#include "synth/link_class_cases.hpp"

namespace redist::testing {
namespace {

/// The kinds and dims of `plan`'s steps, e.g. "all_gather(1) all_gather(0)".
std::string gathers_of(const Plan& plan) {
  std::string out;
  for (const auto& s : plan.steps)
    if (const auto* g = std::get_if<AllGather>(&s.op)) out += fmt::format("{}all_gather({})", out.empty() ? "" : " ", g->parts[0].dim);
  return out;
}

TEST(GatherOrder, TheMajorDimIsGatheredLast) {
  const Mesh mesh = parse_mesh("{x:2, y:4}").value();
  const DistType src = parse_type("f64[{x}6, {y}43688, 2]", mesh).value();
  const DistType dst = parse_type("f64[6, 43688, 2]", mesh).value();
  auto plan = synthesize(mesh, src, dst);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_EQ(gathers_of(*plan), "all_gather(1) all_gather(0)") << to_string(*plan);
  EXPECT_EQ(plan_problem(*plan, mesh, src, mesh, dst, local_bytes(dst)), "");
}

TEST(GatherOrder, TheCheaperOrderStaysUnderLinkClasses) {
  // x inter-node: gathering x while the buffer is small is cheaper, whatever its dim.
  const Plan plan = checked_plan(case_of("{x:2, y:4}", "f32[{x}4096, {y}4096]", "f32[4096, 4096]"), x_inter());
  EXPECT_EQ(gathers_of(plan), "all_gather(0) all_gather(1)") << to_string(plan);
}

TEST(GatherOrder, TheSlowAxisIsGatheredFirstAcrossDims) {
  // x (3, inter) is the minor axis of dim 1: gathered first, on the smallest buffer, then
  // y:(2)2 of dim 1 and dim 0 in one fused gather on the fast link (harness case
  // random101: dim 0 first took 3,460 us; the two fast gathers apart 1,407 us, fused 1,406).
  const LinkCase c = case_of("{x:3, y:4, z:2}", "f32[{y:(1)2,z}4320, {y:(2)2,x}12960]", "f32[4320, 12960]");
  const Plan plan = checked_plan(c, x_inter());
  ASSERT_EQ(plan.steps.size(), 2u) << to_string(plan);
  EXPECT_EQ(to_string(plan.steps[0]), "all_gather(dim=1, axes={x})");
  EXPECT_EQ(to_string(plan.steps[1]), "all_gather(dim=1, axes={y:(2)2}; dim=0, axes={y:(1)2,z})");
  expect_optimal_cost(c, x_inter(), plan);
}

TEST(GatherOrder, TheSlowFactorIsPermutedMinorAndGatheredFirst) {
  // The permute puts x:(2)2 (inter) at the minor end of dim 0, so it is gathered on the
  // small buffer and the fast factors after it (harness case random295: the slow gather
  // last took 1,220 us; this plan 309.01 us). The optimal plan (304.01 us) pads the
  // permute with fast factors only and gathers nothing on x; the default plan is within
  // its 10% gap of it.
  const LinkCase c = case_of("{x:4, y:6, z:8, w:2}", "f32[{z,x:(2)2,w}79469184]", "f32[{y:(2)3,w}79469184]");
  const Plan plan = checked_plan(c, x_inter());
  ASSERT_EQ(plan.steps.size(), 4u) << to_string(plan);
  EXPECT_EQ(to_string(plan.steps[2]), "all_gather(dim=0, axes={x:(2)2})");
  EXPECT_NEAR(plan_cost(x_inter(), plan)->time_us, 309.00944, 1e-3);
  auto best = optimal_plan(x_inter(), c.mesh, c.src, c.target_mesh, c.dst);
  ASSERT_TRUE(best.ok()) << best.error().to_string();
  EXPECT_NEAR(best->time_us, 304.00944, 1e-3) << to_string(best->plan);
  // Under one class there is nothing to reorder.
  EXPECT_FALSE(synth_detail::slow_gathers_first(CostModel{}, plan).has_value());
}

TEST(GatherOrder, ASlowGatherMovesBeforeTheExchange) {
  // x:(1)2 (inter) gathered first, on the source's small buffer, then the exchange over
  // the fast y and z (harness case random17: 12.6 us with the gather last, 8.0 us now).
  const LinkCase c = case_of("{x:16, y:8, z:3}", "bf16[{y,z}672, {x:(1)2}672]", "bf16[672, {z,y}672]");
  const Plan plan = checked_plan(c, x_inter());
  ASSERT_FALSE(plan.steps.empty());
  EXPECT_EQ(to_string(plan.steps[0]), "all_gather(dim=1, axes={x:(1)2})") << to_string(plan);
  EXPECT_LT(plan_cost(x_inter(), plan)->time_us, 8.5);
  // One class: no slow gather to move.
  EXPECT_TRUE(synth_detail::slow_gathers_early(CostModel{}, plan).empty());
}

TEST(GatherOrder, ASlowGatheredFactorIsReplacedByAFastOneInThePermute) {
  // The permute (to another device order) puts x (inter) where y (intra, the same size,
  // replicated) can go instead: the gather then runs on the fast link only (harness
  // case random24: 11.7 us with x gathered, 6.5 us, the optimal plan).
  const LinkCase c = case_of("{x:2, y:2, z:6, w:2}", "bf16[{z,w,x}127440]", "bf16[{z:(2)3,z:(1)2}127440]",
                             "{x:2, y:2, z:6, w:2} devices=[39,32,13,3,21,16,47,38,8,42,41,18,31,14,37,0,26,7,35,29,"
                             "20,6,24,25,23,45,28,43,22,19,4,40,33,30,9,10,17,46,44,27,15,36,12,1,11,34,2,5]");
  const Plan plan = checked_plan(c, x_inter());
  ASSERT_EQ(plan.steps.size(), 2u) << to_string(plan);
  EXPECT_EQ(to_string(plan.steps[1]), "all_gather(dim=0, axes={w,y})");
  expect_optimal_cost(c, x_inter(), plan);
}

/// The plan on `mesh` of gathers `a` then `b` of dim 0 from `src`.
Plan two_gathers(const Mesh& mesh, const DistType& src, std::vector<AxisRef> a, std::vector<AxisRef> b) {
  return Plan{mesh, src, {Step(AllGather{0, std::move(a)}), Step(AllGather{0, std::move(b)})}, std::nullopt};
}

TEST(GatherOrder, GathersOfOneDimAndOneClassAreMerged) {
  const Mesh mesh = parse_mesh("{x:2, y:4, z:8}").value();
  const DistType src = parse_type("f32[{x,y:(1)2,y:(2)2,z}1024, 4]", mesh).value();
  const auto y_minor = parse_type("f32[{y:(2)2,z}1024]", mesh).value().dims[0].axes;
  const auto y_major = parse_type("f32[{y:(1)2}1024]", mesh).value().dims[0].axes;
  const Plan plan = two_gathers(mesh, src, y_minor, y_major);
  const CostModel model = parse_cost_model("x = inter\n").value();
  const Plan merged = synth_detail::merged_gathers(model, plan);
  ASSERT_EQ(merged.steps.size(), 1u) << to_string(merged);
  EXPECT_EQ(to_string(merged.steps[0]), "all_gather(dim=0, axes={y:(1)2,y:(2)2,z})");
  // The same bytes, one latency (1 us intra-node) less.
  const auto before = plan_cost(model, plan), after = plan_cost(model, merged);
  ASSERT_TRUE(before.ok() && after.ok());
  EXPECT_EQ(after->wire_bytes, before->wire_bytes);
  EXPECT_NEAR(before->time_us - after->time_us, model.intra.latency_us, 1e-9);
  EXPECT_EQ(to_string(type_plan(merged)->back().type), "f32[{x}1024, 4]");
}

TEST(GatherOrder, GathersOfTwoClassesStayApart) {
  // x inter-node: one gather of {x, y} would run all its bytes at the slow rate.
  const Mesh mesh = parse_mesh("{x:2, y:4}").value();
  const DistType src = parse_type("f32[{x,y}4096, 4]", mesh).value();
  const auto x = parse_type("f32[{x}4096]", mesh).value().dims[0].axes;
  const auto y = parse_type("f32[{y}4096]", mesh).value().dims[0].axes;
  const Plan plan = two_gathers(mesh, src, y, x);
  EXPECT_EQ(synth_detail::merged_gathers(parse_cost_model("x = inter\n").value(), plan), plan);
  // Under one class they merge.
  EXPECT_EQ(synth_detail::merged_gathers(CostModel{}, plan).steps.size(), 1u);
}

}  // namespace
}  // namespace redist::testing
