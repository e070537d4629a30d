// Every planner on one case (run_case.hpp).

#include "run_case.hpp"

#include "redist/synth/baselines.hpp"
#include "redist/synth/synthesize.hpp"

namespace redist::compare {

const Measured* CaseResult::find(const std::string& planner) const {
  for (const auto& m : plans)
    if (m.planner == planner) return &m;
  return nullptr;
}

CaseResult run_case(const corpus::Case& c, const CostModel& model, const OptimalOptions& options) {
  CaseResult r;
  r.source = &c;
  r.model = model;
  r.lower_bound = lower_bound(c.mesh, c.src, c.target_mesh, c.dst);
  r.plans.push_back(measure(model, "greedy", synthesize(c.mesh, c.src, c.target_mesh, c.dst)));
  auto best = optimal_plan(model, c.mesh, c.src, c.target_mesh, c.dst, options);
  if (best) {
    r.optimal_expanded = best->expanded;
    r.plans.push_back(measure(model, "optimal", best->plan));
  } else {
    r.plans.push_back(measure(model, "optimal", best.error()));
  }
  if (c.shardy) r.plans.push_back(measure(model, "shardy", *c.shardy));
  for (auto b : {Baseline::xla_style, Baseline::gather_then_slice})
    r.plans.push_back(measure(model, std::string(baseline_name(b)), baseline_plan(b, c.mesh, c.src, c.target_mesh, c.dst)));
  return r;
}

}  // namespace redist::compare
