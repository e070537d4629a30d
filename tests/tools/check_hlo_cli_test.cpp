// `redist check --from-hlo`: exit statuses and what it prints, on hand-written modules
// in the shape XLA prints (the compiled reshards themselves run in the xla label).

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "run_command.hpp"

namespace redist {
namespace {

using testing::run_redist;

std::string write(const std::string& name, const std::string& text) {
  const std::string path = "/tmp/redist_check_hlo_" + name + ".hlo";
  std::ofstream(path) << text;
  return path;
}

std::string gather_module(const std::string& groups, const std::string& root_sharding) {
  return "HloModule m, num_partitions=4\n\nENTRY %main (param: f32[2,8]) -> f32[4,8] {\n"
         "  %param = f32[2,8]{1,0} parameter(0), sharding={devices=[4,1]<=[4]}\n"
         "  ROOT %ag = f32[4,8]{1,0} all-gather(%param), channel_id=1, replica_groups=" + groups +
         ", dimensions={0}, use_global_device_ids=true, sharding=" + root_sharding + "\n}\n";
}

TEST(CheckFromHlo, ProvesACorrectModule) {
  const auto path = write("good", gather_module("[2,2]<=[4]", "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"));
  const auto r = run_redist("check --from-hlo " + path);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("all_gather(dim=0, groups=[[0,1],[2,3]])   <- %ag"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("correct         proved"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("received 64 bytes per device (max), lower bound 64"), std::string::npos) << r.output;
  const auto j = run_redist("check --from-hlo " + path + " --json");
  ASSERT_EQ(j.exit_code, 0) << j.output;
  const auto json = nlohmann::json::parse(j.output);
  EXPECT_EQ(json["source"], "f32[{a,b}8, 8]");
  EXPECT_EQ(json["target"], "f32[{a}8, 8]");
  EXPECT_EQ(json["verdict"]["correct"], "proved");
  EXPECT_EQ(json["verdict"]["transfers"], "tight");
  EXPECT_EQ(json["steps"][0]["instruction"], "%ag");
  std::remove(path.c_str());
}

TEST(CheckFromHlo, RefutesAWrongModuleAndReplaysTheCounterexample) {
  // Groups {0,2},{1,3] gather blocks 0 and 2 where the target needs 0 and 1.
  const auto path = write("wrong", gather_module("[2,2]<=[2,2]T(1,0)", "{devices=[2,1,2]<=[4] last_tile_dim_replicate}"));
  const auto r = run_redist("check --from-hlo " + path);
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("correct         refuted"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("replayed on the module: confirmed"), std::string::npos) << r.output;
  const auto j = run_redist("check --from-hlo " + path + " --json");
  EXPECT_EQ(nlohmann::json::parse(j.output)["verdict"]["counterexample_confirmed"], true) << j.output;
  std::remove(path.c_str());
}

TEST(CheckFromHlo, BadInputExitsTwoNamingTheLineOrInstruction) {
  const auto syntax = write("syntax", "HloModule m, num_partitions=4\n\nENTRY %main (p: f32[4]) -> f32[4] {\n"
                                      "  %p = f32[4]{0} parameter(0), sharding={replicated}\n  %x = f32[4 copy(%p)\n}\n");
  auto r = run_redist("check --from-hlo " + syntax);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("line 5"), std::string::npos) << r.output;
  const auto two = write("two", "HloModule m, num_partitions=4\n\nENTRY %main (p: f32[2,8], q: f32[2,8]) -> f32[2,8] {\n"
                                "  %p = f32[2,8]{1,0} parameter(0), sharding={devices=[4,1]<=[4]}\n"
                                "  %q = f32[2,8]{1,0} parameter(1), sharding={devices=[4,1]<=[4]}\n"
                                "  ROOT %c = f32[2,8]{1,0} copy(%p), sharding={devices=[4,1]<=[4]}\n}\n");
  r = run_redist("check --from-hlo " + two);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("cannot place %q (line 5)"), std::string::npos) << r.output;
  const auto op = write("op", gather_module("{}", "{replicated}").replace(
                                  gather_module("{}", "{replicated}").find("all-gather(%param), channel_id=1, replica_groups={}, dimensions={0}, use_global_device_ids=true"),
                                  std::string("all-gather(%param), channel_id=1, replica_groups={}, dimensions={0}, use_global_device_ids=true").size(),
                                  "cholesky(%param)"));
  r = run_redist("check --from-hlo " + op);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("%ag"), std::string::npos) << r.output;
  EXPECT_EQ(run_redist("check --from-hlo /nonexistent/x.hlo").exit_code, 2);
  EXPECT_EQ(run_redist("check --from-hlo " + syntax + " --plan " + syntax).exit_code, 2);
  for (const auto& p : {syntax, two, op}) std::remove(p.c_str());
}

}  // namespace
}  // namespace redist
