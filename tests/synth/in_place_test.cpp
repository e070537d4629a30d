// Permutes whose pairs keep the most data in place (synth/src/in_place.hpp): where the
// lowering's pairs send some device a block it already holds, the default plan carries
// an explicit pair table that keeps it; the plan stays correct under the interpreter,
// the checker proves it, and every device then receives exactly its lower bound.

#include <gtest/gtest.h>

#include "redist/plan/figures.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/synthesize.hpp"
#include "redist/verify/checker.hpp"
#include "synth/synthesis_cases.hpp"
#include "synth/synthesis_checks.hpp"

namespace redist::testing {
namespace {

using Pair = ReshardCase;

/// The default plan of `p`, checked: correct under the interpreter, within the bound,
/// G1, G2 and G3a proved, one permute with an explicit pair table.
Plan checked_plan(const Pair& p) {
  auto plan = synthesize(p.mesh, p.src, p.target_mesh, p.dst);
  EXPECT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_EQ(plan_problem(*plan, p.mesh, p.src, p.target_mesh, p.dst,
                         std::max(local_bytes(p.src), local_bytes(p.dst))),
            "");
  auto report = check_plan(*plan);
  EXPECT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_EQ(report->correct.verdict, Verdict::proved) << report->correct.detail;
  EXPECT_EQ(report->memory.verdict, Verdict::proved) << report->memory.detail;
  EXPECT_EQ(report->no_peak.verdict, Verdict::proved) << report->no_peak.detail;
  const auto permutes = std::count_if(plan->steps.begin(), plan->steps.end(), [](const Step& s) {
    return std::holds_alternative<CollectivePermute>(s.op) && s.pairs.has_value();
  });
  EXPECT_EQ(permutes, 1) << to_string(*plan);
  return *plan;
}

TEST(InPlacePermute, PairsKeepEveryDeviceThatHoldsItsTargetShard) {
  // {z,x} -> {y} on {x:2, y:4, z:2}: device (x, y, z) holds block 2z+x and needs y; the
  // lowering's pairs move a quarter of the devices that already hold it.
  const Pair p = parsed_case("{x:2, y:4, z:2}", "{x:2, y:4, z:2}", "f32[{z,x}64]", "f32[{y}64]");
  const Plan plan = checked_plan(p);
  auto figures = plan_figures(plan);
  ASSERT_TRUE(figures.ok()) << figures.error().to_string();
  ASSERT_TRUE(figures->lower_bound.has_value());
  EXPECT_EQ(figures->recv_bytes_total, figures->lower_bound->total);  // 12 devices move 64 bytes
  EXPECT_EQ(figures->recv_bytes_total, 12 * 64);
  // The lowering's own pairs receive more, on the same links.
  Plan lowered = plan;
  for (auto& s : lowered.steps) s.pairs.reset();
  auto lowered_figures = plan_figures(lowered);
  ASSERT_TRUE(lowered_figures.ok());
  EXPECT_GT(lowered_figures->recv_bytes_total, figures->recv_bytes_total);
  EXPECT_LE(plan_cost(CostModel{}, plan)->time_us, plan_cost(CostModel{}, lowered)->time_us);
  // The table reads back from the plan text.
  auto text = parse_plan(to_string(plan));
  ASSERT_TRUE(text.ok()) << text.error().to_string();
  EXPECT_EQ(*text, plan);
}

TEST(InPlacePermute, WithoutAMoveOfReplicatedFactorsTheLoweringKeepsHeldBlocks) {
  // {x}, {y} -> {y}, {x} on {x:2, y:2}: no factor is replicated on either side, so a
  // device holding its block ((0,0) and (1,1)) keeps it under the lowering's own pairs
  // and the plan needs no table (in_place.cpp returns before building one).
  const Pair p = parsed_case("{x:2, y:2}", "{x:2, y:2}", "f32[{x}8, {y}8]", "f32[{y}8, {x}8]");
  auto plan = synthesize(p.mesh, p.src, p.target_mesh, p.dst);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  ASSERT_EQ(plan->steps.size(), 1u) << to_string(*plan);
  EXPECT_TRUE(std::holds_alternative<CollectivePermute>(plan->steps[0].op));
  EXPECT_FALSE(plan->steps[0].pairs.has_value());
  auto figures = plan_figures(*plan);
  ASSERT_TRUE(figures.ok()) << figures.error().to_string();
  ASSERT_TRUE(figures->lower_bound.has_value());
  EXPECT_EQ(figures->recv_bytes_total, figures->lower_bound->total);  // 2 devices receive 16 floats
  EXPECT_EQ(figures->recv_bytes_total, 2 * 16 * 4);
}

TEST(InPlacePermute, AReplicatedArrayOnAnotherDeviceOrderMovesNothing) {
  // Every device holds the whole array: the permute to the new order keeps every
  // buffer where it is (the lowering's pairs would send every one across).
  const Pair p = parsed_case("{x:2, y:2}", "{x:2, y:2} devices=[3,2,1,0]", "f32[16, 8]", "f32[16, 8]");
  const Plan plan = checked_plan(p);
  auto figures = plan_figures(plan);
  ASSERT_TRUE(figures.ok());
  EXPECT_EQ(figures->recv_bytes_total, 0);
  EXPECT_EQ(plan.steps.at(0).pairs, (DevicePairs{{3, 3}, {2, 2}, {1, 1}, {0, 0}}));  // in the new order
  EXPECT_EQ(plan_cost(CostModel{}, plan)->time_us, 0);
}

TEST(InPlacePermute, TheSliceIsTheAtomTheTargetKeepsAtItsMinorEnd) {
  // {y} -> {z} on z:4: slicing z:(2)2 (the target's minor atom) keeps half the devices
  // in place across the permute, slicing z:(1)2 only a quarter.
  const Pair p = parsed_case("{x:2, y:2, z:4}", "{x:2, y:2, z:4}", "bf16[{y}64]", "bf16[{z}64]");
  auto plan = synthesize(p.mesh, p.src, p.target_mesh, p.dst);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_EQ(to_string(plan->steps.at(0)), "all_slice(dim=0, axes={z:(2)2})");
  EXPECT_EQ(to_string(plan->steps.at(1)), "collective_permute(to=bf16[{z}64])");
  EXPECT_EQ(plan->steps.size(), 2u);
  auto figures = plan_figures(*plan);
  ASSERT_TRUE(figures.ok());
  EXPECT_EQ(figures->recv_bytes_total, 256);
  EXPECT_EQ(figures->recv_bytes_total, figures->lower_bound->total);
}

TEST(InPlacePermute, SliceOrderKeepsTheDevicesThatHoldTheirBlock) {
  // XLA's random10: slicing {z,x} leaves block 4y+2z+x where the target wants 4z+2x+y
  // (2 devices in place); slicing {x,z} leaves 4y+2x+z, in place wherever y = z (4),
  // as XLA's own plan does (synth/src/slice_orders.hpp).
  const Pair p = parsed_case("{x:2, y:2, z:2}", "{x:2, y:2, z:2}", "f64[{y}8]", "f64[{z,x,y}8]");
  auto plan = synthesize(p.mesh, p.src, p.target_mesh, p.dst);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  ASSERT_EQ(plan->steps.size(), 2u) << to_string(*plan);
  EXPECT_EQ(to_string(plan->steps[0]), "all_slice(dim=0, axes={x,z})");
  EXPECT_EQ(to_string(plan->steps[1]), "collective_permute(to=f64[{z,x,y}8])");
  EXPECT_EQ(plan_problem(*plan, p.mesh, p.src, p.target_mesh, p.dst, 32), "");
  auto figures = plan_figures(*plan);
  ASSERT_TRUE(figures.ok());
  ASSERT_TRUE(figures->lower_bound.has_value());
  EXPECT_EQ(figures->recv_bytes_total, 32);  // 4 devices receive one f64 each
  EXPECT_EQ(figures->lower_bound->total, 32);
}

}  // namespace
}  // namespace redist::testing
