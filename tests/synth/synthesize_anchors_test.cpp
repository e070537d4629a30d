// Every anchor of tests/data/anchors.txt: divisible cases get a correct plan in normal
// form within max(source, target) bytes, with the shapes the anchors name; padded ones
// are rejected as unsupported (pending reductions: also synthesize_reduction_test.cpp).

#include <gtest/gtest.h>

#include "redist/synth/synthesize.hpp"
#include "synth/anchor_cases.hpp"
#include "synth/synthesis_checks.hpp"

namespace redist::testing {
namespace {

class Anchors : public ::testing::TestWithParam<AnchorCase> {};

TEST_P(Anchors, PlanIsCorrectBoundedAndInNormalForm) {
  const AnchorCase& c = GetParam();
  const Mesh mesh = parse_mesh(c.mesh).value();
  const Mesh target_mesh = c.target_mesh.empty() ? mesh : parse_mesh(c.target_mesh).value();
  const DistType src = parse_type(c.src, mesh).value();
  const DistType dst = parse_type(c.dst, target_mesh).value();
  auto plan = synthesize(mesh, src, target_mesh, dst);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_TRUE(is_valley(*plan)) << to_string(*plan);
  if (has_padding(src) || has_padding(dst)) {  // padded gathers send padding: no figure-by-element check
    const auto data = run_plan(*plan, distribute(mesh, src));
    ASSERT_TRUE(data.ok()) << data.error().to_string();
    EXPECT_FALSE(compare(target_mesh, dst, *data)) << to_string(*plan);
    return;
  }
  const BigInt bound = std::max(local_bytes(src), local_bytes(dst));
  EXPECT_EQ(plan_problem(*plan, mesh, src, target_mesh, dst, bound), "");
}

std::string anchor_name(const ::testing::TestParamInfo<AnchorCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(All, Anchors, ::testing::ValuesIn(anchors()), anchor_name);

/// The plan of the anchor named `name`.
Plan anchor_plan(const std::string& name) {
  for (const auto& c : anchors()) {
    if (c.name != name) continue;
    const Mesh mesh = parse_mesh(c.mesh).value();
    const Mesh target_mesh = c.target_mesh.empty() ? mesh : parse_mesh(c.target_mesh).value();
    return synthesize(mesh, parse_type(c.src, mesh).value(), target_mesh, parse_type(c.dst, target_mesh).value())
        .value();
  }
  ADD_FAILURE() << "no anchor " << name;
  return Plan{};
}

TEST(AnchorShapes, Jax21562FullRematIsAtMostTwoAllToAllsAndNoGather) {
  const Plan plan = anchor_plan("jax21562_full_remat");
  EXPECT_LE(count_steps<AllToAll>(plan), 2);
  EXPECT_EQ(count_steps<AllGather>(plan), 0);
  EXPECT_EQ(count_steps<CollectivePermute>(plan), 0);
}

TEST(AnchorShapes, PaperReorderInDimIsOnePermute) {
  const Plan plan = anchor_plan("paper_reorder_in_dim");
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(count_steps<CollectivePermute>(plan), 1);
}

TEST(AnchorShapes, TiledToTiledEvenIsOneAllToAll) {
  const Plan plan = anchor_plan("tiled_to_tiled_even");
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(count_steps<AllToAll>(plan), 1);
}

TEST(AnchorShapes, SwapDiffSizeAxesNeverExceedsTheSourceBytes) {
  const Plan plan = anchor_plan("swap_diff_size_axes");
  const auto f = plan_figures(plan).value();
  EXPECT_LE(f.peak_local_bytes, f.source_local_bytes);
  EXPECT_EQ(count_steps<AllGather>(plan), 0);
}

TEST(AnchorShapes, FourAxesTransposeStaysAtTheValleyBottom) {
  const Plan plan = anchor_plan("four_axes_transpose");
  EXPECT_EQ(plan_figures(plan).value().peak_local_bytes, 6 * 4);  // never the whole 144
}

TEST(AnchorShapes, SwapsAndRegroupsAreOnePermute) {
  for (const char* name : {"dtensor_s0s1_to_s1s0", "paper_swap_between_dims", "paper_regroup_axes"}) {
    const Plan plan = anchor_plan(name);
    EXPECT_EQ(plan.steps.size(), 1u) << name;
    EXPECT_EQ(count_steps<CollectivePermute>(plan), 1) << name;
  }
}

TEST(AnchorShapes, DtensorReplicationStaysBelowTheWholeArray) {
  const Plan plan = anchor_plan("dtensor_s0s0_to_rs0");
  EXPECT_LE(plan_figures(plan).value().peak_local_bytes, 8 * 4 * 4);  // the target shard, not 16x4
}

TEST(AnchorShapes, SubaxesNotCoexistingSliceThenGather) {
  const Plan plan = anchor_plan("subaxes_not_coexisting");
  EXPECT_EQ(plan.steps.size(), 2u);
  EXPECT_EQ(plan_figures(plan).value().peak_local_bytes, 3 * 2 * 4);  // the source
}

TEST(AnchorShapes, PodScaleFiguresAreExact) {
  const Plan plan = anchor_plan("pod_scale_transpose");
  const auto f = plan_figures(plan).value();
  EXPECT_EQ(f.peak_local_bytes, BigInt(4096) * 16384 * 2);  // the source shard, bf16
  ASSERT_TRUE(f.lower_bound.has_value());
  EXPECT_GE(f.recv_bytes_max, f.lower_bound->max);
}

}  // namespace
}  // namespace redist::testing
