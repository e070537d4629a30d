// `redist plan`: the printed plan reads back with parse_plan and ends at the target,
// --json has exactly the documented keys, and the exit statuses.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <set>

#include "redist/synth/plan_text.hpp"
#include "redist/synth/typing.hpp"
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
  EXPECT_EQ(keys, (std::set<std::string>{"source", "target", "steps", "peak_local_bytes", "bound_bytes",
                                          "recv_bytes_max", "recv_bytes_total", "lower_bound_bytes_max",
                                          "lower_bound_bytes_total", "modeled_time_us"}));
  EXPECT_GT(json["modeled_time_us"].get<double>(), 0.0);
  ASSERT_FALSE(json["steps"].empty());
  for (const auto& step : json["steps"]) {
    std::set<std::string> step_keys;
    for (const auto& [k, v] : step.items()) step_keys.insert(k);
    EXPECT_EQ(step_keys, (std::set<std::string>{"op", "text", "type_after", "local_bytes_after", "send_bytes_max",
                                                 "recv_bytes_max", "group_size"}));
    EXPECT_TRUE(step["local_bytes_after"].is_string());
  }
  EXPECT_EQ(json["peak_local_bytes"], "64");
  EXPECT_EQ(json["bound_bytes"], "64");
  EXPECT_EQ(json["source"], "f32[{x}16, {y}8]");
  EXPECT_EQ(json["target"], "f32[{y}16, {x}8]");
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
  EXPECT_EQ(run_redist("plan --mesh '{x:2, y:2}' 'f32[{x,y}5, 3]' 'f32[5, 3]'").exit_code, 2);  // out of scope
}

TEST(PlanCommand, NoPlanWithinTheBudgetExitsThree) {
  EXPECT_EQ(run_redist(std::string(kSwap) + " --budget 63").exit_code, 3);
  EXPECT_EQ(run_redist(std::string(kSwap) + " --budget 64").exit_code, 0);
  EXPECT_EQ(run_redist(std::string(kSwap) + " --baseline gather_then_slice --budget 64").exit_code, 3);
}

}  // namespace
}  // namespace redist::testing
