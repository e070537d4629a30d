#include <gtest/gtest.h>

#include "tests/tools/run_command.hpp"

namespace redist {
namespace {

using testing::run_redist;

TEST(CliType, PrintsCanonicalTypeLocalShapeBytesAndReplication) {
  auto r = run_redist("type --mesh '{x:4, y:2, z:2}' 'f32[4{x}16, {y}8]'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output,
            "type:               f32[{x}16, {y}8]\n"
            "mesh:               {x:4, y:2, z:2} (16 devices)\n"
            "local shape:        [4, 4]\n"
            "local bytes:        64\n"
            "replication factor: 2\n");
}

TEST(CliType, ReportsPaddingAndBigByteCounts) {
  auto r = run_redist("type --mesh '{a:16, b:16, c:16, d:16}' 'bf16[{a,b}65536, {c}65536, {d}1024]'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("local shape:        [256, 4096, 64]"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("local bytes:        134217728"), std::string::npos) << r.output;
  auto padded = run_redist("type --mesh '{x:2, y:2}' 'f32[{x,y}5, 3]'");
  ASSERT_EQ(padded.exit_code, 0) << padded.output;
  EXPECT_NE(padded.output.find("padding:            yes"), std::string::npos) << padded.output;
}

TEST(CliType, BadTypeExitsTwoWithPositionAndReason) {
  auto r = run_redist("type --mesh '{x:4, y:2}' 'f32[{x}16, {x}8]'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.output,
            "redist: error in TYPE at column 13: axis 'x' is used twice (first at column 6)\n"
            "  f32[{x}16, {x}8]\n"
            "              ^\n");
}

TEST(CliType, BadMeshExitsTwo) {
  auto r = run_redist("type --mesh '{x:0}' 'f32[16]'");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("error in --mesh at column 4: the size of axis 'x' must be at least 1, found 0"),
            std::string::npos)
      << r.output;
}

TEST(CliType, MissingArgumentsAndUnknownVerbsExitTwo) {
  EXPECT_EQ(run_redist("type 'f32[16]'").exit_code, 2);
  EXPECT_EQ(run_redist("frobnicate").exit_code, 2);
}

TEST(CliHelp, BareRedistPrintsTheUsage) {
  auto bare = run_redist("");
  EXPECT_EQ(bare.exit_code, 0);
  EXPECT_NE(bare.output.find("Exit status: 0 ok, 1 not verified"), std::string::npos) << bare.output;
  EXPECT_NE(bare.output.find("Subcommands:"), std::string::npos) << bare.output;
}

TEST(CliHelp, ExplainsUsage) {
  auto top = run_redist("--help");
  EXPECT_EQ(top.exit_code, 0);
  EXPECT_NE(top.output.find("type"), std::string::npos);
  EXPECT_NE(top.output.find("plan"), std::string::npos);
  auto type = run_redist("type --help");
  EXPECT_EQ(type.exit_code, 0);
  EXPECT_NE(type.output.find("--mesh"), std::string::npos);
  EXPECT_NE(type.output.find("Example: redist type"), std::string::npos);
}

}  // namespace
}  // namespace redist
