// `redist plan`: the printed plan reads back with parse_plan and ends at the target,
// --json has exactly the documented keys, and the exit statuses.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "redist/plan/plan_text.hpp"
#include "redist/plan/typing.hpp"
#include "tools/run_command.hpp"

namespace redist::testing {
namespace {

const char* kSwap = "plan --mesh '{x:4, y:2}' 'f32[{x}16, {y}8]' 'f32[{y}16, {x}8]'";

TEST(PlanCommand, PrintsAPlanThatReadsBack) {
  const auto r = run_redist(kSwap);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto plan = parse_plan(r.output);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string() << "\n" << r.output;
  ASSERT_TRUE(plan->target.has_value());
  EXPECT_TRUE(type_plan(*plan).ok());
  EXPECT_NE(r.output.find("#   -> f32[{y}16, {x}8]"), std::string::npos) << r.output;  // type after a step
  EXPECT_NE(r.output.find("|####"), std::string::npos) << r.output;                     // memory bars
}

TEST(PlanCommand, AcrossDeviceOrders) {
  const auto r = run_redist("plan --mesh '{x:2, y:2}' --target-mesh '{x:2, y:2} devices=[0,2,1,3]' "
                            "'f32[{x}8, {y}8]' 'f32[{x}8, 8]'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  auto plan = parse_plan(r.output);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_TRUE(type_plan(*plan).ok());
}

TEST(PlanCommand, JsonHasExactlyTheDocumentedKeys) {
  const auto r = run_redist(std::string(kSwap) + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = nlohmann::json::parse(r.output);
  std::set<std::string> keys;
  for (const auto& [k, v] : json.items()) keys.insert(k);
  // docs/cli.md "JSON": the common header, the meshes and `verified` besides the plan.
  EXPECT_EQ(keys, (std::set<std::string>{"schema_version", "command", "exit_code", "mesh", "target_mesh", "source",
                                          "target", "steps", "peak_local_bytes", "bound_bytes", "recv_bytes_max",
                                          "recv_bytes_total", "lower_bound_bytes_max", "lower_bound_bytes_total",
                                          "verified", "modeled_time_us"}));
  EXPECT_GT(json["modeled_time_us"].get<double>(), 0.0);
  ASSERT_FALSE(json["steps"].empty());
  for (const auto& step : json["steps"]) {
    std::set<std::string> step_keys;
    for (const auto& [k, v] : step.items()) step_keys.insert(k);
    EXPECT_EQ(step_keys, (std::set<std::string>{"op", "reduce_op", "text", "type_after", "local_bytes_after",
                                                 "send_bytes_max", "recv_bytes_max", "group_size", "group_axes",
                                                 "groups", "pairs"}));
    EXPECT_TRUE(step["local_bytes_after"].is_string());
    EXPECT_TRUE(step["reduce_op"].is_null());
  }
  EXPECT_EQ(json["peak_local_bytes"], "64");
  EXPECT_EQ(json["bound_bytes"], "64");
  EXPECT_EQ(json["source"], "f32[{x}16, {y}8]");
  EXPECT_EQ(json["target"], "f32[{y}16, {x}8]");
}

TEST(PlanCommand, JsonNamesTheReductionOperator) {
  const auto r = run_redist("plan --mesh '{x:2, y:4}' 's32[8, 16] max{y}' 's32[8, {y}16]' --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = nlohmann::json::parse(r.output);
  int reducing = 0;
  for (const auto& step : json["steps"]) {
    if (step["op"] != "reduce_scatter" && step["op"] != "all_reduce") {
      EXPECT_TRUE(step["reduce_op"].is_null());
      continue;
    }
    EXPECT_EQ(step["reduce_op"], "max");
    ++reducing;
  }
  EXPECT_EQ(reducing, 1);
}

TEST(PlanCommand, ReplicateToPartialIsOneAddPendingNamedInJson) {
  const auto r = run_redist(
      "plan --mesh '{dp:2, tp:4}' 'bf16[{dp}8, 2048, 1024]' 'bf16[{dp}8, 2048, 1024] sum{tp}' --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto json = nlohmann::json::parse(r.output);
  ASSERT_EQ(json["steps"].size(), 1u) << r.output;
  const auto& step = json["steps"][0];
  EXPECT_EQ(step["op"], "add_pending");
  EXPECT_EQ(step["reduce_op"], "sum");
  EXPECT_EQ(step["text"], "add_pending(axes={tp}, op=sum)");
  EXPECT_EQ(step["type_after"], "bf16[{dp}8, 2048, 1024] sum{tp}");
  EXPECT_EQ(step["recv_bytes_max"], "0");
  EXPECT_EQ(json["recv_bytes_max"], "0");
  EXPECT_EQ(json["lower_bound_bytes_max"], "0");
  const auto moved = run_redist("plan --mesh '{dp:2, tp:4}' 'f32[{tp}8, 16]' 'f32[8, {tp}16] max{dp}' --json");
  ASSERT_EQ(moved.exit_code, 0) << moved.output;
  const auto two = nlohmann::json::parse(moved.output);
  ASSERT_EQ(two["steps"].size(), 2u) << moved.output;
  EXPECT_EQ(two["steps"][0]["reduce_op"], "max");
  EXPECT_EQ(two["steps"][1]["op"], "all_to_all");
  EXPECT_TRUE(two["steps"][1]["reduce_op"].is_null());
}

TEST(PlanCommand, BadReductionsExitTwoWithColumnAndReason) {
  // A pending reduction added over an axis a source dim uses (not Replicate -> Partial).
  auto added = run_redist("plan --mesh '{x:2, y:2}' 'f32[{y}8] sum{x}' 'f32[8] sum{x,y}'");
  EXPECT_EQ(added.exit_code, 2);
  EXPECT_EQ(added.output,
            "redist: error in DST at column 14: the target adds a pending sum over y, but dim 0 of the source is "
            "tiled over y; only axes the source replicates can become pending\n"
            "  f32[8] sum{x,y}\n"
            "               ^\n");
  auto changed = run_redist("plan --mesh '{x:2, y:2}' 'f32[8] sum{x}' 'f32[8] max{x}'");
  EXPECT_EQ(changed.exit_code, 2);
  EXPECT_NE(changed.output.find("error in DST at column 8: the reduction op changes from sum to max"), std::string::npos)
      << changed.output;
  auto overlap = run_redist("plan --mesh '{x:2, y:2}' 'f32[{x}8] sum{x}' 'f32[8]'");
  EXPECT_EQ(overlap.exit_code, 2);
  EXPECT_NE(overlap.output.find("error in SRC at column 15: axis 'x' is used twice"), std::string::npos)
      << overlap.output;
  auto unknown = run_redist("plan --mesh '{x:2, y:2}' 'f32[8] sum{q}' 'f32[8]'");
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.output.find("error in SRC at column 12: unknown axis 'q'"), std::string::npos) << unknown.output;
  auto mixed = run_redist("plan --mesh '{x:2, y:2}' 'f32[8] sum{x} max{y}' 'f32[8]'");
  EXPECT_EQ(mixed.exit_code, 2);
  EXPECT_NE(mixed.output.find("error in SRC at column 15"), std::string::npos) << mixed.output;
}

TEST(PlanCommand, BaselinesPrintTheirPlans) {
  const auto r = run_redist(std::string(kSwap) + " --baseline gather_then_slice");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("all_gather"), std::string::npos);
  EXPECT_TRUE(parse_plan(r.output).ok());
}

TEST(PlanCommand, BadInputExitsTwoWithThePosition) {
  const auto r = run_redist("plan --mesh '{x:4, y:2}' 'f32[{x}16, {z}8]' 'f32[{y}16, {x}8]'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("column 13"), std::string::npos) << r.output;
  EXPECT_EQ(run_redist("plan --mesh '{x:4' 'f32[16]' 'f32[16]'").exit_code, 2);
  EXPECT_EQ(run_redist(std::string(kSwap) + " --budget 12x").exit_code, 2);
  EXPECT_EQ(run_redist(std::string(kSwap) + " --baseline nope").exit_code, 2);
  const auto zero = run_redist("plan --mesh '{x:4}' 'f32[0, 8]' 'f32[{x}0, 8]'");  // a zero-size dim
  EXPECT_EQ(zero.exit_code, 2);
  EXPECT_NE(zero.output.find("column"), std::string::npos) << zero.output;
}

TEST(PlanCommand, UnevenDimsArePlanned) {
  const auto slice = run_redist("plan --mesh '{x:4}' 'f32[5, 10]' 'f32[{x}5, 10]'");
  ASSERT_EQ(slice.exit_code, 0) << slice.output;
  EXPECT_NE(slice.output.find("all_slice(dim=0, axes={x})"), std::string::npos) << slice.output;
  // {x}5 on x:2 and {x,y}5 do not nest: only a whole copy of dim 0 moves it (exit 3 within
  // max(source, target), planned with a budget for it).
  const auto refused = run_redist("plan --mesh '{x:2, y:2}' 'f32[{x}5]' 'f32[{x,y}5]'");
  EXPECT_EQ(refused.exit_code, 3);
  EXPECT_NE(refused.output.find("dim 0 of"), std::string::npos) << refused.output;
  EXPECT_EQ(run_redist("plan --mesh '{x:2, y:2}' 'f32[{x}5]' 'f32[{x,y}5]' --budget 20").exit_code, 0);
}

TEST(PlanCommand, NoPlanWithinTheBudgetExitsThree) {
  EXPECT_EQ(run_redist(std::string(kSwap) + " --budget 63").exit_code, 3);
  EXPECT_EQ(run_redist(std::string(kSwap) + " --budget 64").exit_code, 0);
  EXPECT_EQ(run_redist(std::string(kSwap) + " --baseline gather_then_slice --budget 64").exit_code, 3);
}

/// A file the test writes, removed when it goes out of scope.
struct TempFile {
  std::string path;
  explicit TempFile(std::string name) : path(std::move(name)) {}
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() { std::remove(path.c_str()); }
};

// Returns a cost-model file where x crosses nodes and y stays within a node
// (docs/cost_model.md). One file per process: tests run in parallel, and a shared file
// could be read while another test truncates it to write it again.
TempFile two_class_cost_model() {
  const std::string path = ::testing::TempDir() + "redist_cli_cost_model_" + std::to_string(getpid()) + ".txt";
  std::ofstream(path) << "# x crosses nodes\nx = inter\ny = intra\n";
  return TempFile{path};
}

struct PlannedSteps {
  std::vector<std::string> steps;
  double modeled_time_us = 0;
  std::string peak;
};

PlannedSteps plan_json(const std::string& args) {
  const auto r = run_redist("plan " + args + " --json");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  if (r.exit_code != 0) return {};
  const auto json = nlohmann::json::parse(r.output);
  PlannedSteps out{{}, json["modeled_time_us"].get<double>(), json["peak_local_bytes"]};
  for (const auto& step : json["steps"]) out.steps.push_back(step["text"]);
  return out;
}

// Gathering over {x,y} at once pays x's inter-node rate on every byte; moving y out of
// the way first lets only a quarter of the array cross x. The optimal search finds it,
// and the default plan too (its seeds' gathers are split by link class:
// synth/src/split_by_class.hpp).
TEST(PlanCommand, DefaultAndOptimalGatherTheInterNodeAxisWhileTheBufferIsSmall) {
  const TempFile model = two_class_cost_model();
  const std::string gather = "--mesh '{x:4, y:4}' 'f32[{x,y}1024, 64]' 'f32[1024, 64]' --cost-model " + model.path;
  const auto greedy = plan_json(gather);
  const auto optimal = plan_json(gather + " --optimal");
  const std::vector<std::string> split{"all_to_all(src=0, dst=1, axes={y})", "all_gather(dim=0, axes={x})",
                                       "all_gather(dim=1, axes={y})"};
  EXPECT_EQ(greedy.steps, split);
  EXPECT_EQ(optimal.steps, split);
  // 1 + 5 + 1 us and the three steps' bytes at their own rates; one gather over {x,y}
  // would take 5 us + (15/16) * 256 KiB at 25 GB/s = 14.8 us.
  const double expected =
      (1 + 3.0 / 4 * 16384 / 300e3) + (5 + 3.0 / 4 * 65536 / 25e3) + (1 + 3.0 / 4 * 262144 / 300e3);
  EXPECT_NEAR(greedy.modeled_time_us, expected, 1e-3);
  EXPECT_NEAR(optimal.modeled_time_us, expected, 1e-3);
  EXPECT_EQ(greedy.peak, "262144");
  EXPECT_EQ(optimal.peak, "262144");

  const auto text = run_redist("plan " + gather + " --optimal");
  ASSERT_EQ(text.exit_code, 0) << text.output;
  EXPECT_NE(text.output.find("# redist plan (optimal under the cost model): 3 steps"), std::string::npos)
      << text.output;
  auto plan = parse_plan(text.output);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_TRUE(type_plan(*plan).ok());
}

// The seed runs an all_to_all over the inter-node x and then a permute that crosses x
// too; permuting first and exchanging over the intra-node z pays the inter-node latency
// once. The optimal search finds that plan, and the default plan is it as well (the
// engine's permutes_first rewrite; before it the default was 10.93 us).
TEST(PlanCommand, DefaultAndOptimalPermuteFirstUnderTheCostModel) {
  const TempFile model = two_class_cost_model();
  const std::string pair = "--mesh '{x:2, y:4, z:2}' 'bf16[{y:(2)2}18, {z}24, {y:(1)2}24, {x}12]' "
                           "'bf16[{x}18, {y:(1)2,z}24, {y:(2)2}24, 12]' --cost-model " +
                           model.path;
  const auto greedy = plan_json(pair);
  const auto optimal = plan_json(pair + " --optimal");
  const std::vector<std::string> permute_first{"collective_permute(to=bf16[{x}18, {y:(1)2}24, {y:(2)2}24, {z}12])",
                                               "all_to_all(src=3, dst=1, axes={z})"};
  EXPECT_EQ(greedy.steps, permute_first);
  EXPECT_EQ(optimal.steps, permute_first);
  // 15,552 bytes per device: a permute sends all of it, an all_to_all of 2 half.
  const double expected = (5 + 15552 / 25e3) + (1 + 0.5 * 15552 / 300e3);
  EXPECT_NEAR(greedy.modeled_time_us, expected, 1e-6);
  EXPECT_NEAR(optimal.modeled_time_us, expected, 1e-6);
  EXPECT_EQ(greedy.peak, "15552");
  EXPECT_EQ(optimal.peak, "15552");
}

// The constructive plans exchange y, then x and z:(1)2, and gather z:(1)2; a search of
// 100 states from them finds a slice of the free z:(2)2, one permute and a gather, the
// optimal plan. Without it the default plan stays the seed.
TEST(PlanCommand, SearchFindsACheaperPlanThanTheSeeds) {
  const std::string pair =
      "--mesh '{x:2, y:2, z:4}' 'bf16[{y}32, 48, 128, {x,z:(1)2}192]' 'bf16[{x}32, 48, {y}128, 192]'";
  const auto seed = plan_json(pair);
  const auto searched = plan_json(pair + " --search 100");
  const auto optimal = plan_json(pair + " --optimal");
  EXPECT_EQ(seed.steps, (std::vector<std::string>{"all_to_all(src=0, dst=2, axes={y})",
                                                  "all_to_all(src=3, dst=0, axes={x,z:(1)2})",
                                                  "all_gather(dim=0, axes={z:(1)2})"}));
  EXPECT_EQ(searched.steps, (std::vector<std::string>{
                                "all_slice(dim=2, axes={z:(2)2})",
                                "collective_permute(to=bf16[{x}32, 48, {y}128, {z:(2)2,z:(1)2}192])",
                                "all_gather(dim=3, axes={z:(2)2,z:(1)2})"}));
  // A device holds 9,437,184 bytes. The seed's exchanges send half and 3/4 of them and
  // its gather receives a whole shard; the slice halves the shard, the permute sends all
  // of it, and the gather receives 3/4 of the target's 18,874,368 (1 us and 300 GB/s a
  // collective).
  const double shard = 9437184;
  EXPECT_NEAR(seed.modeled_time_us,
              (1 + 0.5 * shard / 300e3) + (1 + 0.75 * shard / 300e3) + (1 + shard / 300e3), 1e-6);
  EXPECT_NEAR(searched.modeled_time_us, (1 + 0.5 * shard / 300e3) + (1 + 0.75 * 2 * shard / 300e3), 1e-6);
  EXPECT_NEAR(optimal.modeled_time_us, searched.modeled_time_us, 1e-9);
  EXPECT_EQ(run_redist("prove " + pair + " --search 100").exit_code, 0);
  for (const char* bad : {"-1", "1.5", "many"}) {
    const auto r = run_redist("plan " + pair + " --search " + bad);
    EXPECT_EQ(r.exit_code, 2) << bad;
    EXPECT_NE(r.output.find(std::string("--search: a whole number of states >= 0, got '") + bad + "'"),
              std::string::npos)
        << r.output;
  }
  EXPECT_EQ(run_redist("plan " + pair + " --search 5 --optimal").exit_code, 2);
}

TEST(PlanCommand, BadCostModelsExitTwoWithTheReason) {
  const std::string path = ::testing::TempDir() + "redist_cli_bad_cost_model_" + std::to_string(getpid()) + ".txt";
  std::ofstream(path) << "x = fast\n";
  const auto bad_class = run_redist(std::string(kSwap) + " --cost-model " + path);
  EXPECT_EQ(bad_class.exit_code, 2);
  EXPECT_NE(bad_class.output.find("at line 1, column 5: expected 'intra' or 'inter', got 'fast'"), std::string::npos)
      << bad_class.output;
  std::ofstream(path) << "q = inter\n";
  const auto unknown_axis = run_redist(std::string(kSwap) + " --cost-model " + path);
  EXPECT_EQ(unknown_axis.exit_code, 2);
  EXPECT_NE(unknown_axis.output.find("the cost model names axis 'q', which the mesh {x:4, y:2} does not have"),
            std::string::npos)
      << unknown_axis.output;
  std::ofstream(path) << "x = inter\ninter.bandwidth_gbps = -25\n";
  const auto negative = run_redist(std::string(kSwap) + " --cost-model " + path);
  EXPECT_EQ(negative.exit_code, 2);
  EXPECT_NE(negative.output.find("at line 2, column 24: expected a positive number, got '-25'"), std::string::npos)
      << negative.output;
  EXPECT_EQ(run_redist(std::string(kSwap) + " --cost-model /nonexistent/cost.txt").exit_code, 2);
  std::remove(path.c_str());
}

// A case the optimal search cannot finish quickly (8 axes, rank 8): each state has
// thousands of successors, so it reaches its state cap in about a second.
const char* kHard =
    "plan --mesh '{a:4, b:4, c:4, d:4, e:4, f:4, g:4, h:4}' 'f32[{a,b}64, {c,d}64, {e,f}64, {g,h}64, 64, 64, 64, 64]' "
    "'f32[{b}64, 64, {d}64, 64, {h,g}64, {f}64, {e,c}64, {a}64]' --optimal";

TEST(PlanCommand, OptimalCapWithATimeoutReturnsTheBestPlanSoFar) {
  // With a timeout the search is anytime: whichever of its cap and its time limit comes
  // first (the cap here, unless the machine is slow), it prints the best plan found.
  const auto r = run_redist(std::string(kHard) + " --timeout 1.5");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("optimality not proved"), std::string::npos) << r.output;
  auto plan = parse_plan(r.output.substr(r.output.find("mesh {")));
  ASSERT_TRUE(plan.ok()) << plan.error().to_string() << "\n" << r.output;
  EXPECT_TRUE(type_plan(*plan).ok());
}

TEST(PlanCommand, OptimalTimeoutReturnsTheBestPlanSoFar) {
  // `random145` of the harness's seed 13013 under an inter-node x: the optimal search
  // expands about 10,000 states a second and its least estimate creeps towards the
  // default plan's 22.075 us over tens of thousands of states of nearly equal cost, so it
  // runs to its time limit, reporting progress each second.
  const TempFile model = two_class_cost_model();
  const auto r = run_redist("plan --mesh '{x:2, y:6, z:2, w:16}' 'bf16[{y,z}360, {x}720, {w}240]' "
                            "'bf16[360, {w:(2)8,y}720, {x,w:(1)2}240]' --optimal --timeout 1.5 --cost-model " +
                            model.path);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("optimality not proved: the search reached its time limit"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("redist: searching: "), std::string::npos) << r.output;  // progress each second
  auto plan = parse_plan(r.output.substr(r.output.find("mesh {")));
  ASSERT_TRUE(plan.ok()) << plan.error().to_string() << "\n" << r.output;
  EXPECT_TRUE(type_plan(*plan).ok());
  EXPECT_NE(r.output.find("# modeled time: 22.075 us"), std::string::npos) << r.output;
}

TEST(PlanCommand, TimeoutNeedsOptimalAndAPositiveNumber) {
  EXPECT_EQ(run_redist(std::string(kSwap) + " --timeout 1").exit_code, 2);
  EXPECT_EQ(run_redist(std::string(kSwap) + " --optimal --timeout -1").exit_code, 2);
}

}  // namespace
}  // namespace redist::testing
