// The sorted builder (synth/src/synth_sorted.cpp): every block of atoms moves to its
// target dim in whatever order it arrives, then one permute sorts each dim.

#include <gtest/gtest.h>

#include "redist/plan/plan_text.hpp"
#include "redist/synth/cost_model.hpp"
#include "synth/src/seeds.hpp"
#include "synth/src/synth_builders.hpp"
#include "synth/builder_pair.hpp"
#include "synth/model_times.hpp"

namespace redist::testing {
namespace {

// Returns the sorted plan's text from `src` to `dst` on `mesh` (over the factor-level
// atoms, as the seeds build it), or "none".
std::string sorted_text(const char* mesh, const char* src, const char* dst) {
  const BuilderPair p = builder_pair(mesh, src, dst, false);
  const auto moves = synth_detail::sorted_plan(p.problem, p.atoms.a, p.atoms.b);
  return moves ? to_string(synth_detail::to_plan(*moves, p.mesh, p.src, p.mesh, p.dst)) : "none";
}

// Harness case random21 of seed 777: z goes to dim 0 behind y, x to dim 1, and a permute
// swaps y and z in dim 0; its pairs differ on y and z only.
constexpr const char* kMesh = "{x:4, y:8, z:6}";
constexpr const char* kSrc = "f32[{y}1536, {z}192, 16, {x}32]";
constexpr const char* kDst = "f32[{z,y}1536, {x}192, 16, 32]";

TEST(SortedPlan, BlocksGoToTheirTargetDimsAndOnePermuteSortsThem) {
  EXPECT_EQ(sorted_text(kMesh, kSrc, kDst),
            "mesh {x:4, y:8, z:6}\nsource f32[{y}1536, {z}192, 16, {x}32]\nall_to_all(src=1, dst=0, axes={z})\n"
            "all_to_all(src=3, dst=1, axes={x})\ncollective_permute(to=f32[{z,y}1536, {x}192, 16, 32])\n"
            "target f32[{z,y}1536, {x}192, 16, 32]\n");
}

TEST(SortedPlan, TheDefaultCallReachesTheOptimumWithIt) {
  // x inter-node: the balanced seed exchanges prime atoms (z:(2)3, then x:(2)2 into dim 0
  // and x:(1)2 into dim 1) and its permute crosses x with the whole shard, 274.65 us; the
  // sorted plan crosses x once, in the 4-way exchange, 120.60 us, the optimum.
  const auto [time_us, optimal_us] = default_and_optimal_us(kMesh, kSrc, kDst, "x = inter\n");
  EXPECT_NEAR(time_us, 120.5957, 1e-3);
  EXPECT_NEAR(optimal_us, time_us, 1e-9 * time_us);
}

TEST(SortedPlan, ItSeedsOnlyUnderTwoLinkSpeeds) {
  // The sorted seed pays where a slow axis should cross its link once; under one speed
  // the builder does not run (its seed would add to the call's typing time).
  const BuilderPair p = builder_pair(kMesh, kSrc, kDst, false);
  const Mesh& mesh = p.mesh;
  auto has_sorted = [&](const synth_detail::SeedOptions& options) {
    for (const auto& plan : synth_detail::constructive_seeds(p.problem, mesh, p.src, mesh, p.dst, options))
      if (to_string(plan) == sorted_text(kMesh, kSrc, kDst)) return true;
    return false;
  };
  EXPECT_FALSE(has_sorted({}));
  const auto slow = synth_detail::slow_axes(parse_cost_model("x = inter\n").value(), mesh);
  EXPECT_EQ(slow, (std::vector<bool>{true, false, false}));
  EXPECT_TRUE(has_sorted({.slow_axes = slow}));
  EXPECT_FALSE(synth_detail::two_link_speeds(CostModel{}, mesh));
  EXPECT_TRUE(synth_detail::slow_axes(CostModel{}, mesh).empty());
  EXPECT_TRUE(synth_detail::two_link_speeds(parse_cost_model("x = inter\n").value(), mesh));
  EXPECT_FALSE(synth_detail::two_link_speeds(parse_cost_model("x = inter\ny = inter\nz = inter\n").value(), mesh));
  EXPECT_TRUE(synth_detail::slow_axes(parse_cost_model("x = inter\ny = inter\nz = inter\n").value(), mesh).empty());
}

TEST(SortedPlan, NoneWhereAnAtomThatLeavesIsUnderOneThatStays) {
  // x must leave dim 0 for dim 1, but y, which stays, is on top of it.
  EXPECT_EQ(sorted_text("{x:2, y:2}", "f32[{x,y}8, 8]", "f32[{y}8, {x}8]"), "none");
}

TEST(SortedPlan, ReplicatedAtomsAboveABlockTravelWithItAndAreGathered) {
  // w (the target leaves it replicated) sits on x in dim 1: the block {x,w} moves to dim
  // 0 behind y, the permute sorts dim 0 to {x,y} with w on top, and w is gathered.
  EXPECT_EQ(sorted_text("{x:2, y:2, w:2}", "f32[{y}8, {x,w}8]", "f32[{x,y}8, 8]"),
            "mesh {x:2, y:2, w:2}\nsource f32[{y}8, {x,w}8]\nall_to_all(src=1, dst=0, axes={x,w})\n"
            "collective_permute(to=f32[{x,y,w}8, 8])\nall_gather(dim=0, axes={w})\ntarget f32[{x,y}8, 8]\n");
}

TEST(SortedPlan, ReplicatedAtomsBelowABlockStay) {
  // w (replicated by the target) lies under x in dim 0: x alone moves to dim 1, where it
  // is in place, so no permute follows, and w is gathered from dim 0.
  EXPECT_EQ(sorted_text("{x:2, y:2, w:2}", "f32[{w,x}8, 8]", "f32[8, {x}8]"),
            "mesh {x:2, y:2, w:2}\nsource f32[{w,x}8, 8]\nall_to_all(src=0, dst=1, axes={x})\n"
            "all_gather(dim=0, axes={w})\ntarget f32[8, {x}8]\n");
}

}  // namespace
}  // namespace redist::testing
