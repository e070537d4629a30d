// The command's contract with scripts and partitioners (docs/cli.md): bad files and
// numbers exit 2 with a message in every verb (never a crash), one number syntax with
// units everywhere, --json in every verb with every field, errors as JSON on stdout
// when --json is given, and one exit-status scheme.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "tests/tools/run_command.hpp"

namespace redist {
namespace {

using nlohmann::json;
using testing::run_redist;

const std::string kSwap = "--mesh '{x:4, y:2}' 'f32[{x}16, {y}8]' 'f32[{y}16, {x}8]'";
const std::string kSwapPlan =
    "mesh {x:4, y:2}\nsource f32[{x}16, {y}8]\nall_to_all(src=0, dst=1, axes={x:(2)2})\n"
    "collective_permute(to=f32[{y}16, {x}8])\n";

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::set<std::string> keys_of(const json& object) {
  std::set<std::string> keys;
  for (const auto& [k, v] : object.items()) keys.insert(k);
  return keys;
}

/// A scratch directory with files of every bad kind, removed at the end.
class BadFiles : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("redist_cli_robust_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_ / "a_directory");
    std::ofstream(dir_ / "empty");
    std::ofstream(dir_ / "binary", std::ios::binary) << std::string("mesh {x:2}\0\x7f" "ELF", 15);
    std::ofstream(dir_ / "plan.txt") << kSwapPlan;
    std::ofstream(dir_ / "cost.txt") << "x = inter\n";
    // Over the 256 MiB cap without writing it: a sparse file.
    std::ofstream(dir_ / "huge");
    std::filesystem::resize_file(dir_ / "huge", (std::uintmax_t{256} << 20) + 1);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string path(const std::string& name) const { return "'" + (dir_ / name).string() + "'"; }

  std::filesystem::path dir_;
};

TEST_F(BadFiles, EveryFileArgumentRefusesWhatIsNotATextFile) {
  const std::string reshard = " --mesh '{x:4, y:2}' 'f32[{x}16, {y}8]' 'f32[{y}16, {x}8]'";
  const std::pair<std::string, std::string> verbs[] = {
      {"check --plan ", "--plan"}, {"emit --target hlo --plan ", "--plan"}, {"emit --target mpi --plan ", "--plan"},
      {"plan" + reshard + " --cost-model ", "--cost-model"}};
  const std::pair<std::string, std::string> cases[] = {
      {"a_directory", "is a directory, not a file"},
      {"missing", "No such file or directory"},
      {"empty", "is empty"},
      {"binary", "is not a text file (a NUL byte at offset 10)"},
      {"huge", "is larger than 256 MiB"}};
  for (const auto& [verb, argument] : verbs) {
    for (const auto& [file, reason] : cases) {
      const auto r = run_redist(verb + path(file));
      EXPECT_EQ(r.exit_code, 2) << verb << file << ": " << r.output;
      EXPECT_TRUE(contains(r.output, argument)) << r.output;
      EXPECT_TRUE(contains(r.output, reason)) << verb << file << ": " << r.output;
    }
  }
  EXPECT_EQ(run_redist("check --plan /dev/null").exit_code, 2);
  EXPECT_TRUE(contains(run_redist("check --plan /dev/null").output, "is not a regular file"));
  // The good files are read.
  EXPECT_EQ(run_redist("check --plan " + path("plan.txt")).exit_code, 0);
  EXPECT_EQ(run_redist("plan" + reshard + " --cost-model " + path("cost.txt")).exit_code, 0);
}

TEST(CliNumbers, EveryVerbRefusesTheSameBadNumbers) {
  const std::string verbs[] = {"plan " + kSwap, "prove " + kSwap, "emit --target hlo " + kSwap,
                               "check --plan -"};
  const std::pair<std::string, std::string> bad[] = {
      {"-1", "at column 1: expected a number of at least 0, got a sign"},
      {"0x10", "at column 2: expected decimal digits (no hexadecimal)"},
      {"1.5GiB", "at column 2: expected a whole number (no fraction: write 1536MiB for 1.5GiB)"},
      {"12XB", "at column 3: expected a unit B, KB, MB, GB, TB, KiB, MiB, GiB or TiB after the number, got 'XB'"},
      {"18446744073709551616", "at column 20: the number does not fit 64 bits"},
      {"17179869184GiB", "at column 1: the byte count does not fit 64 bits"},
      {"' 64'", "at column 1: expected decimal digits"},
      {"''", "at column 1: expected a number, got nothing"}};
  for (const auto& verb : verbs) {
    for (const auto& [text, reason] : bad) {
      const auto r = run_redist(verb + " --budget " + text, kSwapPlan);
      EXPECT_EQ(r.exit_code, 2) << verb << " --budget " << text << ": " << r.output;
      EXPECT_TRUE(contains(r.output, "error in --budget " + reason)) << verb << " --budget " << text << ": "
                                                                      << r.output;
    }
  }
  for (const std::string& verb : {"prove " + kSwap, std::string("check --plan -")}) {
    for (const std::string& t : {"0", "-5", "4294967296", "10ms", "1e3"}) {
      const auto r = run_redist(verb + " --timeout-ms " + t, kSwapPlan);
      EXPECT_EQ(r.exit_code, 2) << verb << " --timeout-ms " << t << ": " << r.output;
      EXPECT_TRUE(contains(r.output, "error in --timeout-ms")) << r.output;
    }
  }
}

TEST(CliNumbers, UnitsMeanTheSameBytesInEveryVerb) {
  const std::pair<std::string, std::string> units[] = {
      {"4096", "4096"}, {"64KiB", "65536"}, {"64KB", "64000"}, {"1MiB", "1048576"}, {"2GB", "2000000000"},
      {"1TiB", "1099511627776"}, {"100B", "100"}};
  for (const auto& [text, bytes] : units) {
    for (const std::string& verb : {"plan " + kSwap, "prove " + kSwap, std::string("check --plan -")}) {
      const auto r = run_redist(verb + " --json --budget " + text, kSwapPlan, true);
      ASSERT_EQ(r.exit_code, 0) << verb << " --budget " << text << ": " << r.output;
      EXPECT_EQ(json::parse(r.output)["bound_bytes"], bytes) << verb << " --budget " << text;
    }
  }
}

TEST(CliJson, PlanHasTheMeshVerifiedAndTablesPerStep) {
  const auto r = run_redist("plan " + kSwap + " --json", "", true);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json j = json::parse(r.output);
  EXPECT_EQ(keys_of(j), (std::set<std::string>{"schema_version", "command", "exit_code", "mesh", "target_mesh",
                                                "source", "target", "steps", "peak_local_bytes", "bound_bytes",
                                                "recv_bytes_max", "recv_bytes_total", "lower_bound_bytes_max",
                                                "lower_bound_bytes_total", "verified", "modeled_time_us"}));
  EXPECT_EQ(j["schema_version"], 1);
  EXPECT_EQ(j["command"], "plan");
  EXPECT_EQ(j["exit_code"], 0);
  EXPECT_EQ(j["verified"], false);
  const json mesh = {{"text", "{x:4, y:2}"},
                     {"axes", {{{"name", "x"}, {"size", 4}}, {{"name", "y"}, {"size", 2}}}},
                     {"device_count", 8},
                     {"device_order", nullptr}};
  EXPECT_EQ(j["mesh"], mesh);
  EXPECT_EQ(j["target_mesh"], mesh);
  EXPECT_EQ(j["source"], "f32[{x}16, {y}8]");
  EXPECT_EQ(j["target"], "f32[{y}16, {x}8]");
  EXPECT_EQ(j["peak_local_bytes"], "64");
  EXPECT_EQ(j["bound_bytes"], "64");
  EXPECT_EQ(j["recv_bytes_max"], "96");
  EXPECT_EQ(j["recv_bytes_total"], "512");
  EXPECT_EQ(j["lower_bound_bytes_max"], "64");
  EXPECT_EQ(j["lower_bound_bytes_total"], "384");
  EXPECT_GT(j["modeled_time_us"].get<double>(), 0.0);
  ASSERT_EQ(j["steps"].size(), 2u);
  // The all_to_all runs within pairs of devices differing in the minor bit of x
  // (device = 2x + y), the permute sends each device's block to where the target
  // type wants it: device 1 (x=0, y=1) wants rows 8-15, columns 0-1, which device 4
  // (x=2, y=0) holds after the all_to_all.
  const json a2a = {{"op", "all_to_all"},
                    {"text", "all_to_all(src=0, dst=1, axes={x:(2)2})"},
                    {"type_after", "f32[{x:(1)2}16, {y,x:(2)2}8]"},
                    {"local_bytes_after", "64"},
                    {"send_bytes_max", "32"},
                    {"recv_bytes_max", "32"},
                    {"group_size", 2},
                    {"group_axes", {"x:(2)2"}},
                    {"groups", {{0, 2}, {1, 3}, {4, 6}, {5, 7}}},
                    {"pairs", nullptr},
                    {"reduce_op", nullptr}};
  EXPECT_EQ(j["steps"][0], a2a);
  const json permute = {{"op", "collective_permute"},
                        {"text", "collective_permute(to=f32[{y}16, {x}8])"},
                        {"type_after", "f32[{y}16, {x}8]"},
                        {"local_bytes_after", "64"},
                        {"send_bytes_max", "64"},
                        {"recv_bytes_max", "64"},
                        {"group_size", 2},
                        {"group_axes", nullptr},
                        {"groups", nullptr},
                        {"pairs", {{0, 0}, {4, 1}, {2, 2}, {6, 3}, {1, 4}, {5, 5}, {3, 6}, {7, 7}}},
                        {"reduce_op", nullptr}};
  EXPECT_EQ(j["steps"][1], permute);
}

TEST(CliJson, TablesAreNullBeyond4096Devices) {
  const auto r = run_redist("plan --mesh '{x:4096, y:2}' 'f32[{x}8192]' 'f32[8192]' --json", "", true);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json step = json::parse(r.output)["steps"][0];
  EXPECT_EQ(step["group_axes"], json({"x"}));
  EXPECT_EQ(step["groups"], nullptr);
}

TEST(CliJson, TypeEmitAndCheckPrintOneObject) {
  const auto type = run_redist("type --mesh '{x:4, y:2} devices=[7,6,5,4,3,2,1,0]' 'f32[{x}18, {y}8]' --json", "",
                               true);
  ASSERT_EQ(type.exit_code, 0) << type.output;
  const json t = json::parse(type.output);
  EXPECT_EQ(keys_of(t), (std::set<std::string>{"schema_version", "command", "exit_code", "mesh", "type",
                                                "local_shape", "local_bytes", "replication_factor", "padding"}));
  EXPECT_EQ(t["command"], "type");
  EXPECT_EQ(t["mesh"]["device_order"], json({7, 6, 5, 4, 3, 2, 1, 0}));
  EXPECT_EQ(t["type"], "f32[{x}18, {y}8]");
  EXPECT_EQ(t["local_shape"], json({5, 4}));
  EXPECT_EQ(t["local_bytes"], "80");
  EXPECT_EQ(t["replication_factor"], 1);
  EXPECT_EQ(t["padding"], true);

  const auto emit = run_redist("emit --target hlo " + kSwap + " --json", "", true);
  ASSERT_EQ(emit.exit_code, 0) << emit.output;
  const json e = json::parse(emit.output);
  EXPECT_EQ(e["command"], "emit");
  EXPECT_EQ(e["format"], "hlo");
  EXPECT_TRUE(contains(e["program"].get<std::string>(), "all-to-all")) << e["program"];
  EXPECT_EQ(e["verified"], false);
  EXPECT_EQ(e["steps"].size(), 2u);

  const auto check = run_redist("check --plan - --json", kSwapPlan, true);
  ASSERT_EQ(check.exit_code, 0) << check.output;
  const json c = json::parse(check.output);
  EXPECT_EQ(c["command"], "check");
  EXPECT_EQ(c["verified"], true);
  EXPECT_EQ(c["exit_code"], 0);
  EXPECT_EQ(c["steps"][1]["pairs"][1], json({4, 1}));
}

TEST(CliJson, ErrorsAreJsonOnStdoutWithTheExitStatus) {
  struct Case {
    std::string args;
    int exit_code;
    std::string kind;
    json argument;
    json column;
    std::string message;
  };
  const Case cases[] = {
      {"type --mesh '{x:0}' 'f32[16]' --json", 2, "bad_input", "--mesh", 4,
       "error in --mesh at column 4: the size of axis 'x' must be at least 1, found 0"},
      {"plan " + kSwap + " --budget 0x10 --json", 2, "bad_input", "--budget", 2,
       "error in --budget at column 2: expected decimal digits (no hexadecimal)"},
      {"plan --mesh '{x:4}' 'f32[{x}16]' 'f32[16]' --budget 16 --json", 3, "no_plan", nullptr, nullptr, ""},
      {"prove --mesh '{x:4}' 'f32[{x}16]' 'f32[16]' --budget 16 --json", 3, "no_plan", nullptr, nullptr, ""},
      {"check --plan /nonexistent --json", 2, "bad_input", "--plan", nullptr,
       "cannot read --plan '/nonexistent': No such file or directory"},
      {"emit --target hlo --json", 2, "bad_input", nullptr, nullptr, "emit needs --mesh, SRC and DST, or --plan FILE"},
      {"prove --json", 2, "bad_input", nullptr, nullptr, "SRC is required; run 'redist --help' for usage"},
  };
  for (const Case& c : cases) {
    const auto r = run_redist(c.args, "", true);
    EXPECT_EQ(r.exit_code, c.exit_code) << c.args << ": " << r.output;
    const json j = json::parse(r.output);
    EXPECT_EQ(keys_of(j), (std::set<std::string>{"schema_version", "command", "exit_code", "error"})) << c.args;
    EXPECT_EQ(j["schema_version"], 1);
    EXPECT_EQ(j["command"], c.args.substr(0, c.args.find(' ')));
    EXPECT_EQ(j["exit_code"], c.exit_code);
    EXPECT_EQ(j["error"]["kind"], c.kind) << c.args;
    EXPECT_EQ(j["error"]["argument"], c.argument) << c.args;
    EXPECT_EQ(j["error"]["column"], c.column) << c.args;
    if (!c.message.empty()) EXPECT_EQ(j["error"]["message"], c.message) << c.args;
    else EXPECT_FALSE(j["error"]["message"].get<std::string>().empty());
  }
  // Without --json nothing goes to stdout on an error.
  EXPECT_EQ(run_redist("plan " + kSwap + " --budget 0x10", "", true).output, "");
}

TEST(CliExit, OneSchemeForEveryVerb) {
  // 1: not verified (a wrong explicit permute is refuted).
  const auto refuted = run_redist("check --plan -",
                                  "mesh {x:4}\nsource f32[{x}16]\n"
                                  "collective_permute(to=f32[{x}16], pairs=[(1,0),(2,1),(3,2),(0,3)])\n");
  EXPECT_EQ(refuted.exit_code, 1) << refuted.output;
  // 3: no plan within the budget, in every verb that synthesizes.
  for (const std::string verb : {"plan", "prove", "emit --target mpi"})
    EXPECT_EQ(run_redist(verb + " --mesh '{x:4}' 'f32[{x}16]' 'f32[16]' --budget 16").exit_code, 3) << verb;
  // 2: bad input, usage errors included.
  EXPECT_EQ(run_redist("plan --mesh '{x:4}' 'f32[{x}16]'").exit_code, 2);
  EXPECT_EQ(run_redist("frobnicate").exit_code, 2);
  EXPECT_EQ(run_redist("emit --target hlo --plan - --budget 64", kSwapPlan).exit_code, 2);
}

}  // namespace
}  // namespace redist
