// `redist plan` and `redist prove` between meshes with other axes (docs/meshes.md):
// the printed plan names the refinement and reads back, --json carries it, prove
// proves both rewrites, and bad meshes and pairs exit 2 with the position and reason.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "redist/plan/plan_text.hpp"
#include "redist/plan/typing.hpp"
#include "run_command.hpp"

namespace redist::testing {
namespace {

const std::string kPair =
    "--mesh '{a:2, b:4}' --target-mesh '{x:4, y:2}' 'f32[{a}8, {b}8]' 'f32[{y}8, {x}8]'";

TEST(MeshChangeCli, PlanNamesTheRefinementAndReadsBack) {
  const auto r = run_redist("plan " + kPair);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("# the meshes have other axes: planned on their common refinement {a:2, b_0:2, y:2}, "
                          "source type f32[{a}8, {b_0,y}8], target type f32[{y}8, {a,b_0}8]\n"
                          "#   a:2 = a (source) = x:(1)2 (target)\n"
                          "#   b_0:2 = b:(1)2 (source) = x:(2)2 (target)\n"
                          "#   y:2 = b:(2)2 (source) = y (target)\n"),
            std::string::npos)
      << r.output;
  auto plan = parse_plan(r.output);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string() << "\n" << r.output;
  EXPECT_EQ(to_string(plan->mesh), "{a:2, b_0:2, y:2}");
  ASSERT_TRUE(plan->target.has_value());
  EXPECT_EQ(to_string(*plan->target), "f32[{y}8, {a,b_0}8]");
  EXPECT_TRUE(type_plan(*plan).ok());
}

TEST(MeshChangeCli, BaselinesRunOnTheRefinementToo) {
  const auto r = run_redist("plan --baseline gather_then_slice " + kPair);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("# the meshes have other axes"), std::string::npos) << r.output;
  auto plan = parse_plan(r.output);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string() << "\n" << r.output;
  EXPECT_EQ(to_string(plan->mesh), "{a:2, b_0:2, y:2}");
  EXPECT_EQ(step_name(plan->steps.front().op), "all_gather");
}

TEST(MeshChangeCli, JsonCarriesTheRefinement) {
  const auto r = run_redist("plan --json " + kPair, "", true);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto j = nlohmann::json::parse(r.output);
  const auto& ref = j.at("refinement");
  EXPECT_EQ(ref.at("mesh"), "{a:2, b_0:2, y:2}");
  EXPECT_EQ(ref.at("target_mesh"), "{a:2, b_0:2, y:2}");
  EXPECT_EQ(ref.at("source"), "f32[{a}8, {b_0,y}8]");
  EXPECT_EQ(ref.at("target"), "f32[{y}8, {a,b_0}8]");
  ASSERT_EQ(ref.at("axes").size(), 3u);
  EXPECT_EQ(ref.at("axes")[1], (nlohmann::json{{"name", "b_0"}, {"size", 2}, {"source", "b:(1)2"}, {"target", "x:(2)2"}}));
  EXPECT_EQ(j.at("mesh").at("text"), "{a:2, b_0:2, y:2}");
}

TEST(MeshChangeCli, ProveProvesBothRewritesAndThePlan) {
  const auto r = run_redist("prove " + kPair);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("# rewrite of the source type: proved\n"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("# rewrite of the target type: proved\n"), std::string::npos) << r.output;
  const auto j = nlohmann::json::parse(run_redist("prove --json " + kPair, "", true).output);
  EXPECT_EQ(j.at("refinement").at("source_rewrite"), "proved");
  EXPECT_EQ(j.at("refinement").at("target_rewrite"), "proved");
  EXPECT_EQ(j.at("exit_code"), 0);
}

TEST(MeshChangeCli, DeviceOrderOfTheTargetIsPlanned) {
  const auto r = run_redist("prove --mesh '{d:8}' --target-mesh '{p:2, q:2, r:2} devices=[0,4,2,6,1,5,3,7]' "
                            "'f32[{d}16, 4]' 'f32[{r}16, {p}4]'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("collective_permute"), std::string::npos) << r.output;
}

// Other device sets (docs/meshes.md "Other device sets"): one transfer, printed in the
// plan text that reads back, proved.
TEST(MeshChangeCli, OtherDeviceSetsArePlannedAsOneTransfer) {
  const std::string pair = "--mesh '{x:4}' --target-mesh '{y:4} devices=[4,5,6,7]' 'f32[{x}8, 8]' 'f32[8, {y}8]'";
  const auto r = run_redist("plan " + pair);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("transfer(mesh={y:4} devices=[4,5,6,7], to=f32[8, {y}8])\n"), std::string::npos) << r.output;
  auto plan = parse_plan(r.output);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string() << "\n" << r.output;
  EXPECT_TRUE(type_plan(*plan).ok());
  const auto proved = run_redist("prove " + pair);
  EXPECT_EQ(proved.exit_code, 0) << proved.output;
  EXPECT_NE(proved.output.find("tight: every device receives exactly the target elements it lacks, once"),
            std::string::npos)
      << proved.output;
  const auto j = nlohmann::json::parse(run_redist("plan --json " + pair, "", true).output);
  ASSERT_EQ(j.at("steps").size(), 1u);
  EXPECT_EQ(j.at("steps")[0].at("sends").size(), 16u);  // 4 receivers x 4 row blocks
  EXPECT_EQ(j.at("steps")[0].at("sends")[0],
            (nlohmann::json{{"from", 0}, {"to", 4}, {"src_start", {0, 0}}, {"dst_start", {0, 0}}, {"extent", {2, 2}}}));
}

TEST(MeshChangeCli, ExplainAndEmitATransfer) {
  const auto r = run_redist(
      "explain --mesh '{x:2, r:2}' --target-mesh '{y:4} devices=[2,3,4,5]' 'f32[{x}8, 8]' 'f32[8, {y}8]'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("device 2 (x=1,r=0): holds [4:8, 0:8]; keeps [4:8, 0:2]; sends [4:8, 4:6] to 4; receives "
                          "[0:4, 0:2] from 0; now holds [0:8, 0:2] (y=0)\n"),
            std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("device 5: holds nothing (only in the new mesh); receives [0:4, 6:8] from 1, [4:8, 6:8] from "
                          "3; now holds [0:8, 6:8] (y=3)\n"),
            std::string::npos)
      << r.output;
  // HLO: one module over the union of the devices (run on XLA by the xla_device_sets
  // test), a reduction beside the transfer with the devices off its mesh grouped among
  // themselves.
  const auto hlo = run_redist(
      "emit --target hlo --mesh '{x:4}' --target-mesh '{y:4} devices=[4,5,6,7]' 'f32[{x}8]' 'f32[{y}8]'");
  EXPECT_EQ(hlo.exit_code, 0) << hlo.output;
  EXPECT_NE(hlo.output.find("num_partitions=8"), std::string::npos) << hlo.output;
  EXPECT_NE(hlo.output.find("collective-permute"), std::string::npos) << hlo.output;
  const auto reducing = run_redist("emit --target hlo --mesh '{x:2, r:2}' --target-mesh '{y:4} devices=[4,5,6,7]' "
                                   "'f32[{x}8] sum{r}' 'f32[{y}8]'");
  EXPECT_EQ(reducing.exit_code, 0) << reducing.output;
  EXPECT_NE(reducing.output.find("reduce-scatter(v1), channel_id=1, replica_groups={{0,1},{2,3},{4,5},{6,7}}"),
            std::string::npos)
      << reducing.output;
}

TEST(MeshChangeCli, StagedUnderTheCostModelThroughPlanProveAndEmit) {
  // A replicated target ({dp:2, tp:2}, f32[512, {tp}256]) under the default link
  // classes: half the bytes over the slow links between the meshes, then an all_gather
  // over dp on the target devices. Every verb that synthesizes takes the model.
  const std::string model = std::string(REDIST_SOURCE_DIR) + "/tests/data/device_sets.cost";
  const std::string pair =
      "--cost-model " + model +
      " --mesh '{x:4}' --target-mesh '{dp:2, tp:2} devices=[4,5,6,7]' 'f32[{x}512, 256]' 'f32[512, {tp}256]'";
  const auto r = run_redist("plan " + pair);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("transfer(mesh={dp:2, tp:2} devices=[4,5,6,7], to=f32[{dp}512, {tp}256])\n"
                          "#   -> f32[{dp}512, {tp}256]\nall_gather(dim=0, axes={dp})\n"),
            std::string::npos)
      << r.output;
  const auto proved = run_redist("prove " + pair);
  EXPECT_EQ(proved.exit_code, 0) << proved.output;
  EXPECT_NE(proved.output.find("all_gather(dim=0, axes={dp})"), std::string::npos) << proved.output;
  EXPECT_NE(proved.output.find("# VERIFIED"), std::string::npos) << proved.output;
  // HLO: the gather's groups over devices 4-7 and the idle partitions 0-3 among themselves.
  const auto hlo = run_redist("emit --target hlo " + pair);
  EXPECT_EQ(hlo.exit_code, 0) << hlo.output;
  EXPECT_NE(hlo.output.find("replica_groups={{4,6},{5,7},{0,1},{2,3}}, dimensions={0}"), std::string::npos)
      << hlo.output;
  // Idle partitions that groups of the gather's size cannot cover: MPI only.
  const auto uncovered = run_redist("emit --target hlo --cost-model " + model +
                                    " --mesh '{x:2}' --target-mesh '{y:2, r:3} devices=[2,3,4,5,6,7]' "
                                    "'f32[{x}384, 256]' 'f32[{y}384, 256]'");
  EXPECT_EQ(uncovered.exit_code, 2) << uncovered.output;
  EXPECT_NE(uncovered.output.find("the all_gather's groups of 3 on {y:2, r:3} devices=[2,3,4,5,6,7] leave a number of "
                                  "the 8 partitions out that groups of 3 cannot cover: use the MPI backend"),
            std::string::npos)
      << uncovered.output;
  // Without the model plans are ranked by bytes: one transfer (the same bytes, one step).
  const auto direct = run_redist("plan --mesh '{x:4}' --target-mesh '{dp:2, tp:2} devices=[4,5,6,7]' "
                                 "'f32[{x}512, 256]' 'f32[512, {tp}256]'");
  EXPECT_EQ(direct.exit_code, 0) << direct.output;
  EXPECT_EQ(direct.output.find("all_gather"), std::string::npos) << direct.output;
  // The model may name the target's axes (dp on the slow links: the gather would cross
  // them too, so one transfer); an axis of neither mesh is refused.
  const std::string reshard =
      " --mesh '{x:4}' --target-mesh '{dp:2, tp:2} devices=[4,5,6,7]' 'f32[{x}512, 256]' 'f32[512, {tp}256]'";
  const auto slow_dp = run_redist("plan --cost-model -" + reshard, "dp = inter\n");
  EXPECT_EQ(slow_dp.exit_code, 0) << slow_dp.output;
  EXPECT_EQ(slow_dp.output.find("all_gather"), std::string::npos) << slow_dp.output;
  const auto unknown = run_redist("emit --target mpi --cost-model -" + reshard, "q = inter\n");
  EXPECT_EQ(unknown.exit_code, 2) << unknown.output;
  EXPECT_NE(unknown.output.find("the cost model names axis 'q', which neither the mesh {x:4} nor the target mesh "
                                "{dp:2, tp:2} devices=[4,5,6,7] has"),
            std::string::npos)
      << unknown.output;
  const auto with_plan = run_redist("emit --target mpi --cost-model " + model + " --plan -", "mesh {x:2}\nsource f32[{x}4]\n");
  EXPECT_EQ(with_plan.exit_code, 2) << with_plan.output;
  EXPECT_NE(with_plan.output.find("--cost-model applies to synthesis; a --plan file is emitted as given"),
            std::string::npos)
      << with_plan.output;
}

struct Bad {
  std::string args, message;
};

void PrintTo(const Bad& b, std::ostream* os) { *os << b.args; }

class MeshChangeCliBad : public ::testing::TestWithParam<Bad> {};

TEST_P(MeshChangeCliBad, ExitsTwoWithTheReason) {
  const auto r = run_redist("plan " + GetParam().args);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(GetParam().message), std::string::npos) << r.output;
}

INSTANTIATE_TEST_SUITE_P(
    Catalog, MeshChangeCliBad,
    ::testing::Values(
        Bad{"--mesh '{x:4}' --target-mesh '{y:4} devices=[4,5,6,4]' 'f32[{x}8]' 'f32[{y}8]'",
            "error in --target-mesh at column 22: device id 4 appears twice"},
        Bad{"--mesh '{x:4}' --target-mesh '{y:2} devices=[4,-5]' 'f32[{x}8]' 'f32[{y}8]'",
            "error in --target-mesh at column 18: a device id must not be negative"},
        Bad{"--mesh '{x:4} devices=[4,5,6]' 'f32[{x}8]' 'f32[8]'",
            "error in --mesh at column 7: devices=[...] lists 3 devices but the mesh has 4"},
        Bad{"--mesh '{a:2, b:4}' --target-mesh '{x:4, y:2}' 'f32[{a}8]' 'bf16[{x}8]'",
            "the element types differ: f32 and bf16"},
        Bad{"--mesh '{a:2, b:4}' --target-mesh '{x:4, y:2}' 'f32[{a}8]' 'f32[{x}16]'", "different global shapes"},
        Bad{"--mesh '{x:4}' --target-mesh '{u:4} devices=[4,5,6,7]' 'f32[{x}8]' 'bf16[{u}8]'",
            "the element types differ: f32 and bf16"},
        Bad{"--mesh '{x:4}' --target-mesh '{u:2, v:4}' 'f32[{x}8]' 'f32[{u}16]'", "different global shapes"},
        Bad{"--mesh '{x:2, y:3}' --target-mesh '{u:3, v:2}' 'f32[{x}6]' 'f32[{u}6]'",
            "no common refinement"}),
    [](const auto& info) { return "case" + std::to_string(info.index); });

}  // namespace
}  // namespace redist::testing
