// The MPI runtime on every anchor whose mesh has as many devices as the job has ranks:
// our plan and the two baselines, every element on every rank compared; and on every
// case of tests/data/partial_sums.txt and tests/data/uneven.txt of this size (pending
// reductions, padded dims: our plan).

#include <gtest/gtest.h>

#include "anchors.hpp"
#include "harness.hpp"
#include "redist/synth/baselines.hpp"

namespace redist::mpi::testing {
namespace {

TEST(MpiRuntimeAnchors, EveryAnchorOfThisSize) {
  auto anchors = read_anchors(REDIST_ANCHORS_FILE);
  ASSERT_TRUE(anchors.ok()) << anchors.error().to_string();
  int ran = 0;
  for (const auto& anchor : *anchors) {
    if (anchor.mesh.num_devices() != world_size()) continue;
    SCOPED_TRACE(anchor.name);
    auto plan = anchor_plan(anchor);
    if (!plan) {
      if (world_rank() == 0) std::printf("skipped %s: %s\n", anchor.name.c_str(), plan.error().to_string().c_str());
      continue;
    }
    EXPECT_EQ(run_and_compare(*plan), "");
    for (Baseline b : {Baseline::gather_then_slice, Baseline::xla_style}) {
      auto baseline = baseline_plan(b, anchor.mesh, anchor.source, anchor.target_mesh, anchor.target);
      if (baseline) {
        EXPECT_EQ(run_and_compare(*baseline), "") << baseline_name(b);
      }
    }
    ++ran;
  }
  if (world_rank() == 0) std::printf("ran %d anchors on %d ranks\n", ran, world_size());
  EXPECT_GT(ran, 0);
}

TEST(MpiRuntimeAnchors, EveryPartialSumCaseOfThisSize) {
  auto cases = read_anchors(REDIST_PARTIAL_SUMS_FILE);
  ASSERT_TRUE(cases.ok()) << cases.error().to_string();
  int ran = 0;
  for (const auto& c : *cases) {
    if (c.mesh.num_devices() != world_size()) continue;
    SCOPED_TRACE(c.name);
    auto plan = anchor_plan(c);
    ASSERT_TRUE(plan.ok()) << plan.error().to_string();
    EXPECT_EQ(run_and_compare(*plan), "");
    ++ran;
  }
  if (world_rank() == 0) std::printf("ran %d partial-sum cases on %d ranks\n", ran, world_size());
  if (world_size() == 8) EXPECT_GT(ran, 0);
}

TEST(MpiRuntimeAnchors, EveryUnevenCaseOfThisSize) {
  auto cases = read_anchors(REDIST_UNEVEN_FILE);
  ASSERT_TRUE(cases.ok()) << cases.error().to_string();
  int ran = 0;
  for (const auto& c : *cases) {
    if (c.mesh.num_devices() != world_size()) continue;
    SCOPED_TRACE(c.name);
    auto plan = anchor_plan(c);
    ASSERT_TRUE(plan.ok()) << plan.error().to_string();
    EXPECT_EQ(run_and_compare(*plan), "");
    ++ran;
  }
  if (world_rank() == 0) std::printf("ran %d uneven cases on %d ranks\n", ran, world_size());
  EXPECT_GT(ran, 0);
}

}  // namespace
}  // namespace redist::mpi::testing
