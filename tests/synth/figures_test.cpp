// Exact figures of steps and plans, computed by hand; big integers beyond 64 bits.

#include <gtest/gtest.h>

#include "redist/plan/figures.hpp"
#include "redist/plan/plan_text.hpp"

namespace redist::testing {
namespace {

Plan plan_from(const std::string& text) {
  auto plan = parse_plan(text);
  EXPECT_TRUE(plan.ok()) << plan.error().to_string();
  return *plan;
}

TEST(Figures, AllGatherReceivesGMinusOneLocalBuffers) {
  const auto f = plan_figures(plan_from("mesh {x:4}\nsource f32[{x}16, 8]\nall_gather(dim=0, axes={x})\n")).value();
  ASSERT_EQ(f.steps.size(), 1u);
  EXPECT_EQ(f.steps[0].op, "all_gather");
  EXPECT_EQ(f.steps[0].group_size, 4);
  EXPECT_EQ(f.steps[0].local_bytes_before, 128);
  EXPECT_EQ(f.steps[0].local_bytes_after, 512);
  EXPECT_EQ(f.steps[0].recv_bytes_max, 384);
  EXPECT_EQ(f.steps[0].send_bytes_max, 384);
  EXPECT_EQ(f.steps[0].recv_bytes_total, 1536);
  EXPECT_EQ(f.peak_local_bytes, 512);
  EXPECT_EQ(f.transient_peak_bytes, 640);
  EXPECT_EQ(f.bound_bytes, 512);
  EXPECT_EQ(f.recv_bytes_max, 384);
  ASSERT_TRUE(f.lower_bound.has_value());
  EXPECT_EQ(f.lower_bound->max, 384);  // all but its own quarter
  EXPECT_EQ(f.lower_bound->total, 1536);
}

TEST(Figures, AllToAllKeepsOneGthAndSliceMovesNothing) {
  const auto g =
      plan_figures(plan_from("mesh {x:4, y:2}\nsource f32[{x}16, 8]\nall_to_all(src=0, dst=1, axes={x})\n"
                             "all_slice(dim=0, axes={y})\n"))
          .value();
  EXPECT_EQ(g.steps[0].recv_bytes_max, 96);  // 3/4 of 128
  EXPECT_EQ(g.steps[0].recv_bytes_total, 96 * 8);
  EXPECT_EQ(g.steps[1].recv_bytes_max, 0);
  EXPECT_EQ(g.steps[1].group_size, 2);
  EXPECT_EQ(g.steps[1].local_bytes_after, 64);
  // LB: device (x, y) needs rows of y's half and columns of x's quarter; it holds the
  // rows of x's quarter and every column: the 2x2 corner where they meet (or none).
  ASSERT_TRUE(g.lower_bound.has_value());
  EXPECT_EQ(g.lower_bound->max, 64);
}

TEST(Figures, PermuteMovesOnlyDevicesWhoseShardChanges) {
  // (a, b) needs block (b, a): the two devices with a == b keep their data.
  const auto f = plan_figures(plan_from("mesh {a:2, b:2}\nsource f32[{a}16, {b}16]\n"
                                        "collective_permute(to=f32[{b}16, {a}16])\n"))
                     .value();
  EXPECT_EQ(f.steps[0].recv_bytes_max, 256);
  EXPECT_EQ(f.steps[0].recv_bytes_total, 512);
  EXPECT_EQ(f.steps[0].send_bytes_max, 256);
  EXPECT_EQ(f.steps[0].group_size, 2);
  EXPECT_EQ(f.recv_bytes_total, 512);
  EXPECT_EQ(f.lower_bound->total, 512);
}

TEST(Figures, ReductionsMoveTheirRingShares) {
  const auto f = plan_figures(plan_from("mesh {z:4}\nsource f32[16] sum{z}\nreduce_scatter(dim=0, axes={z})\n")).value();
  EXPECT_EQ(f.steps[0].recv_bytes_max, 48);  // 3/4 of 64
  EXPECT_EQ(f.steps[0].local_bytes_after, 16);
  const auto g = plan_figures(plan_from("mesh {z:4}\nsource f32[16] sum{z}\nall_reduce(axes={z})\n")).value();
  EXPECT_EQ(g.steps[0].recv_bytes_max, 96);  // 2 * 3/4 of 64
}

TEST(Figures, LowerBoundOfAReductionIsItsShareOfTheMerges) {
  // 16 elements, 4 summands each: 3 element transfers per element, 48 elements of
  // 4 bytes over 4 devices = 48 bytes each; the reduce_scatter meets it.
  const auto f = plan_figures(plan_from("mesh {z:4}\nsource f32[16] sum{z}\nreduce_scatter(dim=0, axes={z})\n")).value();
  ASSERT_TRUE(f.lower_bound.has_value());
  EXPECT_EQ(f.lower_bound->max, 48);
  EXPECT_EQ(f.lower_bound->total, 192);
  // Kept reductions multiply the elements: sum{y,z} -> {y}-sharded, z kept: 16 * 4
  // elements, 1 transfer each, 4 bytes, over 8 devices = 32 bytes; nothing moves (the
  // source holds every element), and the reduce_scatter over y meets it.
  const auto g = plan_figures(plan_from("mesh {y:2, z:4}\nsource f32[16] sum{y,z}\nreduce_scatter(dim=0, axes={y})\n"
                                        "target f32[{y}16] sum{z}\n")).value();
  ASSERT_TRUE(g.lower_bound.has_value());
  EXPECT_EQ(g.lower_bound->max, 32);
  EXPECT_EQ(g.recv_bytes_max, 32);
  // Moving adds LB_move: sum{z} -> {z}-sharded from a source sharded elsewhere.
  const auto h = plan_figures(plan_from("mesh {y:2, z:2}\nsource f32[{y}8] sum{z}\nall_gather(dim=0, axes={y})\n"
                                        "reduce_scatter(dim=0, axes={z})\n")).value();
  // share 1 * 8 * 4 / 4 = 8; LB_move: device (y, z) needs block z of 2, holds block y:
  // 16 bytes when y != z.
  EXPECT_EQ(h.lower_bound->max, 8 + 16);
}

TEST(Figures, ByteCountsBeyondSixtyFourBitsAreExact) {
  // 2^62 f64 elements (2^65 bytes) on 65,536 devices, gathered everywhere.
  const auto f = plan_figures(plan_from("mesh {a:256, b:256}\nsource f64[{a}2147483648, {b}2147483648]\n"
                                        "all_gather(dim=0, axes={a})\nall_gather(dim=1, axes={b})\n"))
                     .value();
  const BigInt two = 2;
  const BigInt p49 = boost::multiprecision::pow(two, 49), p57 = boost::multiprecision::pow(two, 57),
               p65 = boost::multiprecision::pow(two, 65);
  EXPECT_EQ(f.source_local_bytes, p49);
  EXPECT_EQ(f.steps[0].recv_bytes_max, 255 * p49);
  EXPECT_EQ(f.steps[1].recv_bytes_max, 255 * p57);
  EXPECT_EQ(f.peak_local_bytes, p65);
  EXPECT_EQ(f.recv_bytes_max, p65 - p49);
  EXPECT_EQ(f.recv_bytes_total, (p65 - p49) * 65536);
  ASSERT_TRUE(f.lower_bound.has_value());
  EXPECT_EQ(f.lower_bound->max, p65 - p49);
  EXPECT_EQ(f.lower_bound->total, (p65 - p49) * 65536);
}

TEST(Figures, ABudgetSetsTheBound) {
  const auto f = plan_figures(plan_from("mesh {x:4}\nsource f32[{x}16, 8]\nall_gather(dim=0, axes={x})\n"), 4096).value();
  EXPECT_EQ(f.bound_bytes, 4096);
}

TEST(Figures, PlansThatDoNotTypeCheckHaveNoFigures) {
  auto plan = plan_from("mesh {x:4}\nsource f32[16, 8]\nall_gather(dim=0, axes={x})\n");
  EXPECT_FALSE(plan_figures(plan).ok());
}

TEST(Figures, DeviceLowerBoundIsTheMissingPartOfTheTargetBox) {
  const Mesh mesh = parse_mesh("{x:4}").value();
  const DistType src = parse_type("f32[{x}16, 8]", mesh).value(), dst = parse_type("f32[16, {x}8]", mesh).value();
  // Device x holds rows [4x, 4x+4) and needs columns [2x, 2x+2): 32 - 8 elements missing.
  for (int64_t d = 0; d < 4; ++d) EXPECT_EQ(device_lower_bound(mesh, src, mesh, dst, d), 96);
  const auto lb = lower_bound(mesh, src, mesh, dst).value();
  EXPECT_EQ(lb.max, 96);
  EXPECT_EQ(lb.total, 384);
}

TEST(Figures, LowerBoundAcrossDeviceOrders) {
  const Mesh a = parse_mesh("{x:2}").value(), b = parse_mesh("{x:2} devices=[1,0]").value();
  const DistType t = parse_type("f32[{x}8]", a).value();
  // Each physical device needs the other half.
  EXPECT_EQ(lower_bound(a, t, b, t)->total, 32);
  EXPECT_EQ(lower_bound(a, t, a, t)->total, 0);
}

}  // namespace
}  // namespace redist::testing
