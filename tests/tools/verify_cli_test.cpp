// `redist prove` and `redist check`: every verdict field in text and JSON, refutations
// of wrong plans with a counterexample that really is wrong, and the exit statuses.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>
#include <string>

#include "tests/tools/run_command.hpp"

namespace redist {
namespace {

using nlohmann::json;
using testing::run_redist;

const std::string kSwap = "--mesh '{x:4, y:2}' 'f32[{x}16, {y}8]' 'f32[{y}16, {x}8]'";
const std::string kGather = "--mesh '{x:4}' 'f32[{x}16]' 'f32[16]'";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::set<std::string> keys_of(const json& object) {
  std::set<std::string> keys;
  for (const auto& [k, v] : object.items()) keys.insert(k);
  return keys;
}

// The swap needs an all_to_all and a permute: every device receives 96 bytes where the
// lower bound is 64, so the plan is correct and within memory but not tight.
TEST(ProveCommand, SwapIsProvedWithEveryVerdictInText) {
  const auto r = run_redist("prove " + kSwap);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "# redist prove (synthesized plan): 2 steps\n")) << r.output;
  EXPECT_TRUE(contains(r.output, "#   correct         proved: every non-padding target element is the right source"))
      << r.output;
  EXPECT_TRUE(contains(r.output, "#   memory          proved: every local buffer is at most 64 bytes")) << r.output;
  EXPECT_TRUE(contains(r.output, "peak 64 of 64 bytes per device; transient peak (input + output of a step) 128"))
      << r.output;
  EXPECT_TRUE(contains(r.output, "#   no_peak         proved")) << r.output;
  EXPECT_TRUE(contains(r.output, "#   transfers       excess")) << r.output;
  EXPECT_TRUE(contains(r.output, "received 96 bytes per device (max), lower bound 64, ratio 1.5000")) << r.output;
  EXPECT_TRUE(contains(r.output, "\n# VERIFIED")) << r.output;
}

TEST(ProveCommand, JsonVerdictHasEveryField) {
  const auto r = run_redist("prove " + kSwap + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto j = json::parse(r.output);
  EXPECT_EQ(keys_of(j), (std::set<std::string>{"schema_version", "command", "exit_code", "mesh", "target_mesh",
                                                "source", "target", "steps", "peak_local_bytes", "bound_bytes",
                                                "recv_bytes_max", "recv_bytes_total", "lower_bound_bytes_max",
                                                "lower_bound_bytes_total", "verified", "verdict"}));
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["command"], "prove");
  EXPECT_EQ(j["exit_code"], 0);
  EXPECT_EQ(j["verified"], true);
  EXPECT_EQ(j["recv_bytes_max"], "96");
  EXPECT_EQ(j["lower_bound_bytes_max"], "64");
  const auto& v = j["verdict"];
  EXPECT_EQ(keys_of(v), (std::set<std::string>{"correct", "memory", "no_peak", "transfers",
                                                "received_over_lower_bound", "solver_ms", "transient_peak_bytes"}));
  EXPECT_EQ(v["correct"], "proved");
  EXPECT_EQ(v["memory"], "proved");
  EXPECT_EQ(v["no_peak"], "proved");
  EXPECT_EQ(v["transfers"], "excess");
  EXPECT_EQ(v["received_over_lower_bound"], "1.5000");
  EXPECT_EQ(v["transient_peak_bytes"], "128");
  EXPECT_GT(v["solver_ms"].get<double>(), 0.0);
}

TEST(ProveCommand, GatherIsTight) {
  const auto r = run_redist("prove " + kGather + " --json");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const auto v = json::parse(r.output)["verdict"];
  EXPECT_EQ(v["correct"], "proved");
  EXPECT_EQ(v["memory"], "proved");
  EXPECT_EQ(v["no_peak"], "proved");
  EXPECT_EQ(v["transfers"], "tight");
  EXPECT_EQ(v["received_over_lower_bound"], "1.0000");
  EXPECT_EQ(v["transient_peak_bytes"], "80");
}

TEST(ProveCommand, ExitStatuses) {
  EXPECT_EQ(run_redist("prove " + kSwap + " --budget 63").exit_code, 3);
  const auto bad = run_redist("prove --mesh '{x:4, y:2}' 'f32[{x}16, {q}8]' 'f32[16, 8]'");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(contains(bad.output, "error in SRC at column 13: unknown axis 'q'")) << bad.output;
  EXPECT_EQ(run_redist("prove --mesh '{x:4}' 'f32[{x}16]'").exit_code, 2);
}

// A permute whose pairs swap neighbours instead of keeping every shard in place.
const char* kWrongPairs =
    "mesh {x:4}\n"
    "source f32[{x}16, 8]\n"
    "collective_permute(to=f32[{x}16, 8], pairs=[(0,1),(1,0),(2,3),(3,2)])\n"
    "target f32[{x}16, 8]\n";

TEST(CheckCommand, WrongPermutationIsRefutedWithARealCounterexample) {
  const auto r = run_redist("check --plan - --json", kWrongPairs);
  ASSERT_EQ(r.exit_code, 1) << r.output;
  const auto v = json::parse(r.output)["verdict"];
  EXPECT_EQ(v["correct"], "refuted");
  EXPECT_EQ(v["memory"], "proved");
  EXPECT_EQ(v["no_peak"], "proved");
  EXPECT_EQ(v["transfers"], "unknown");  // not posed for an incorrect plan
  const auto& cex = v["counterexample"];
  EXPECT_EQ(keys_of(cex), (std::set<std::string>{"property", "step", "device", "coords", "local_index",
                                                  "expected_global", "actual_global", "reason"}));
  EXPECT_EQ(cex["property"], "correct");
  EXPECT_EQ(cex["step"], 1);
  // Device d holds rows [4d, 4d+4) but received its neighbour d^1's rows.
  const int device = cex["device"];
  const int row = cex["local_index"][0], col = cex["local_index"][1];
  ASSERT_GE(device, 0);
  ASSERT_LT(device, 4);
  EXPECT_EQ(cex["coords"], json::array({device}));
  EXPECT_EQ(cex["expected_global"], json::array({4 * device + row, col}));
  EXPECT_EQ(cex["actual_global"], json::array({4 * (device ^ 1) + row, col}));
}

// An all_gather over groups of the wrong axis: y-major groups where x's are asked for.
TEST(CheckCommand, GroupsOfTheWrongAxisAreRefuted) {
  const std::string plan =
      "mesh {x:4, y:2}\n"
      "source f32[{x}16, 8]\n"
      "all_gather(dim=0, axes={x}, groups=[[0,1,2,3],[4,5,6,7]])\n"
      "target f32[16, 8]\n";
  const auto r = run_redist("check --plan -", plan);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_TRUE(contains(r.output, "#   correct         refuted\n#     counterexample: device ")) << r.output;
  EXPECT_TRUE(contains(r.output, "\n# NOT VERIFIED")) << r.output;

  std::string right = plan;
  right.replace(right.find("[[0,1,2,3],[4,5,6,7]]"), 21, "[[0,2,4,6],[1,3,5,7]]");
  const auto ok = run_redist("check --plan - --json", right);
  ASSERT_EQ(ok.exit_code, 0) << ok.output;
  EXPECT_EQ(json::parse(ok.output)["verdict"]["transfers"], "tight");
}

TEST(CheckCommand, ThePlanCommandsOutputReadsBackAndIsVerified) {
  const auto plan = run_redist("plan " + kSwap);
  ASSERT_EQ(plan.exit_code, 0) << plan.output;
  const auto r = run_redist("check --plan -", plan.output);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(contains(r.output, "# redist check (-): 2 steps\n")) << r.output;
}

TEST(CheckCommand, BadPlansExitTwoWithTheReason) {
  const auto misspelt = run_redist("check --plan -", "mesh {x:4}\nsource f32[{x}16]\nall_gathr(dim=0, axes={x})\n");
  EXPECT_EQ(misspelt.exit_code, 2);
  EXPECT_TRUE(contains(misspelt.output, "error in --plan -: at line 3, column 1: unknown step 'all_gathr'"))
      << misspelt.output;
  const auto ill_typed = run_redist("check --plan -", "mesh {x:4}\nsource f32[{x}16]\nall_gather(dim=3, axes={x})\n");
  EXPECT_EQ(ill_typed.exit_code, 2);
  EXPECT_TRUE(contains(ill_typed.output, "step 1 (all_gather(dim=3, axes={x})): dim 3 is out of range for rank 1"))
      << ill_typed.output;
  // A dropped step: the plan no longer ends at its declared target.
  const auto dropped = run_redist("check --plan -",
                                  "mesh {x:4, y:2}\nsource f32[{x}16, {y}8]\n"
                                  "all_to_all(src=0, dst=1, axes={x:(2)2})\ntarget f32[{y}16, {x}8]\n");
  EXPECT_EQ(dropped.exit_code, 2);
  EXPECT_TRUE(contains(dropped.output, "the plan ends at f32[{x:(1)2}16, {y,x:(2)2}8] but the target is "
                                       "f32[{y}16, {x}8]"))
      << dropped.output;
  const auto missing = run_redist("check --plan /nonexistent/plan.txt");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_TRUE(contains(missing.output, "cannot read --plan '/nonexistent/plan.txt': No such file or directory"))
      << missing.output;
}

}  // namespace
}  // namespace redist
