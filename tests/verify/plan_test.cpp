// Multi-step hand plans run with run_plan and compared with the final type.

#include <gtest/gtest.h>

#include "helpers.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/verify/interpreter.hpp"

namespace redist::testing {
namespace {

/// A plan from `source_text` on the mesh `mesh_text` through steps running `ops`.
Plan plan_of(std::string_view mesh_text, std::string_view source_text, std::vector<StepOp> ops) {
  Mesh mesh = mesh_of(mesh_text);
  DistType source = type_of(source_text, mesh);
  std::vector<Step> steps;
  for (auto& op : ops) steps.push_back(make_step(std::move(op)));
  return {std::move(mesh), std::move(source), std::move(steps), std::nullopt};
}

/// Runs `plan` on the distributed source and checks every device against the last
/// state's type; when `final_text` is given, checks that this is the final type.
void expect_plan_correct(const Plan& plan, std::string_view final_text = {}) {
  const auto states = type_plan(plan);
  ASSERT_TRUE(states.ok()) << states.error().to_string();
  const TypedState& last = states->empty() ? TypedState{plan.mesh, plan.source} : states->back();
  if (!final_text.empty()) {
    EXPECT_EQ(canonical(last.type, last.mesh), canonical(type_of(final_text, last.mesh), last.mesh))
        << to_string(last.type);
  }
  const auto out = run_plan(plan, distribute(plan.mesh, plan.source));
  ASSERT_TRUE(out.ok()) << out.error().to_string();
  const auto m = compare(last.mesh, last.type, *out);
  EXPECT_FALSE(m.has_value()) << m->to_string();
}

TEST(VerifyPlan, AllToAllOverASubAxisThenGather) {
  expect_plan_correct(plan_of("{x:4, y:2}", "f32[{x}16, {y}8]",
                              {{AllToAll{0, 1, {sub_axis("x", 2, 2)}}},
                               {AllGather{1, {axis("y", 2), sub_axis("x", 2, 2)}}}}),
                      "f32[{x:(1)2}16, 8]");
}

TEST(VerifyPlan, Transpose) {
  expect_plan_correct(plan_of("{x:4}", "f32[{x}8, 8]", {{AllToAll{0, 1, {axis("x", 4)}}}}), "f32[8, {x}8]");
}

TEST(VerifyPlan, SwapAxesWithAPermute) {
  const Mesh mesh = mesh_of("{x:2, y:2}");
  expect_plan_correct(
      plan_of("{x:2, y:2}", "f32[{x}8, {y}8]", {{CollectivePermute{type_of("f32[{y}8, {x}8]", mesh), std::nullopt}}}),
      "f32[{y}8, {x}8]");
}

TEST(VerifyPlan, ReduceScatterThenGather) {
  expect_plan_correct(plan_of("{x:2, y:4}", "f32[{x}8, 8] sum{y}",
                              {{ReduceScatter{1, {axis("y", 4)}}}, {AllGather{1, {axis("y", 4)}}}}),
                      "f32[{x}8, 8]");
}

TEST(VerifyPlan, PartialAllReduceThenReduceScatter) {
  expect_plan_correct(plan_of("{x:2, y:2, z:2}", "f32[{x}4, 6] max{y, z}",
                              {{AllReduce{{axis("z", 2)}}}, {ReduceScatter{1, {axis("y", 2)}}}}),
                      "f32[{x}4, {y}6]");
}

TEST(VerifyPlan, ValleyThroughSliceAllToAllPermuteGather) {
  const Mesh mesh = mesh_of("{x:2, y:2}");
  expect_plan_correct(plan_of("{x:2, y:2}", "f32[{x}8, 8]",
                              {{AllSlice{1, {axis("y", 2)}}},
                               {AllToAll{0, 1, {axis("x", 2)}}},
                               {CollectivePermute{type_of("f32[8, {x,y}8]", mesh), std::nullopt}},
                               {AllGather{1, {axis("y", 2)}}}}),
                      "f32[8, {x}8]");
}

TEST(VerifyPlan, DeviceOrderChangeThenGather) {
  const Mesh mesh = mesh_of("{x:2, y:2}");
  const Mesh reordered = mesh_of("{x:2, y:2} devices=[3, 2, 1, 0]");
  expect_plan_correct(plan_of("{x:2, y:2}", "f32[{x}4, {y}4]",
                              {{CollectivePermute{type_of("f32[{x}4, {y}4]", mesh), reordered}},
                               {AllGather{0, {axis("x", 2)}}}}),
                      "f32[4, {y}4]");
}

TEST(VerifyPlan, FromPlanText) {
  const auto plan = parse_plan(
      "mesh {x:4, y:2}\n"
      "source f32[{x}16, {y}8]\n"
      "all_to_all(src=0, dst=1, axes={x:(2)2})\n"
      "all_gather(dim=0, axes={x:(1)2})\n"
      "target f32[16, {y, x:(2)2}8]\n");
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  expect_plan_correct(*plan, "f32[16, {y, x:(2)2}8]");
}

TEST(VerifyPlan, RefusesAWrongTargetOrAnIllTypedStep) {
  Plan plan = plan_of("{x:2}", "f32[{x}4]", {{AllGather{0, {axis("x", 2)}}}});
  plan.target = type_of("f32[{x}4]", plan.mesh);
  EXPECT_FALSE(run_plan(plan, distribute(plan.mesh, plan.source)).ok());
  plan.target.reset();
  plan.steps.push_back(make_step(AllGather{0, {axis("x", 2)}}));
  EXPECT_FALSE(run_plan(plan, distribute(plan.mesh, plan.source)).ok());
}

TEST(VerifyPlan, PaddedGathersDropThePadding) {
  // The anchor nested_uneven_gather: | 0 1 | 2 3 | 4 - | - - | keeps 0..4.
  expect_plan_correct(plan_of("{x:2, y:2}", "f32[{x,y}5, 3]", {{AllGather{0, {axis("x", 2), axis("y", 2)}}}}),
                      "f32[5, 3]");
  // 5 rows on 8 devices: three shards are all padding.
  expect_plan_correct(plan_of("{x:8}", "f32[{x}5, 4]", {{AllGather{0, {axis("x", 8)}}}}), "f32[5, 4]");
  // Nesting chunks: 2 x ceil(7/4) = ceil(7/2); x=1 gets | 4 5 | 6 - |.
  expect_plan_correct(plan_of("{x:2, y:2}", "f32[{x,y}7, 3]", {{AllGather{0, {axis("y", 2)}}}}), "f32[{x}7, 3]");
  // A 3x2 mesh, dim 1 gathered while dim 0 stays padded.
  expect_plan_correct(plan_of("{x:3, y:2}", "f32[{y}5, {x}7]", {{AllGather{1, {axis("x", 3)}}}}), "f32[{y}5, 7]");
  // Gathered in two steps: minor axis first (nests: 2 x 2 = ceil(7/2)), then the rest.
  expect_plan_correct(plan_of("{x:2, y:2}", "f32[{x,y}7]", {{AllGather{0, {axis("y", 2)}}}, {AllGather{0, {axis("x", 2)}}}}),
                      "f32[7]");
}

TEST(VerifyPlan, EmptyPlanKeepsTheData) {
  const Plan plan = plan_of("{x:2}", "f32[{x}4]", {});
  const auto data = distribute(plan.mesh, plan.source);
  const auto out = run_plan(plan, data);
  ASSERT_TRUE(out.ok()) << out.error().to_string();
  EXPECT_EQ(*out, data);
}

}  // namespace
}  // namespace redist::testing
