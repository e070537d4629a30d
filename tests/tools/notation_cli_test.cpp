// `redist plan/prove/emit --from hlo|sdy|jax|dtensor --to ...`: reshards given in other
// systems' notations, the plan's types printed in them, bad input with exit 2.

#include <gtest/gtest.h>

#include "tests/tools/run_command.hpp"

namespace redist {
namespace {

using testing::run_redist;

void expect_line(const std::string& output, const std::string& line) {
  EXPECT_NE(output.find(line + "\n"), std::string::npos) << "missing: " << line << "\n" << output;
}

TEST(CliNotation, HloWithoutMeshInventsOneAndPrintsStepsInJax) {
  auto r = run_redist(
      "plan --from hlo --to jax 'f32[16,8] {devices=[4,2]<=[8]}' 'f32[16,8] {devices=[2,4]<=[4,2]T(1,0)}'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  expect_line(r.output, "mesh {a:4, b:2}");
  expect_line(r.output, "source f32[{a}16, {b}8]");
  expect_line(r.output, "target f32[{b}16, {a}8]");
  expect_line(r.output, "# jax: mesh Mesh(axis_sizes=(4, 2), axis_names=('a', 'b'))");
  expect_line(r.output, "# jax: source f32[16,8] P('a', 'b')");
  EXPECT_NE(r.output.find("(no spelling: "), std::string::npos) << r.output;  // the sub-axis step
  EXPECT_NE(r.output.find("f32[16,8] P('b', 'a')\n"), std::string::npos) << r.output;
}

TEST(CliNotation, JaxInHloOut) {
  auto r = run_redist(
      "plan --from jax --to hlo --mesh \"Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'))\" "
      "\"f32[16,8] P('x', 'y')\" \"f32[16,8] P(None, ('y', 'x'))\"");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  expect_line(r.output, "source f32[{x}16, {y}8]");
  expect_line(r.output, "target f32[16, {y,x}8]");
  expect_line(r.output, "# hlo: source f32[16,8] {devices=[2,4]<=[8]}");
  EXPECT_NE(r.output.find("f32[16,8] {devices=[1,8]<=[2,4]T(1,0)}\n"), std::string::npos) << r.output;
}

TEST(CliNotation, SdyProvesAndDtensorEmits) {
  auto r = run_redist(
      "prove --from sdy --to sdy --mesh 'sdy.mesh @m = <[\"x\"=4, \"y\"=2]>' "
      "'f32[16,8] #sdy.sharding<@m, [{\"x\"}, {\"y\"}]>' 'f32[16,8] #sdy.sharding<@m, [{\"y\"}, {}], "
      "replicated={\"x\"}>'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  expect_line(r.output, "# sdy: source f32[16,8] #sdy.sharding<@mesh, [{\"x\"}, {\"y\"}]>");
  auto e = run_redist(
      "emit --target hlo --from dtensor --mesh \"DeviceMesh('cpu', [[0, 1, 2, 3], [4, 5, 6, 7]], "
      "mesh_dim_names=('dp', 'tp'))\" 'f32[16,8] [Shard(0), Shard(1)]' 'f32[16,8] [Replicate(), Shard(0)]'");
  ASSERT_EQ(e.exit_code, 0) << e.output;
  EXPECT_NE(e.output.find("all-"), std::string::npos) << e.output;
}

TEST(CliNotation, BadInputExitsTwoWithPositionAndReason) {
  auto r = run_redist("plan --from hlo 'f32[16,8] {maximal device=3}' 'f32[16,8] {replicated}'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("redist: error in SRC at column 12: a maximal sharding"), std::string::npos) << r.output;
  r = run_redist("plan --from jax \"f32[16] P('x')\" \"f32[16] P()\"");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--mesh is required"), std::string::npos) << r.output;
  r = run_redist("plan --from jax --mesh \"{'x': 4}\" \"f32[16] P('x'\" \"f32[16] P()\"");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("error in SRC at column 14: expected ')'"), std::string::npos) << r.output;
  r = run_redist("plan --from xla --mesh '{x:4}' 'f32[{x}16]' 'f32[16]'");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  r = run_redist("plan --from dtensor --mesh '{x:4}' 'f32[16] [Partial(avg)]' 'f32[16] [Replicate()]'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("pending mean"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace redist
