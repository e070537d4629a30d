// The lowered form's symbolic descriptions agree with the explicit tables the
// interpreter runs (device_groups, permute_pairs), on random plans.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "redist/plan/lowered.hpp"
#include "redist/plan/lowering.hpp"
#include "tests/synth/plan_gen.hpp"

namespace redist::testing {
namespace {

RC_GTEST_PROP(CheckerLowered, SymbolicFormsMatchTheTables, ()) {
  const Plan plan = *gen_plan(4);
  auto lowered = lower(plan);
  RC_ASSERT(lowered.ok());
  RC_ASSERT(lowered->steps.size() == plan.steps.size());
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const LoweredStep& step = lowered->steps[k];
    if (const auto* p = std::get_if<LoweredPermute>(&step.op)) {
      const DevicePairs expected = plan.steps[k].pairs ? *plan.steps[k].pairs : permute_pairs(step.before, step.after);
      RC_ASSERT(pair_table(*p, step.before.mesh, step.after.mesh) == expected);
      continue;
    }
    const DeviceGroups groups = step_groups(step.before, plan.steps[k]);
    std::visit(
        [&](const auto& s) {
          if constexpr (!std::is_same_v<std::decay_t<decltype(s)>, LoweredPermute>)
            RC_ASSERT(group_table(s.group, step.before.mesh) == groups);
        },
        step.op);
    if (const auto* s = std::get_if<LoweredSlice>(&step.op)) {
      const auto offsets = slice_offsets(*s, step.before.mesh);
      for (const auto& group : groups)
        for (std::size_t i = 0; i < group.size(); ++i)
          RC_ASSERT(offsets[static_cast<std::size_t>(group[i])] == static_cast<int64_t>(i) * s->chunk);
    }
    if (const auto* a = std::get_if<LoweredAllToAll>(&step.op)) {
      const auto& op = std::get<AllToAll>(plan.steps[k].op);
      RC_ASSERT(a->split_dim == op.dst_dim);
      RC_ASSERT(a->concat_dim == op.src_dim);
    }
  }
}

TEST(CheckerLowered, IllTypedPlanIsAnError) {
  Plan plan;
  plan.mesh = *parse_mesh("{x:2}");
  plan.source = *parse_type("f32[{x}4]", plan.mesh);
  plan.steps.push_back({AllSlice{0, {{"x", 1, 2, false}}}, std::nullopt, std::nullopt});
  EXPECT_FALSE(lower(plan).ok());
}

}  // namespace
}  // namespace redist::testing
