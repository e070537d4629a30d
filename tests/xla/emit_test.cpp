// The HLO/StableHLO emitters' text: groups as partition ids in group order, channel ids,
// the manual-region wrapping, the all-to-all decomposition and permute rounds. Whether
// the modules compute the right thing is checked by running them on XLA (run.sh).

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>

#include "redist/backends/hlo/emit.hpp"
#include "redist/plan/plan_text.hpp"

namespace redist::hlo {
namespace {

Plan plan_of(const std::string& text) {
  auto plan = parse_plan(text);
  EXPECT_TRUE(plan.ok()) << plan.error().to_string();
  return plan.ok() ? *plan : Plan{};
}

std::string stablehlo(const std::string& plan_text) {
  auto out = emit_stablehlo(plan_of(plan_text));
  EXPECT_TRUE(out.ok()) << out.error().to_string();
  return out.ok() ? *out : "";
}

std::string hlo(const std::string& plan_text) {
  auto out = emit_hlo(plan_of(plan_text));
  EXPECT_TRUE(out.ok()) << out.error().to_string();
  return out.ok() ? *out : "";
}

int count(const std::string& text, const std::string& what) {
  int n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

const char* kGather =
    "mesh {x:4, y:2}\nsource f32[{x}16, {y}8]\nall_gather(dim=1, axes={y})\n";

TEST(EmitStablehlo, WrapsTheBodyInAManualRegionLikeShardMap) {
  const std::string text = stablehlo(kGather);
  EXPECT_NE(text.find("mhlo.num_partitions = 8 : i32, mhlo.num_replicas = 1 : i32"), std::string::npos);
  EXPECT_NE(text.find("%arg0: tensor<16x8xf32> {mhlo.sharding = \"{devices=[4,2]0,1,2,3,4,5,6,7}\"}"),
            std::string::npos);
  EXPECT_NE(text.find("tensor<16x8xf32> {mhlo.sharding = \"{devices=[4,1,2]0,1,2,3,4,5,6,7 "
                      "last_tile_dim_replicate}\"}"),
            std::string::npos);
  const auto sharding = text.find("@Sharding(%arg0)");
  const auto to_shard = text.find("@SPMDFullToShardShape");
  const auto gather = text.find("stablehlo.all_gather");
  const auto to_full = text.find("@SPMDShardToFullShape");
  ASSERT_NE(to_full, std::string::npos);
  EXPECT_LT(sharding, to_shard);
  EXPECT_LT(to_shard, gather);
  EXPECT_LT(gather, to_full);
}

TEST(EmitStablehlo, GathersOverPartitionIdsWithAChannelAndGlobalIds) {
  const std::string text = stablehlo(kGather);
  EXPECT_NE(text.find("all_gather_dim = 1 : i64, channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>, "
                      "replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]> : tensor<4x2xi64>, "
                      "use_global_device_ids"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("(tensor<4x4xf32>) -> tensor<4x8xf32>"), std::string::npos);
}

TEST(EmitHlo, GroupsAreMixedRadixWithTheFirstAxisMajor) {
  const std::string text =
      hlo("mesh {x:2, y:4}\nsource bf16[{y,x}32, 2]\nall_gather(dim=0, axes={y,x})\n");
  // Group over (y, x): member index = y * 2 + x, position = x * 4 + y.
  EXPECT_NE(text.find("replica_groups={{0,4,1,5,2,6,3,7}}, dimensions={0}, use_global_device_ids=true"),
            std::string::npos)
      << text;
}

TEST(EmitHlo, AnExplicitDeviceOrderMapsGroupsAndShardingsToPhysicalIds) {
  const std::string text =
      hlo("mesh {x:2, y:2} devices=[3,2,1,0]\nsource f32[{x}4, {y}4]\nall_gather(dim=1, axes={y})\n");
  EXPECT_NE(text.find("replica_groups={{3,2},{1,0}}"), std::string::npos) << text;
  EXPECT_NE(text.find("sharding={devices=[2,2]3,2,1,0}"), std::string::npos) << text;
}

TEST(EmitHlo, AnAllToAllBetweenTwoDimsIsReshapeAllToAllTransposeReshape) {
  const std::string text =
      hlo("mesh {x:4, y:2}\nsource f32[{x}16, {y}8]\nall_to_all(src=0, dst=1, axes={x})\n");
  // Split dim 1 (local 4) into [4, 1], exchange the chunk dim, put it major of dim 0.
  EXPECT_NE(text.find("f32[4,4,1] reshape(v1)"), std::string::npos) << text;
  EXPECT_NE(text.find("f32[4,4,1] all-to-all(v2), channel_id=1, replica_groups={{0,2,4,6},{1,3,5,7}}, "
                      "dimensions={1}"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("f32[4,4,1] transpose(v3), dimensions={1,0,2}"), std::string::npos) << text;
  EXPECT_NE(text.find("f32[16,1] reshape(v4)"), std::string::npos) << text;
}

TEST(EmitHlo, EveryCollectiveHasItsOwnChannel) {
  const std::string text = hlo(
      "mesh {x:2, y:2, z:2}\nsource f32[16, 16] sum{x}\nreduce_scatter(dim=0, axes={x})\n"
      "all_slice(dim=1, axes={y})\nall_gather(dim=0, axes={x})\nall_gather(dim=1, axes={y})\n");
  std::set<std::string> channels;
  const std::regex channel("channel_id=(\\d+)");
  for (auto it = std::sregex_iterator(text.begin(), text.end(), channel); it != std::sregex_iterator(); ++it)
    EXPECT_TRUE(channels.insert((*it)[1]).second) << "channel " << (*it)[1] << " used twice";
  EXPECT_EQ(channels.size(), 3u);
}

TEST(EmitHlo, APendingReductionIsALeadingSummandDimReducedByItsOp) {
  const std::string text =
      hlo("mesh {x:2, y:4}\nsource f32[{y}16, 8] max{x}\nall_reduce(axes={x})\n");
  EXPECT_NE(text.find("param = f32[2,16,8] parameter(0), sharding={devices=[2,4,1]0,1,2,3,4,5,6,7}"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("ROOT out = f32[] maximum(lhs, rhs)"), std::string::npos) << text;
  EXPECT_NE(text.find("all-reduce(v2), channel_id=1, replica_groups={{0,4},{1,5},{2,6},{3,7}}, "
                      "use_global_device_ids=true, to_apply=max.f32"),
            std::string::npos)
      << text;
}

TEST(EmitHlo, ASliceLooksUpItsOffsetByPartitionId) {
  const std::string text = hlo("mesh {x:4}\nsource f32[16]\nall_slice(dim=0, axes={x})\n");
  EXPECT_NE(text.find("u32[] partition-id()"), std::string::npos) << text;
  EXPECT_NE(text.find("s32[4] constant({0, 4, 8, 12})"), std::string::npos) << text;
  EXPECT_NE(text.find("dynamic_slice_sizes={4}"), std::string::npos) << text;
}

TEST(EmitHlo, PaddedChunksArePaddedBeforeTheyAreCutAndTheirTailDropped) {
  // 5 rows sliced in 4 (offsets 0, 2, 4, 6 of chunk 2): padded to 8 first, since XLA
  // clamps a dynamic-slice's start.
  const std::string slice = hlo("mesh {x:4}\nsource f32[5, 3]\nall_slice(dim=0, axes={x})\n");
  EXPECT_NE(slice.find("f32[8,3] pad("), std::string::npos) << slice;
  EXPECT_NE(slice.find("padding=0_3x0_0"), std::string::npos) << slice;
  EXPECT_NE(slice.find("dynamic_slice_sizes={2,3}"), std::string::npos) << slice;
  // An all_to_all into a padded dim pads it to 4 chunks of 2; out of one it keeps 5 rows.
  const std::string into = hlo("mesh {x:4}\nsource f32[{x}8, 5]\nall_to_all(src=0, dst=1, axes={x})\n");
  EXPECT_NE(into.find("f32[2,8] pad("), std::string::npos) << into;
  const std::string out = hlo("mesh {x:4}\nsource f32[{x}5, 8]\nall_to_all(src=0, dst=1, axes={x})\n");
  EXPECT_EQ(count(out, " pad("), 0) << out;
  EXPECT_NE(out.find("dynamic_slice_sizes={5,2}"), std::string::npos) << out;
  const std::string mlir = stablehlo("mesh {x:4}\nsource f32[5, 3]\nall_slice(dim=0, axes={x})\n");
  EXPECT_NE(mlir.find("stablehlo.pad"), std::string::npos) << mlir;
  EXPECT_NE(mlir.find("high = [3, 0]"), std::string::npos) << mlir;
}

TEST(EmitHlo, APermuteWhoseSourcesServeTwoTargetsRunsInRounds) {
  // Derived pairs are a bijection: one collective-permute.
  EXPECT_EQ(count(hlo("mesh {x:2, y:2}\nsource f32[{x}8, 3]\ncollective_permute(to=f32[{y}8, 3])\n"),
                  "collective-permute("),
            1);
  // Imported pairs in which devices 0 and 3 each serve two targets run in two rounds.
  const std::string text = hlo(
      "mesh {x:2, y:2}\nsource f32[{x}8, 3]\n"
      "collective_permute(to=f32[{y}8, 3], pairs=[(0, 0), (3, 1), (0, 2), (3, 3)])\n");
  EXPECT_EQ(count(text, "collective-permute("), 2) << text;
  for (const std::regex pairs("source_target_pairs=\\{([^ ]*)\\}"); const auto& m :
       std::vector<std::smatch>(std::sregex_iterator(text.begin(), text.end(), pairs), std::sregex_iterator())) {
    std::set<std::string> sources;
    const std::string list = m[1];
    const std::regex pair("\\{(\\d+),(\\d+)\\}");
    for (auto it = std::sregex_iterator(list.begin(), list.end(), pair); it != std::sregex_iterator(); ++it)
      EXPECT_TRUE(sources.insert((*it)[1]).second) << "source " << (*it)[1] << " sends twice in " << list;
  }
  EXPECT_NE(text.find("concatenate("), std::string::npos);
}

TEST(EmitHlo, AGroupOfOneDeviceEmitsNoCollective) {
  const std::string text = hlo("mesh {x:1, y:2}\nsource f32[{x}4, {y}4]\nall_gather(dim=0, axes={x})\n");
  EXPECT_EQ(count(text, "all-gather"), 0) << text;
}

TEST(Emit, AnIllTypedPlanIsAnError) {
  Plan plan = plan_of("mesh {x:4, y:2}\nsource f32[{x}16, {y}8]\n");
  plan.steps.push_back(Step{AllGather{1, {AxisRef{"x", 1, 4}}}, std::nullopt, std::nullopt});
  EXPECT_FALSE(emit_stablehlo(plan).ok());
  EXPECT_FALSE(emit_hlo(plan).ok());
}

}  // namespace
}  // namespace redist::hlo
