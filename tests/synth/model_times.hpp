#pragma once
// The modeled times of the default call's plan and of the optimal plan of one pair under
// a cost model, the default plan checked by the interpreter: the builder tests' way of
// saying that a seed brings the default call to the optimum.

#include <gtest/gtest.h>

#include <algorithm>
#include <utility>

#include "redist/synth/cost_model.hpp"
#include "redist/synth/optimal.hpp"
#include "redist/synth/synthesize.hpp"
#include "synth/synthesis_checks.hpp"

namespace redist::testing {

/// Returns the modeled times under `cost_model` (a cost-model file's text) of the
/// default call's plan with no search and of the optimal plan from `src_text` to
/// `dst_text` on `mesh_text`; {-1, -1} after a failed expectation.
inline std::pair<double, double> default_and_optimal_us(const char* mesh_text, const char* src_text,
                                                        const char* dst_text, const char* cost_model) {
  const Mesh mesh = parse_mesh(mesh_text).value();
  const DistType src = parse_type(src_text, mesh).value(), dst = parse_type(dst_text, mesh).value();
  const CostModel model = parse_cost_model(cost_model).value();
  SynthOptions options;
  options.cost_model = &model;
  options.max_expanded = 0;
  const auto plan = synthesize(mesh, src, dst, options);
  EXPECT_TRUE(plan.ok()) << plan.error().to_string();
  const auto best = optimal_plan(model, mesh, src, mesh, dst);
  EXPECT_TRUE(best.ok()) << best.error().to_string();
  if (!plan.ok() || !best.ok()) return {-1, -1};
  EXPECT_EQ(plan_problem(*plan, mesh, src, mesh, dst, std::max(local_bytes(src), local_bytes(dst))), "");
  return {plan_cost(model, *plan)->time_us, best->time_us};
}

}  // namespace redist::testing
