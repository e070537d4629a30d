// What synthesize() refuses and why, the budget, and the pairs that need the less
// common constructions (slices after an all_to_all, gathers before one).

#include <gtest/gtest.h>

#include "redist/synth/synthesize.hpp"
#include "redist/verify/checker.hpp"
#include "synth/synthesis_checks.hpp"

namespace redist::testing {
namespace {

Result<Plan> plan_of(const char* mesh_text, const char* src, const char* dst, SynthOptions options = {},
                     const char* target_mesh = nullptr) {
  const Mesh mesh = parse_mesh(mesh_text).value();
  const Mesh tmesh = target_mesh ? parse_mesh(target_mesh).value() : mesh;
  return synthesize(mesh, parse_type(src, mesh).value(), tmesh, parse_type(dst, tmesh).value(), options);
}

void expect_error(const Result<Plan>& r, Error::Kind kind, const std::string& part) {
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, kind);
  EXPECT_NE(r.error().message.find(part), std::string::npos) << r.error().message;
}

/// Expects a plan of `steps` all_gathers from `src` to `dst` on `mesh_text`, proved
/// correct within the bound by Z3 and leaving every real target element right in the
/// interpreter (padding never read into a real slot).
void expect_padded_gather_plan(const char* mesh_text, const char* src, const char* dst, std::size_t steps) {
  SCOPED_TRACE(std::string(mesh_text) + " " + src + " -> " + dst);
  const auto plan = plan_of(mesh_text, src, dst);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_EQ(plan->steps.size(), steps) << to_string(*plan);
  for (const auto& step : plan->steps) EXPECT_TRUE(std::holds_alternative<AllGather>(step.op)) << to_string(*plan);
  const auto report = check_plan(*plan);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_EQ(report->correct.verdict, Verdict::proved) << report->correct.detail;
  EXPECT_EQ(report->memory.verdict, Verdict::proved) << report->memory.detail;
  const auto data = run_plan(*plan, distribute(plan->mesh, plan->source));
  ASSERT_TRUE(data.ok()) << data.error().to_string();
  const auto mismatch = compare(plan->mesh, *plan->target, *data);
  EXPECT_FALSE(mismatch) << mismatch->to_string();
}

TEST(SynthesizeScope, PaddedDimsGatheredWholeArePlanned) {
  expect_padded_gather_plan("{x:2, y:2}", "f32[{x,y}5, 3]", "f32[5, 3]", 1);  // nested_uneven_gather
  expect_padded_gather_plan("{x:4}", "f32[{x}5, 10]", "f32[5, 10]", 1);
  expect_padded_gather_plan("{x:8}", "f32[{x}5, 4]", "f32[5, 4]", 1);  // three empty shards
  expect_padded_gather_plan("{x:8}", "f32[{x}50257, 2]", "f32[50257, 2]", 1);
  expect_padded_gather_plan("{x:3, y:2}", "f32[{x,y}50257]", "f32[50257]", 1);
  expect_padded_gather_plan("{x:4, y:2}", "f32[{x}5, {y}7]", "f32[5, 7]", 2);  // two padded dims
}

TEST(SynthesizeScope, EverySizeGatheredWholeIsPlannedAndProved) {
  // Every size 1..13 not divisible by the tiling (1 row on 8 devices included), with a
  // divisible dim that stays tiled beside it.
  struct Case {
    const char *mesh, *axes, *kept;  // the padded dim's axes; dim 1's, kept in the target
  };
  const std::vector<Case> cases = {
      {"{x:2, y:2}", "{x,y}", ""}, {"{x:3, y:2}", "{y,x}", ""}, {"{x:8}", "{x}", ""}, {"{x:4, y:2}", "{x}", "{y}"}};
  int planned = 0;
  for (const auto& [mesh, axes, kept] : cases) {
    for (int n = 1; n <= 13; ++n) {
      const std::string src = std::string("f32[") + axes + std::to_string(n) + ", " + kept + "6]";
      const std::string dst = "f32[" + std::to_string(n) + ", " + kept + "6]";
      const Mesh m = parse_mesh(mesh).value();
      if (!has_padding(parse_type(src, m).value())) continue;
      expect_padded_gather_plan(mesh, src.c_str(), dst.c_str(), 1);
      ++planned;
    }
  }
  EXPECT_GE(planned, 30);
}

TEST(SynthesizeScope, OtherNonDivisibleDimsArePlanned) {
  // Slicing into a padded dim, re-tiling one where blocks nest, an all_to_all out of one
  // (tests/synth/synthesize_uneven_test.cpp checks many more).
  const char* pairs[][3] = {{"{x:4}", "f32[5, 8]", "f32[{x}5, 8]"},
                            {"{x:2, y:2}", "f32[{x,y}5, 3]", "f32[{x}5, 3]"},
                            {"{x:4}", "f32[{x}5, 8]", "f32[5, {x}8]"},
                            {"{x:3, y:2}", "f32[{y}6, {x}7]", "f32[{x}6, 7]"}};
  for (const auto& [mesh_text, src, dst] : pairs) {
    SCOPED_TRACE(std::string(mesh_text) + " " + src + " -> " + dst);
    const auto plan = plan_of(mesh_text, src, dst);
    ASSERT_TRUE(plan.ok()) << plan.error().to_string();
    const Mesh mesh = parse_mesh(mesh_text).value();
    const DistType s = parse_type(src, mesh).value(), d = parse_type(dst, mesh).value();
    EXPECT_EQ(plan_problem(*plan, mesh, s, mesh, d, std::max(local_bytes(s), local_bytes(d))), "");
  }
}

TEST(SynthesizeScope, AddedPendingReductionsOverTiledAxesAreInvalid) {
  // Over an axis the source replicates it is add_pending (Replicate -> Partial); over
  // one a source dim uses it is refused.
  expect_error(plan_of("{a:2, b:2}", "f32[16, {b}16] sum{a}", "f32[16, 16] sum{a,b}"), Error::Kind::invalid,
               "but dim 1 of the source f32[16, {b}16] sum{a} is tiled over b");
  EXPECT_TRUE(plan_of("{a:2, b:2}", "f32[16, 16] sum{a}", "f32[16, 16] sum{a,b}").ok());
}

TEST(SynthesizeScope, MeshesWithOtherAxesAreRefinedWhenTheyNest) {
  // docs/meshes.md: planned on the common refinement when the axes nest.
  const Mesh a = parse_mesh("{x:6}").value(), b = parse_mesh("{x:2, y:3}").value();
  auto plan = synthesize(a, parse_type("f32[{x}24, 8]", a).value(), b, parse_type("f32[{x}24, 8]", b).value());
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_EQ(to_string(plan->mesh), "{x_0:2, y:3}");
  const Mesh c = parse_mesh("{u:3, v:2}").value();
  expect_error(synthesize(b, parse_type("f32[{x}24, 8]", b).value(), c, parse_type("f32[{u}24, 8]", c).value()),
               Error::Kind::unsupported, "no common refinement");
}

TEST(SynthesizeScope, DifferentArraysAreInvalid) {
  expect_error(plan_of("{x:4}", "f32[{x}16, 8]", "f32[{x}16, 4]"), Error::Kind::invalid, "global shapes");
  expect_error(plan_of("{x:4}", "f32[{x}16, 8]", "bf16[{x}16, 8]"), Error::Kind::invalid, "element types");
}

TEST(SynthesizeScope, InvalidTypesAreInvalid) {
  const Mesh mesh = parse_mesh("{x:4}").value();
  DistType bad = parse_type("f32[{x}16, 8]", mesh).value();
  bad.dims[1].axes.push_back(AxisRef{"x", 1, 4, false});  // x used twice
  expect_error(synthesize(mesh, bad, mesh, bad), Error::Kind::invalid, "source");
}

TEST(SynthesizeScope, BudgetBelowSourceOrTargetHasNoPlan) {
  // Source 64 bytes per device, target 256.
  expect_error(plan_of("{x:4}", "f32[{x}16, 4]", "f32[16, 4]", SynthOptions{255}), Error::Kind::no_plan, "budget");
  EXPECT_TRUE(plan_of("{x:4}", "f32[{x}16, 4]", "f32[16, 4]", SynthOptions{256}).ok());
}

TEST(SynthesizeScope, AWholeArrayBudgetStillPrefersTheCheaperValley) {
  auto plan = plan_of("{x:4, y:2}", "f32[{y}16, 16, {x}16]", "f32[16, {x,y}16, 16]", SynthOptions{uint64_t{1} << 40});
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(count_steps<AllGather>(*plan), 0);
}

TEST(SynthesizeScope, PlansAreDeterministic) {
  auto a = plan_of("{x:2, y:2, z:2}", "f32[{y}16, {x,z}8, 8]", "f32[16, 8, {x,y,z}8]");
  auto b = plan_of("{x:2, y:2, z:2}", "f32[{y}16, {x,z}8, 8]", "f32[16, 8, {x,y,z}8]");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(*a, *b);
}

/// Checks the plan of a pair found by the property tests.
void check_pair(const char* mesh_text, const char* src_text, const char* dst_text, const char* target_mesh = nullptr) {
  const Mesh mesh = parse_mesh(mesh_text).value();
  const Mesh tmesh = target_mesh ? parse_mesh(target_mesh).value() : mesh;
  const DistType src = parse_type(src_text, mesh).value(), dst = parse_type(dst_text, tmesh).value();
  auto plan = synthesize(mesh, src, tmesh, dst);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_EQ(plan_problem(*plan, mesh, src, tmesh, dst, std::max(local_bytes(src), local_bytes(dst))), "");
}

TEST(SynthesizeScope, AnAtomThatMustArriveBelowASlicedOneIsSlicedAfterTheAllToAll) {
  // y:(1)2 must reach dim 2 before y:(2)3 is sliced on top of it.
  check_pair("{x:7, y:6, z:5}", "f32[1, {y:(1)2}14, 6]", "f32[1, {x}14, {y}6]");
}

TEST(SynthesizeScope, AnAtomThatFitsNowhereIsSwappedInByThePermute) {
  check_pair("{x:2, y:2, z:3, w:2}", "f32[{z,x}6, 3, 1]", "f32[{y}6, {z}3, 1]", "{x:2, y:2, z:3, w:2} devices=[0,23,22,21,20,19,18,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1]");
}

TEST(SynthesizeScope, AFullyUsedMeshWithoutRoomGathersBeforeItMoves) {
  // No valley exists: every axis is used and no dim has room to reorder first.
  const Mesh mesh = parse_mesh("{x:1, y:2, z:3, w:3}").value();
  const Mesh tmesh = parse_mesh("{x:1, y:2, z:3, w:3} devices=[0,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1]").value();
  check_pair("{x:1, y:2, z:3, w:3}", "f32[{w}6, {y,z}6]", "f32[{y}6, 6]",
             "{x:1, y:2, z:3, w:3} devices=[0,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1]");
  auto plan = synthesize(mesh, parse_type("f32[{w}6, {y,z}6]", mesh).value(), tmesh,
                         parse_type("f32[{y}6, 6]", tmesh).value());
  ASSERT_TRUE(plan.ok());
  EXPECT_FALSE(is_valley(*plan));
}

}  // namespace
}  // namespace redist::testing
