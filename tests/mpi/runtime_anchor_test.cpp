// The MPI runtime on every anchor whose mesh has as many devices as the job has ranks:
// our plan and the two baselines, every element on every rank compared; and on every
// case of tests/data/partial_sums.txt and tests/data/uneven.txt of this size (pending
// reductions, padded dims: our plan).

#include <gtest/gtest.h>

#include <algorithm>

#include "anchors.hpp"
#include "harness.hpp"
#include "redist/synth/baselines.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/synthesize.hpp"

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

/// Runs our plan of every case of the anchors-format file at `path` whose mesh has as
/// many devices as the job has ranks, every element compared; returns how many ran.
int run_cases_of_this_size(const char* path, const char* what) {
  auto cases = read_anchors(path);
  EXPECT_TRUE(cases.ok()) << cases.error().to_string();
  if (!cases.ok()) return 0;
  int ran = 0;
  for (const auto& c : *cases) {
    if (c.mesh.num_devices() != world_size()) continue;
    SCOPED_TRACE(c.name);
    auto plan = anchor_plan(c);
    EXPECT_TRUE(plan.ok()) << plan.error().to_string();
    if (!plan.ok()) continue;
    EXPECT_EQ(run_and_compare(*plan), "");
    ++ran;
  }
  if (world_rank() == 0) std::printf("ran %d %s cases on %d ranks\n", ran, what, world_size());
  return ran;
}

TEST(MpiRuntimeAnchors, EveryPartialSumCaseOfThisSize) {
  const int ran = run_cases_of_this_size(REDIST_PARTIAL_SUMS_FILE, "partial-sum");
  if (world_size() == 8) EXPECT_GT(ran, 0);
}

TEST(MpiRuntimeAnchors, EveryUnevenCaseOfThisSize) {
  EXPECT_GT(run_cases_of_this_size(REDIST_UNEVEN_FILE, "uneven"), 0);
}

// Reshards between meshes with other axes (docs/meshes.md): the plan on the common
// refinement runs over the ranks.
TEST(MpiRuntimeAnchors, EveryMeshChangeCaseOfThisSize) {
  const int ran = run_cases_of_this_size(REDIST_MESH_CHANGES_FILE, "mesh-change");
  if (world_size() == 8 || world_size() == 6) EXPECT_GT(ran, 0);
}

// The same axes in another device order (docs/meshes.md "Device orders"): 8 devices,
// one case 4.
TEST(MpiRuntimeAnchors, EveryDeviceOrderCaseOfThisSize) {
  const int ran = run_cases_of_this_size(REDIST_DEVICE_ORDERS_FILE, "device-order");
  if (world_size() == 8) EXPECT_GT(ran, 0);
}

// Reshards between other device sets (docs/meshes.md): one job over the union of the
// meshes' devices (rank = physical id), ranks outside a mesh without a shard.
TEST(MpiRuntimeAnchors, EveryDeviceSetCaseOfThisSize) {
  auto cases = read_anchors(REDIST_DEVICE_SETS_FILE);
  ASSERT_TRUE(cases.ok()) << cases.error().to_string();
  int ran = 0;
  for (const auto& c : *cases) {
    const int64_t ranks = std::max(c.mesh.device_ids().back(), c.target_mesh.device_ids().back()) + 1;
    if (ranks != world_size()) continue;
    SCOPED_TRACE(c.name);
    auto plan = anchor_plan(c);
    ASSERT_TRUE(plan.ok()) << plan.error().to_string();
    EXPECT_EQ(run_and_compare(*plan), "");
    ++ran;
  }
  if (world_rank() == 0) std::printf("ran %d device-set cases on %d ranks\n", ran, world_size());
  // Every case runs in one of the jobs: 16 need 8 ranks, overlapping_shifted 6, pending_sum_target 4.
  if (world_size() == 8) EXPECT_EQ(ran, 16);
  if (world_size() == 6 || world_size() == 4) EXPECT_EQ(ran, 1);
}

// Senders on the receiver's node (cost model transfer.node_size): the source is
// replicated over dp, one replica on each node of 4 ranks; every receiver reads from
// the replica on its own node, by an explicit table that the runtime follows.
TEST(MpiRuntimeAnchors, NodeAwareSendersRunOverTheRanks) {
  if (world_size() != 8) GTEST_SKIP() << "needs 8 ranks";
  const auto mesh = parse_mesh("{dp:2, fsdp:2} devices=[0,1,4,5]");
  const auto target_mesh = parse_mesh("{tp:4} devices=[2,3,6,7]");
  ASSERT_TRUE(mesh.ok() && target_mesh.ok());
  const auto src = parse_type("f32[{fsdp}8, 12]", *mesh);
  const auto dst = parse_type("f32[8, {tp}12]", *target_mesh);
  ASSERT_TRUE(src.ok() && dst.ok());
  CostModel model;
  model.transfer_node_size = 4;
  SynthOptions options;
  options.cost_model = &model;
  auto plan = synthesize(*mesh, *src, *target_mesh, *dst, options);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  const auto& transfer = std::get<Transfer>(plan->steps.at(0).op);
  ASSERT_TRUE(transfer.table.has_value());
  EXPECT_EQ(transfer.table->size(), 8u);  // 4 receivers x 2 row blocks
  for (const auto& box : *transfer.table) EXPECT_EQ(box.from / 4, box.to / 4) << box.from << " -> " << box.to;
  EXPECT_EQ(run_and_compare(*plan), "");
}

}  // namespace
}  // namespace redist::mpi::testing
