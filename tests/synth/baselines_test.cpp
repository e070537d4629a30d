// The baselines: correct plans (never the default), gather_then_slice peaking at the
// whole array, and xla_style following XLA's order on the anchors.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "redist/synth/baselines.hpp"
#include "redist/plan/plan_text.hpp"
#include "synth/synthesis_cases.hpp"
#include "synth/synthesis_checks.hpp"

namespace redist::testing {
namespace {

BigInt whole_array(const DistType& t) { return global_elements(t) * elem_bytes(t.elem); }

RC_GTEST_PROP(Baselines, BothAreCorrectOnRandomPairs, ()) {
  MeshOptions small;
  small.max_devices = 16;
  const ReshardCase c = *gen_reshard_case(small, 3);
  RC_LOG() << c << "\n";
  for (Baseline b : {Baseline::gather_then_slice, Baseline::xla_style}) {
    auto plan = baseline_plan(b, c.mesh, c.src, c.target_mesh, c.dst);
    if (!plan) RC_FAIL(plan.error().to_string());
    const std::string problem = plan_problem(*plan, c.mesh, c.src, c.target_mesh, c.dst, whole_array(c.src));
    if (!problem.empty()) RC_FAIL(std::string(baseline_name(b)) + ": " + problem);
  }
}

Plan baseline(Baseline b, const char* mesh_text, const char* src, const char* dst) {
  const Mesh mesh = parse_mesh(mesh_text).value();
  return baseline_plan(b, mesh, parse_type(src, mesh).value(), mesh, parse_type(dst, mesh).value()).value();
}

TEST(Baselines, NamesRoundTrip) {
  for (Baseline b : {Baseline::gather_then_slice, Baseline::xla_style}) EXPECT_EQ(parse_baseline(baseline_name(b)), b);
  EXPECT_FALSE(parse_baseline("shardy").has_value());
}

TEST(Baselines, GatherThenSlicePeaksAtTheWholeArray) {
  const Plan plan = baseline(Baseline::gather_then_slice, "{x:4, y:2}", "f32[{y}16, 16, {x}16]", "f32[16, {x,y}16, 16]");
  EXPECT_EQ(plan_figures(plan).value().peak_local_bytes, 16 * 16 * 16 * 4);
  EXPECT_EQ(to_string(plan.steps.back()), "all_slice(dim=1, axes={x,y})");
}

TEST(Baselines, XlaStyleReplicatesJax21562) {
  // XLA's "involuntary full rematerialization" of jax#21562.
  const Plan plan = baseline(Baseline::xla_style, "{x:4, y:2}", "f32[{y}16, 16, {x}16]", "f32[16, {x,y}16, 16]");
  EXPECT_EQ(count_steps<AllGather>(plan), 2);
  EXPECT_EQ(plan_figures(plan).value().peak_local_bytes, 16 * 16 * 16 * 4);
}

TEST(Baselines, XlaStyleUsesOnePermuteWhenOnlyTheAssignmentDiffers) {
  const Plan plan = baseline(Baseline::xla_style, "{x:4, y:4, z:16}", "f32[{x,y}512, 128]", "f32[{y,x}512, 128]");
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(count_steps<CollectivePermute>(plan), 1);
}

TEST(Baselines, XlaStyleUsesAllToAllsWhenTileCountsArePermuted) {
  EXPECT_EQ(count_steps<AllToAll>(baseline(Baseline::xla_style, "{x:8}", "f32[{x}16, 8]", "f32[16, {x}8]")), 1);
  const Plan swap = baseline(Baseline::xla_style, "{x:4, y:2}", "f32[{x}16, {y}8]", "f32[{y}16, {x}8]");
  EXPECT_EQ(count_steps<AllGather>(swap), 0);
  EXPECT_EQ(count_steps<CollectivePermute>(swap), 1);
}

TEST(Baselines, XlaStylePermutesThenGathersWhenTheTargetCoarsens) {
  // DTensor's s0s0 -> r s0: XLA emits a collective-permute and an all-gather.
  const Plan plan = baseline(Baseline::xla_style, "{a:2, b:2}", "f32[{a,b}16, 4]", "f32[{b}16, 4]");
  EXPECT_EQ(count_steps<CollectivePermute>(plan), 1);
  EXPECT_EQ(count_steps<AllGather>(plan), 1);
}

TEST(Baselines, XlaStyleReplicatesWhenSizesOnlyShareAGcd) {
  const Plan plan = baseline(Baseline::xla_style, "{x:2, y:3}", "f32[{x}12, 12]", "f32[{y}12, 12]");
  EXPECT_EQ(plan_figures(plan).value().peak_local_bytes, 12 * 12 * 4);
}

TEST(Baselines, ScopeErrorsAreThoseOfSynthesis) {
  // Meshes whose axes do not nest (strides 3 and 2 of {x:2, y:3} against {u:3, v:2}):
  // no common refinement, as synthesize() refuses them.
  const Mesh a = parse_mesh("{x:2, y:3}").value(), b = parse_mesh("{u:3, v:2}").value();
  auto r = baseline_plan(Baseline::xla_style, a, parse_type("f32[{x}24, 8]", a).value(), b,
                         parse_type("f32[{u}24, 8]", b).value());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, Error::Kind::unsupported);
}

TEST(Baselines, PlanPaddedDims) {
  // Slicing into a padded dim: XLA's replicate-then-slice is one local slice here.
  const Plan plan = baseline(Baseline::xla_style, "{x:2, y:2}", "f32[5, 3]", "f32[{x,y}5, 3]");
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_TRUE(std::holds_alternative<AllSlice>(plan.steps[0].op));
  EXPECT_TRUE(type_plan(plan).ok());
}

TEST(Baselines, SourcesSpelledWithSubAxesGetWellTypedPlans) {
  // {x:(1)2,x:(2)3} is x whole: the baselines plan on {x}, whose gather of x:(3)2 the
  // source's own spelling does not name (an MPI run drew this pair: the plan was
  // ill-typed). Both baselines now give correct plans, xla_style re-spelling first.
  const Mesh mesh = parse_mesh("{x:6} devices=[4,5,3,0,1,2]").value();
  const DistType src = parse_type("f64[{x:(1)2,x:(2)3}12]", mesh).value();
  const DistType dst = parse_type("f64[{x:(1)3}12]", mesh).value();
  for (Baseline b : {Baseline::gather_then_slice, Baseline::xla_style}) {
    auto plan = baseline_plan(b, mesh, src, mesh, dst);
    ASSERT_TRUE(plan.ok()) << plan.error().to_string();
    EXPECT_EQ(plan_problem(*plan, mesh, src, mesh, dst, whole_array(src)), "") << baseline_name(b);
  }
  const Plan xla = baseline_plan(Baseline::xla_style, mesh, src, mesh, dst).value();
  ASSERT_EQ(xla.steps.size(), 2u);
  EXPECT_EQ(to_string(xla.steps[1]), "all_gather(dim=0, axes={x:(3)2})");
}

}  // namespace
}  // namespace redist::testing
