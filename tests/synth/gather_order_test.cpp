// The order of gathers on different dims (synth/src/gather_order.hpp): dim 0 last, so
// XLA gathers the other dims on the smaller buffer; never at a higher modeled cost, and
// gathers of one dim (split by link class) keep their order.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "redist/plan/plan_text.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/synthesize.hpp"
#include "synth/synthesis_checks.hpp"

namespace redist::testing {
namespace {

/// The kinds and dims of `plan`'s steps, e.g. "all_gather(1) all_gather(0)".
std::string gathers_of(const Plan& plan) {
  std::string out;
  for (const auto& s : plan.steps)
    if (const auto* g = std::get_if<AllGather>(&s.op)) out += fmt::format("{}all_gather({})", out.empty() ? "" : " ", g->dim);
  return out;
}

TEST(GatherOrder, TheMajorDimIsGatheredLast) {
  const Mesh mesh = parse_mesh("{x:2, y:4}").value();
  const DistType src = parse_type("f64[{x}6, {y}43688, 2]", mesh).value();
  const DistType dst = parse_type("f64[6, 43688, 2]", mesh).value();
  auto plan = synthesize(mesh, src, dst);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_EQ(gathers_of(*plan), "all_gather(1) all_gather(0)") << to_string(*plan);
  EXPECT_EQ(plan_problem(*plan, mesh, src, mesh, dst, local_bytes(dst)), "");
}

TEST(GatherOrder, TheCheaperOrderStaysUnderLinkClasses) {
  // x inter-node: gathering x while the buffer is small is cheaper, whatever its dim.
  const Mesh mesh = parse_mesh("{x:2, y:4}").value();
  const DistType src = parse_type("f32[{x}4096, {y}4096]", mesh).value();
  const DistType dst = parse_type("f32[4096, 4096]", mesh).value();
  const CostModel model = parse_cost_model("x = inter\n").value();
  SynthOptions options;
  options.cost_model = &model;
  auto plan = synthesize(mesh, src, dst, options);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_EQ(gathers_of(*plan), "all_gather(0) all_gather(1)") << to_string(*plan);
}

}  // namespace
}  // namespace redist::testing
