// A permute moved before the all_to_all it follows (synth/src/permute_first.hpp): the
// rewrite's exact form, and a default plan under link classes that takes it.

#include <gtest/gtest.h>

#include "redist/plan/plan_text.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/optimal.hpp"
#include "redist/synth/synthesize.hpp"
#include "synth/src/permute_first.hpp"
#include "synth/link_class_cases.hpp"
#include "synth/synthesis_checks.hpp"

namespace redist::testing {
namespace {

TEST(PermuteFirst, ThePermuteTargetsTheLayoutBeforeTheExchange) {
  const Mesh mesh = parse_mesh("{x:4, y:8, z:3}").value();
  const DistType src = parse_type("f32[320, {z}120, {y,x}2560]", mesh).value();
  const DistType dst = parse_type("f32[{y:(1)4}320, {z}120, {x,y:(4)2}2560]", mesh).value();
  const Plan plan{mesh, src,
                  {Step(AllToAll{2, 0, parse_type("f32[{x}4]", mesh).value().dims[0].axes}),
                   Step(CollectivePermute{dst, std::nullopt})},
                  dst};
  ASSERT_EQ(plan_problem(plan, mesh, src, mesh, dst, local_bytes(src)), "");
  const auto rewritten = synth_detail::permutes_first(plan);
  ASSERT_EQ(rewritten.size(), 1u);
  ASSERT_EQ(rewritten[0].steps.size(), 2u);
  // The destination dim's minor factors of the group's size 4 go back to the source dim.
  EXPECT_EQ(to_string(rewritten[0].steps[0]), "collective_permute(to=f32[320, {z}120, {x,y:(4)2,y:(1)4}2560])");
  EXPECT_EQ(to_string(rewritten[0].steps[1]), "all_to_all(src=2, dst=0, axes={y:(1)4})");
  EXPECT_EQ(plan_problem(rewritten[0], mesh, src, mesh, dst, local_bytes(src)), "");
}

TEST(PermuteFirst, TheDefaultPlanPermutesOnTheFastAxesFirst) {
  // x inter-node: after the exchange the permute's pairs differ along x; before it, along
  // y only (harness case random350: 317 us with the permute last, the optimal 182 us).
  const LinkCase c =
      case_of("{x:4, y:8, z:3}", "f32[320, {z}120, {y,x}2560]", "f32[{y}320, {z}120, {x:(1)2,x:(2)2}2560]");
  const Plan plan = checked_plan(c, x_inter());
  ASSERT_EQ(plan.steps.size(), 2u) << to_string(plan);
  EXPECT_TRUE(std::holds_alternative<CollectivePermute>(plan.steps[0].op)) << to_string(plan);
  expect_optimal_cost(c, x_inter(), plan);
  // A pair whose destination dim has no minor factors of the group's size is skipped.
  const Plan odd{c.mesh, c.src,
                 {Step(AllToAll{1, 0, parse_type("f32[{z}3]", c.mesh).value().dims[0].axes}),
                  Step(CollectivePermute{parse_type("f32[{y}320, 120, {x}2560]", c.mesh).value(), std::nullopt})},
                 std::nullopt};
  EXPECT_TRUE(synth_detail::permutes_first(odd).empty());
}

TEST(PermuteFirst, AFusedExchangeTakesThePermuteFirstInEitherOrderOfItsMoves) {
  // Harness case random217: the fused all_to_all (y:(2)8 from dim 1, x:(4)2 from dim 3)
  // then a permute whose pairs differ along x (inter-node); with the moves in the other
  // order the permute only reorders dim 3 and the exchange runs over y alone.
  const LinkCase c = case_of("{x:8, y:16}", "bf16[96, {y:(2)8}32, 2, {y:(1)2,x}32]", "bf16[{y}96, 32, 2, {x}32]");
  const Plan fused = parse_plan(
                         "mesh {x:8, y:16}\nsource bf16[96, {y:(2)8}32, 2, {y:(1)2,x}32]\n"
                         "all_to_all(src=1, dst=0, axes={y:(2)8}; src=3, dst=0, axes={x:(4)2})\n"
                         "collective_permute(to=bf16[{y}96, 32, 2, {x}32])\ntarget bf16[{y}96, 32, 2, {x}32]\n")
                         .value();
  ASSERT_EQ(plan_problem(fused, c.mesh, c.src, c.mesh, c.dst, local_bytes(c.src)), "");
  const auto rewritten = synth_detail::permutes_first(fused);
  ASSERT_EQ(rewritten.size(), 2u);
  // The moves in their order: the last move's share (size 2) is the most minor part of
  // dim 0, split off y:(2)8.
  EXPECT_EQ(to_string(rewritten[0].steps[0]), "collective_permute(to=bf16[96, {y:(1)8}32, 2, {x,y:(8)2}32])");
  EXPECT_EQ(to_string(rewritten[0].steps[1]), "all_to_all(src=1, dst=0, axes={y:(1)8}; src=3, dst=0, axes={y:(8)2})");
  // In the other order: dim 1 keeps y:(2)8 and dim 3 ends with y:(1)2.
  EXPECT_EQ(to_string(rewritten[1].steps[0]), "collective_permute(to=bf16[96, {y:(2)8}32, 2, {x,y:(1)2}32])");
  EXPECT_EQ(to_string(rewritten[1].steps[1]), "all_to_all(src=3, dst=0, axes={y:(1)2}; src=1, dst=0, axes={y:(2)8})");
  for (const auto& p : rewritten) EXPECT_EQ(plan_problem(p, c.mesh, c.src, c.mesh, c.dst, local_bytes(c.src)), "");
  // Both orders cost the same under x_inter (the default plan takes the first form made,
  // without comparing received bytes): 10.2 us before, the optimal 6.1 us now.
  const Plan plan = checked_plan(c, x_inter());
  ASSERT_EQ(plan.steps.size(), 2u) << to_string(plan);
  EXPECT_TRUE(plan.steps[0].op == rewritten[0].steps[0].op || plan.steps[0].op == rewritten[1].steps[0].op)
      << to_string(plan);
  EXPECT_EQ(std::get<AllToAll>(plan.steps.at(1).op).moves.size(), 2u) << to_string(plan);
  expect_optimal_cost(c, x_inter(), plan);
}

}  // namespace
}  // namespace redist::testing
