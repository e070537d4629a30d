// The Shardy reshard suite: for every case within scope, our plan is correct and in
// normal form, and its peak and received bytes (max and total over devices) are at
// most those of the collectives Shardy emits (run through the same figures). Cases out
// of scope are skipped with the reason (listed in docs/synthesis.md).

#include <gtest/gtest.h>

#include <iostream>

#include "redist/synth/synthesize.hpp"
#include "synth/shardy_cases.hpp"
#include "synth/synthesis_checks.hpp"

namespace redist::testing {
namespace {

std::vector<ShardyCase> shardy_cases() {
  return load_shardy_cases(std::string(REDIST_TEST_DATA_DIR) + "/shardy_reshard_to_collectives.json");
}

std::map<std::string, Mesh> shardy_meshes() {
  std::ifstream in(std::string(REDIST_TEST_DATA_DIR) + "/shardy_reshard_to_collectives.json");
  const auto json = nlohmann::json::parse(in);
  std::map<std::string, Mesh> out;
  for (const auto& [name, text] : json["meshes"].items())
    if (auto mesh = parse_mesh(mesh_text(text.get<std::string>()))) out.emplace(name, *mesh);
  return out;
}

class ShardySuite : public ::testing::TestWithParam<ShardyCase> {};

TEST_P(ShardySuite, PeakAndReceivedBytesAtMostShardys) {
  const ShardyCase& c = GetParam();
  if (!c.skip.empty()) GTEST_SKIP() << c.skip;
  auto mesh = parse_mesh(c.mesh);
  auto target_mesh = parse_mesh(c.target_mesh);
  if (!mesh || !target_mesh) GTEST_SKIP() << "empty mesh, not expressible in our notation";
  if (!mesh->same_axes(*target_mesh))
    GTEST_SKIP() << "the meshes have different axes: planned on their refinement (docs/meshes.md), "
                    "not compared with Shardy here";
  auto src = parse_type(c.src, *mesh);
  auto dst = parse_type(c.dst, *target_mesh);
  ASSERT_TRUE(src.ok()) << c.src << ": " << src.error().to_string();
  ASSERT_TRUE(dst.ok()) << c.dst << ": " << dst.error().to_string();
  if (has_padding(*src) || has_padding(*dst)) GTEST_SKIP() << "out of scope: non-divisible dims";

  auto ours = synthesize(*mesh, *src, *target_mesh, *dst);
  ASSERT_TRUE(ours.ok()) << ours.error().to_string();
  EXPECT_TRUE(is_valley(*ours)) << to_string(*ours);
  const BigInt bound = std::max(local_bytes(*src), local_bytes(*dst));
  EXPECT_EQ(plan_problem(*ours, *mesh, *src, *target_mesh, *dst, bound), "");

  const auto shardy = shardy_steps(c.check_lines, *mesh, *src, shardy_meshes());
  ASSERT_EQ(shardy.error, "");
  Plan theirs{*mesh, *src, shardy.steps, *dst};
  // Shardy elides the device-order change of replicated data (`return %arg0`); our
  // plans end on the target mesh, so add that permute (free when nothing moves).
  if (auto states = type_plan(theirs); states && !states->empty() ? !(states->back().mesh == *target_mesh)
                                                                   : !(*mesh == *target_mesh)) {
    Step permute;
    permute.op = CollectivePermute{*dst, *target_mesh};
    theirs.steps.push_back(permute);
  }
  const BigInt whole = global_elements(*src) * elem_bytes(src->elem);
  ASSERT_EQ(plan_problem(theirs, *mesh, *src, *target_mesh, *dst, whole), "") << "Shardy's plan, translated";

  const auto a = plan_figures(*ours), b = plan_figures(theirs);
  ASSERT_TRUE(a.ok() && b.ok());
  std::cout << "[shardy] " << c.name << " peak " << a->peak_local_bytes << "/" << b->peak_local_bytes << " recv max "
            << a->recv_bytes_max << "/" << b->recv_bytes_max << " total " << a->recv_bytes_total << "/"
            << b->recv_bytes_total << " steps " << ours->steps.size() << "/" << theirs.steps.size() << "\n";
  EXPECT_LE(a->peak_local_bytes, b->peak_local_bytes) << "ours:\n" << to_string(*ours) << "Shardy:\n" << to_string(theirs);
  EXPECT_LE(a->recv_bytes_max, b->recv_bytes_max) << "ours:\n" << to_string(*ours) << "Shardy:\n" << to_string(theirs);
  // Plans are ranked by the bytes on each device's links (the slowest device sets the
  // time): more in total is allowed only for strictly fewer per device.
  if (a->recv_bytes_max == b->recv_bytes_max)
    EXPECT_LE(a->recv_bytes_total, b->recv_bytes_total) << "ours:\n" << to_string(*ours) << "Shardy:\n"
                                                        << to_string(theirs);
  else if (a->recv_bytes_total > b->recv_bytes_total)
    std::cout << "[shardy] exception " << c.name << ": fewer bytes per device, more in total\n";
}

std::string case_name(const ::testing::TestParamInfo<ShardyCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(Shardy, ShardySuite, ::testing::ValuesIn(shardy_cases()), case_name);

TEST(ShardySuiteScope, MostCasesAreCompared) {
  int compared = 0;
  for (const auto& c : shardy_cases()) {
    auto mesh = parse_mesh(c.mesh), target_mesh = parse_mesh(c.target_mesh);
    if (!c.skip.empty() || !mesh || !target_mesh || !mesh->same_axes(*target_mesh)) continue;
    auto src = parse_type(c.src, *mesh), dst = parse_type(c.dst, *target_mesh);
    compared += src && dst && !has_padding(*src) && !has_padding(*dst);
  }
  EXPECT_GE(compared, 70);
}

}  // namespace
}  // namespace redist::testing
