#pragma once
// Helpers of the tests of the default plans' link-class forms (split_by_class.hpp,
// gather_order.hpp, permute_first.hpp): a reshard case, the model with x inter-node,
// the default plan under a model with the checks every plan must pass, and its cost
// against the optimal plan's.

#include <gtest/gtest.h>

#include <algorithm>
#include <optional>

#include "redist/plan/plan_text.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/optimal.hpp"
#include "redist/synth/synthesize.hpp"
#include "synth/synthesis_checks.hpp"

namespace redist::testing {

/// A reshard: `src` on `mesh` to `dst` on `target_mesh`.
struct LinkCase {
  Mesh mesh, target_mesh;
  DistType src, dst;
};

/// The case of the texts (the target mesh is `mesh` unless `target_mesh` is given).
inline LinkCase case_of(const char* mesh, const char* src, const char* dst, const char* target_mesh = nullptr) {
  LinkCase c;
  c.mesh = parse_mesh(mesh).value();
  c.target_mesh = target_mesh ? parse_mesh(target_mesh).value() : c.mesh;
  c.src = parse_type(src, c.mesh).value();
  c.dst = parse_type(dst, c.target_mesh).value();
  return c;
}

/// The model with the mesh axis x inter-node and every other axis intra-node.
inline CostModel x_inter() { return parse_cost_model("x = inter\n").value(); }

/// The default plan of `c` under `model`, checked (typed, at the target, within
/// max(source, target) bytes, every element in place under the interpreter).
inline Plan checked_plan(const LinkCase& c, const CostModel& model) {
  SynthOptions options;
  options.cost_model = &model;
  auto plan = synthesize(c.mesh, c.src, c.target_mesh, c.dst, options);
  EXPECT_TRUE(plan.ok()) << plan.error().to_string();
  if (!plan.ok()) return Plan{c.mesh, c.src, {}, c.dst};
  const BigInt bound = std::max(local_bytes(c.src), local_bytes(c.dst));
  EXPECT_EQ(plan_problem(*plan, c.mesh, c.src, c.target_mesh, c.dst, bound), "");
  return *plan;
}

/// Expects `plan` (of `c`) to cost under `model` what the optimal search's plan costs.
inline void expect_optimal_cost(const LinkCase& c, const CostModel& model, const Plan& plan) {
  auto best = optimal_plan(model, c.mesh, c.src, c.target_mesh, c.dst);
  ASSERT_TRUE(best.ok()) << best.error().to_string();
  EXPECT_NEAR(plan_cost(model, plan)->time_us, best->time_us, 1e-9 * best->time_us)
      << to_string(plan) << "optimal:\n" << to_string(best->plan);
}

}  // namespace redist::testing
