// Slices that keep the blocks devices already hold (synth/src/held_slices.hpp): the
// worked example of the header as the default plan (tight, proved, every element run),
// the rewrite's own results, and a wrong slice order refuted by the checker.

#include <gtest/gtest.h>

#include "redist/plan/figures.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/synth/synthesize.hpp"
#include "redist/verify/checker.hpp"
#include "synth/checker_checks.hpp"
#include "synth/src/held_slices.hpp"
#include "synth/synthesis_checks.hpp"

namespace redist::testing {
namespace {

Plan plan_text(const char* text) { return parse_plan(text).value(); }

TEST(HeldSlices, TheSliceKeepsEveryHeldTargetBlock) {
  // {x:2, y:4}: f32[{x}16] -> f32[{y,x}16]. Device (x, y) holds half x and needs block
  // 2y+x of 8, inside its half where x = y:(1)2 (4 devices). Slicing {y} leaves block
  // 4x+y: 2 devices in place; slicing {y:(2)2, y:(1)2} leaves 4x + 2y:(2)2 + y:(1)2,
  // which is 2y+x on all 4.
  const Mesh mesh = parse_mesh("{x:2, y:4}").value();
  const DistType src = parse_type("f32[{x}16]", mesh).value(), dst = parse_type("f32[{y,x}16]", mesh).value();
  auto plan = synthesize(mesh, src, dst);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  ASSERT_EQ(plan->steps.size(), 2u) << to_string(*plan);
  EXPECT_EQ(to_string(plan->steps[0]), "all_slice(dim=0, axes={y:(2)2,y:(1)2})");
  EXPECT_EQ(to_string(plan->steps[1]), "collective_permute(to=f32[{y,x}16])");
  EXPECT_EQ(plan_problem(*plan, mesh, src, mesh, dst, local_bytes(src)), "");
  auto figures = plan_figures(*plan);
  ASSERT_TRUE(figures.ok());
  ASSERT_TRUE(figures->lower_bound.has_value());
  EXPECT_EQ(figures->lower_bound->total, 4 * 2 * 4);  // 4 devices lack their 2 elements
  EXPECT_EQ(figures->recv_bytes_total, figures->lower_bound->total);
  expect_proved_and_tight(*plan);
  // The slice the builders take ({y}) receives 1.5x as much.
  const Plan given = plan_text(
      "mesh {x:2, y:4}\nsource f32[{x}16]\nall_slice(dim=0, axes={y})\ncollective_permute(to=f32[{y,x}16])\n"
      "target f32[{y,x}16]\n");
  EXPECT_EQ(plan_figures(given)->recv_bytes_total, 6 * 2 * 4);
  auto held = synth_detail::held_slices(given);
  ASSERT_TRUE(held.has_value());
  EXPECT_EQ(*held, *plan);
  EXPECT_FALSE(synth_detail::held_slices(*held).has_value());  // already so
}

TEST(HeldSlices, SourceDigitsInTheTargetsRestAreReplacedByTheirEquals) {
  // {x:2, y:2, z:2}: f32[{x}8, 8] -> f32[{y}8, {x,z}8]. Dim 0 holds where x = y; dim 1's
  // target block 2x+z is 2y+z there, so the slice is {y,z} (x is taken by dim 0).
  const Plan given = plan_text(
      "mesh {x:2, y:2, z:2}\nsource f32[{x}8, 8]\nall_slice(dim=1, axes={z,y})\n"
      "collective_permute(to=f32[{y}8, {x,z}8])\ntarget f32[{y}8, {x,z}8]\n");
  auto held = synth_detail::held_slices(given);
  ASSERT_TRUE(held.has_value());
  ASSERT_EQ(held->steps.size(), 2u);
  EXPECT_EQ(to_string(held->steps[0]), "all_slice(dim=1, axes={y,z})");
  EXPECT_EQ(plan_figures(*held)->recv_bytes_total, plan_figures(*held)->lower_bound->total);
  EXPECT_GT(plan_figures(given)->recv_bytes_total, plan_figures(*held)->lower_bound->total);
  // Radices that do not line up (a source x:2 against a target's major y:3): no rewrite.
  EXPECT_FALSE(synth_detail::held_slices(plan_text(
                   "mesh {x:2, y:3}\nsource f32[{x}6]\nall_slice(dim=0, axes={y})\n"
                   "collective_permute(to=f32[{y,x}6])\ntarget f32[{y,x}6]\n"))
                   .has_value());
}

TEST(HeldSlices, NoRewriteAcrossADeviceOrderOrWithPadding) {
  EXPECT_FALSE(synth_detail::held_slices(plan_text(
                   "mesh {x:2, y:4}\nsource f32[{x}16]\nall_slice(dim=0, axes={y})\n"
                   "collective_permute(to=f32[{y,x}16], mesh={x:2, y:4} devices=[1,0,3,2,5,4,7,6])\n"
                   "target f32[{y,x}16]\n"))
                   .has_value());
  EXPECT_FALSE(synth_detail::held_slices(plan_text(
                   "mesh {x:2, y:4}\nsource f32[{x}15]\nall_slice(dim=0, axes={y})\n"
                   "collective_permute(to=f32[{y,x}15])\ntarget f32[{y,x}15]\n"))
                   .has_value());
}

TEST(HeldSlices, PairsThatAssumeEveryDeviceHoldsItsBlockAreRefuted) {
  // The tight plan with identity pairs: only the 4 devices with x = y:(1)2 (0, 1, 6, 7)
  // hold their block; device 2 ((0, 2): needs block 4, sliced block 1) does not.
  const Plan wrong = plan_text(
      "mesh {x:2, y:4}\nsource f32[{x}16]\nall_slice(dim=0, axes={y:(2)2,y:(1)2})\n"
      "collective_permute(to=f32[{y,x}16], pairs=[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5), (6, 6), (7, 7)])\n"
      "target f32[{y,x}16]\n");
  const auto ce = expect_refuted_and_confirmed(wrong);
  ASSERT_TRUE(ce.has_value());
  // The devices that hold their block are right; the counterexample is on another.
  EXPECT_TRUE(ce->device >= 2 && ce->device <= 5) << ce->device;
}

}  // namespace
}  // namespace redist::testing
