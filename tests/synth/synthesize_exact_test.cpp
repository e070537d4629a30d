// Exact plans, step by step, for anchors whose best plan is known.

#include <gtest/gtest.h>

#include "redist/plan/plan_text.hpp"
#include "redist/synth/synthesize.hpp"

namespace redist::testing {
namespace {

/// The steps synthesize() gives, one line each.
std::vector<std::string> steps(const char* mesh_text, const char* src, const char* dst, const char* target_mesh = nullptr) {
  const Mesh mesh = parse_mesh(mesh_text).value();
  const Mesh tmesh = target_mesh ? parse_mesh(target_mesh).value() : mesh;
  auto plan = synthesize(mesh, parse_type(src, mesh).value(), tmesh, parse_type(dst, tmesh).value());
  EXPECT_TRUE(plan.ok()) << plan.error().to_string();
  std::vector<std::string> out;
  for (const auto& s : plan->steps) out.push_back(to_string(s));
  return out;
}

using Lines = std::vector<std::string>;

TEST(ExactPlans, Jax21562FullRematIsOneFusedAllToAllIntoDimOne) {
  EXPECT_EQ(steps("{x:4, y:2}", "f32[{y}16, 16, {x}16]", "f32[16, {x,y}16, 16]"),
            (Lines{"all_to_all(src=2, dst=1, axes={x}; src=0, dst=1, axes={y})"}));
}

TEST(ExactPlans, TiledToTiledEvenIsOneAllToAll) {
  EXPECT_EQ(steps("{x:8}", "f32[{x}16, 8]", "f32[16, {x}8]"), (Lines{"all_to_all(src=0, dst=1, axes={x})"}));
}

TEST(ExactPlans, SwapDiffSizeAxesMovesHalfOfXThenPermutes) {
  EXPECT_EQ(steps("{x:4, y:2}", "f32[{x}16, {y}8]", "f32[{y}16, {x}8]"),
            (Lines{"all_to_all(src=0, dst=1, axes={x:(2)2})", "collective_permute(to=f32[{y}16, {x}8])"}));
}

TEST(ExactPlans, PaperReorderInDimIsOnePermute) {
  EXPECT_EQ(steps("{x:4, y:4, z:16}", "f32[{x,y}512, 128]", "f32[{y,x}512, 128]"),
            (Lines{"collective_permute(to=f32[{y,x}512, 128])"}));
}

TEST(ExactPlans, SubaxesNotCoexistingCompletesTheAxisThenGathersTheOtherFactor) {
  EXPECT_EQ(steps("{x:6}", "f32[{x:(1)2}6, 2]", "f32[{x:(1)3}6, 2]"),
            (Lines{"all_slice(dim=0, axes={x:(2)3})", "all_gather(dim=0, axes={x:(3)2})"}));
}

TEST(ExactPlans, DeviceOrderChangePermutesAtTheSmallerSizeThenGathers) {
  EXPECT_EQ(steps("{x:2, y:2}", "f32[{x}8, {y}8]", "f32[{x}8, 8]", "{x:2, y:2} devices=[0,2,1,3]"),
            (Lines{"collective_permute(to=f32[{x}8, {y}8], mesh={x:2, y:2} devices=[0,2,1,3])",
                   "all_gather(dim=1, axes={y})"}));
}

TEST(ExactPlans, SliceThenOneFusedAllToAllWhereShardyRunsTwo) {
  EXPECT_EQ(steps("{x:4, y:2, z:4}", "f32[16, {y,z}8, 8]", "f32[{x,z}16, 8, {y}8]"),
            (Lines{"all_slice(dim=0, axes={x})", "all_to_all(src=1, dst=0, axes={z}; src=1, dst=2, axes={y})"}));
}

TEST(ExactPlans, EqualTypesNeedNoStep) {
  EXPECT_EQ(steps("{x:4, y:2}", "f32[{x}16, {y}8]", "f32[{x:(1)2,x:(2)2}16, {y}8]"), Lines{});
}

}  // namespace
}  // namespace redist::testing
