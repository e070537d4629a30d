// Programs emitted by `emit_program` (and `redist emit --target mpi`): they include only
// MPI and the standard library, compile with the MPI compiler wrapper, and pass under
// mpirun for the anchors that fit in 8 ranks, the cases of tests/data/partial_sums.txt
// and tests/data/uneven.txt, the cases of tests/data/mesh_changes.txt that fit 8 ranks,
// those of tests/data/device_orders.txt,
// and hand plans with reductions and device-order changes; a wrong explicit lowering
// makes the program report FAILED.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include "anchors.hpp"
#include "redist/backends/mpi/codegen.hpp"
#include "redist/plan/plan_text.hpp"

namespace redist::mpi::testing {
namespace {

/// What running a command printed and its exit status.
struct Outcome {
  int status = -1;
  std::string output;
};

/// Runs `command` through the shell, stdout and stderr together.
Outcome run_command(const std::string& command) {
  Outcome outcome;
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) return outcome;
  char chunk[4096];
  for (std::size_t n; (n = std::fread(chunk, 1, sizeof chunk, pipe)) > 0;) outcome.output.append(chunk, n);
  const int status = pclose(pipe);
  outcome.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return outcome;
}

/// A directory of this test process for programs.
std::filesystem::path work_dir() {
  const auto dir = std::filesystem::path(::testing::TempDir()) / ("redist_mpi_codegen_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  return dir;
}

/// Compiles the program `cpp` with mpicxx alone and runs it under mpirun with
/// `ranks` ranks; returns the run's outcome (a failed compile fails the test).
Outcome compile_and_run(const std::filesystem::path& cpp, int64_t ranks) {
  const auto exe = cpp.parent_path() / cpp.stem();
  const Outcome compiled = run_command(std::string(REDIST_MPICXX) + " -std=c++20 -O2 -Wall -Wextra -Werror " +
                                       cpp.string() + " -o " + exe.string());
  EXPECT_EQ(compiled.status, 0) << compiled.output;
  if (compiled.status != 0) return {};
  return run_command(std::string(REDIST_MPIRUN) + " -np " + std::to_string(ranks) + " " + exe.string());
}

/// Emits `plan` as `name`.cpp, compiles and runs it with one rank per device (`ranks`
/// when given: a plan between device sets runs over ranks 0..max device id).
Outcome emit_compile_run(const Plan& plan, const std::string& name, int64_t ranks = 0) {
  auto source = emit_program(plan);
  EXPECT_TRUE(source.ok()) << source.error().to_string();
  if (!source) return {};
  const auto cpp = work_dir() / (name + ".cpp");
  std::ofstream(cpp) << *source;
  return compile_and_run(cpp, ranks ? ranks : plan.mesh.num_devices());
}

/// Expects the program's one-line success report for `devices` ranks.
void expect_ok(const Outcome& outcome, int64_t devices) {
  EXPECT_EQ(outcome.status, 0) << outcome.output;
  const std::regex ok("redist-mpi: OK " + std::to_string(devices) + " ranks, [1-9][0-9]* elements checked\n");
  EXPECT_TRUE(std::regex_search(outcome.output, ok)) << outcome.output;
}

/// The plan of `text`, which must parse.
Plan plan_of(const std::string& text) {
  auto plan = parse_plan(text);
  EXPECT_TRUE(plan.ok()) << plan.error().to_string();
  return plan.ok() ? *plan : Plan{};
}

/// Names of the anchors with at most 8 devices that have a plan.
std::vector<std::string> small_anchor_names() {
  std::vector<std::string> names;
  auto anchors = read_anchors(REDIST_ANCHORS_FILE);
  if (!anchors) return names;
  for (const auto& anchor : *anchors)
    if (anchor.mesh.num_devices() <= 8 && anchor_plan(anchor).ok()) names.push_back(anchor.name);
  return names;
}

class EmittedAnchor : public ::testing::TestWithParam<std::string> {};

TEST_P(EmittedAnchor, CompilesAndPassesUnderMpirun) {
  auto anchors = read_anchors(REDIST_ANCHORS_FILE);
  ASSERT_TRUE(anchors.ok()) << anchors.error().to_string();
  for (const auto& anchor : *anchors) {
    if (anchor.name != GetParam()) continue;
    auto plan = anchor_plan(anchor);
    ASSERT_TRUE(plan.ok()) << plan.error().to_string();
    expect_ok(emit_compile_run(*plan, anchor.name), anchor.mesh.num_devices());
  }
}

INSTANTIATE_TEST_SUITE_P(Anchors, EmittedAnchor, ::testing::ValuesIn(small_anchor_names()),
                         [](const auto& info) { return info.param; });

/// Names of the cases of the anchors-format file at `path` that fit 8 ranks.
std::vector<std::string> case_names(const char* path) {
  std::vector<std::string> names;
  auto cases = read_anchors(path);
  if (!cases) return names;
  for (const auto& c : *cases)
    if (c.mesh.num_devices() <= 8) names.push_back(c.name);
  return names;
}

/// Emits, compiles and runs our plan of the case `name` of the file at `path`.
void emit_case(const char* path, const std::string& name) {
  auto cases = read_anchors(path);
  ASSERT_TRUE(cases.ok()) << cases.error().to_string();
  for (const auto& c : *cases) {
    if (c.name != name) continue;
    auto plan = anchor_plan(c);
    ASSERT_TRUE(plan.ok()) << plan.error().to_string();
    expect_ok(emit_compile_run(*plan, c.name), c.mesh.num_devices());
  }
}

/// The cases of tests/data/partial_sums.txt (pending reductions).
class EmittedPartialSum : public ::testing::TestWithParam<std::string> {};

TEST_P(EmittedPartialSum, CompilesAndPassesUnderMpirun) { emit_case(REDIST_PARTIAL_SUMS_FILE, GetParam()); }

INSTANTIATE_TEST_SUITE_P(PartialSums, EmittedPartialSum, ::testing::ValuesIn(case_names(REDIST_PARTIAL_SUMS_FILE)),
                         [](const auto& info) { return info.param; });

/// The cases of tests/data/uneven.txt (padded dims: every real element checked).
class EmittedUneven : public ::testing::TestWithParam<std::string> {};

TEST_P(EmittedUneven, CompilesAndPassesUnderMpirun) { emit_case(REDIST_UNEVEN_FILE, GetParam()); }

INSTANTIATE_TEST_SUITE_P(Uneven, EmittedUneven, ::testing::ValuesIn(case_names(REDIST_UNEVEN_FILE)),
                         [](const auto& info) { return info.param; });

/// The cases of tests/data/mesh_changes.txt (other axes over the same devices, planned
/// on the common refinement: docs/meshes.md).
class EmittedMeshChange : public ::testing::TestWithParam<std::string> {};

TEST_P(EmittedMeshChange, CompilesAndPassesUnderMpirun) { emit_case(REDIST_MESH_CHANGES_FILE, GetParam()); }

INSTANTIATE_TEST_SUITE_P(MeshChanges, EmittedMeshChange, ::testing::ValuesIn(case_names(REDIST_MESH_CHANGES_FILE)),
                         [](const auto& info) { return info.param; });

/// The cases of tests/data/device_orders.txt (the same axes in another device order,
/// some with permutes that move nothing: docs/meshes.md).
class EmittedDeviceOrder : public ::testing::TestWithParam<std::string> {};

TEST_P(EmittedDeviceOrder, CompilesAndPassesUnderMpirun) { emit_case(REDIST_DEVICE_ORDERS_FILE, GetParam()); }

INSTANTIATE_TEST_SUITE_P(DeviceOrders, EmittedDeviceOrder, ::testing::ValuesIn(case_names(REDIST_DEVICE_ORDERS_FILE)),
                         [](const auto& info) { return info.param; });

/// The cases of tests/data/device_sets.txt (other device sets: one job over the union of
/// the meshes' devices, rank = physical id; docs/meshes.md).
std::vector<std::string> device_set_names() {
  std::vector<std::string> names;
  auto cases = read_anchors(REDIST_DEVICE_SETS_FILE);
  if (!cases) return names;
  for (const auto& c : *cases) names.push_back(c.name);
  return names;
}

class EmittedDeviceSet : public ::testing::TestWithParam<std::string> {};

TEST_P(EmittedDeviceSet, CompilesAndPassesUnderMpirun) {
  auto cases = read_anchors(REDIST_DEVICE_SETS_FILE);
  ASSERT_TRUE(cases.ok()) << cases.error().to_string();
  for (const auto& c : *cases) {
    if (c.name != GetParam()) continue;
    auto plan = anchor_plan(c);
    ASSERT_TRUE(plan.ok()) << plan.error().to_string();
    const int64_t ranks = std::max(c.mesh.device_ids().back(), c.target_mesh.device_ids().back()) + 1;
    expect_ok(emit_compile_run(*plan, c.name, ranks), ranks);
  }
}

INSTANTIATE_TEST_SUITE_P(DeviceSets, EmittedDeviceSet, ::testing::ValuesIn(device_set_names()),
                         [](const auto& info) { return info.param; });

TEST(EmittedProgram, ReductionsAndDeviceOrders) {
  const Plan plan = plan_of(
      "mesh {x:2, y:2, z:2}\nsource f32[4, 8, {z}4] sum{x, y}\nreduce_scatter(dim=1, axes={x})\n"
      "collective_permute(to=f32[4, {x}8, {z}4] sum{y}, mesh={x:2, y:2, z:2} devices=[7,6,5,4,3,2,1,0])\n"
      "all_to_all(src=2, dst=0, axes={z})\n");
  expect_ok(emit_compile_run(plan, "reductions_and_orders"), 8);
}

TEST(EmittedProgram, FusedAllGather) {
  const Plan plan = plan_of(
      "mesh {x:2, y:2, z:2}\nsource f32[{x}4, {y}2, {z}6, 8]\n"
      "all_gather(dim=2, axes={z}; dim=0, axes={x}; dim=1, axes={y})\n");
  expect_ok(emit_compile_run(plan, "fused_all_gather"), 8);
}

TEST(EmittedProgram, FusedAllToAll) {
  const Plan plan = plan_of(
      "mesh {x:2, y:2, z:2}\nsource f32[{x}4, {y}2, {z}6, 8]\n"
      "all_to_all(src=0, dst=3, axes={x}; src=1, dst=3, axes={y}; src=2, dst=3, axes={z})\n");
  expect_ok(emit_compile_run(plan, "fused_all_to_all"), 8);
}

TEST(EmittedProgram, PaddedGathers) {
  expect_ok(emit_compile_run(plan_of("mesh {x:2, y:2}\nsource f32[{x,y}5, 3]\nall_gather(dim=0, axes={x,y})\n"),
                             "nested_uneven_gather"),
            4);
  expect_ok(emit_compile_run(plan_of("mesh {x:8}\nsource f32[3, {x}5]\nall_gather(dim=1, axes={x})\n"), "empty_shards"),
            8);
}

TEST(EmittedProgram, FromTheCommandLine) {
  const auto cpp = work_dir() / "cli.cpp";
  const Outcome emitted = run_command(std::string(REDIST_CLI) +
                                      " emit --target mpi --mesh '{x:4, y:2}' 'f32[{x}16, {y}8]' 'f32[{y}16, {x}8]' -o " +
                                      cpp.string());
  ASSERT_EQ(emitted.status, 0) << emitted.output;
  expect_ok(compile_and_run(cpp, 8), 8);
}

TEST(EmittedProgram, WrongGroupOrderIsReported) {
  const Plan plan = plan_of("mesh {x:4, y:2}\nsource f32[{x,y}16, 4]\n"
                            "all_gather(dim=0, axes={y}, groups=[[1,0],[3,2],[5,4],[7,6]])\n");
  const Outcome outcome = emit_compile_run(plan, "wrong_group_order");
  EXPECT_EQ(outcome.status, 1) << outcome.output;
  EXPECT_NE(outcome.output.find("redist-mpi: FAILED rank 0 local index"), std::string::npos) << outcome.output;
}

TEST(EmittedProgram, IncludesOnlyMpiAndTheStandardLibrary) {
  auto source = emit_program(plan_of("mesh {x:8}\nsource f32[{x}16]\nall_gather(dim=0, axes={x})\n"));
  ASSERT_TRUE(source.ok()) << source.error().to_string();
  const std::regex include("#include [<\"]([^>\"]+)[>\"]");
  for (auto it = std::sregex_iterator(source->begin(), source->end(), include); it != std::sregex_iterator(); ++it) {
    const std::string header = (*it)[1];
    EXPECT_TRUE(header == "mpi.h" || header.find('.') == std::string::npos) << header;
  }
  EXPECT_EQ(source->find("#pragma once"), std::string::npos);
}

TEST(EmittedProgram, RefusesIllTypedPlans) {
  Plan plan = plan_of("mesh {x:8}\nsource f32[{x}16]\n");
  plan.steps.push_back(Step{AllGather{0, {AxisRef{"y", 1, 2, false}}}, std::nullopt, std::nullopt});
  EXPECT_FALSE(emit_program(plan).ok());
}

}  // namespace
}  // namespace redist::mpi::testing
