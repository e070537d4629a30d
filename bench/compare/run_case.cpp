// Every planner on one case (run_case.hpp).

#include "run_case.hpp"

#include <algorithm>
#include <chrono>

#include "redist/plan/plan_text.hpp"
#include "redist/synth/baselines.hpp"
#include "redist/synth/synthesize.hpp"

namespace redist::compare {

const Measured* CaseResult::find(const std::string& planner) const {
  for (const auto& m : plans)
    if (m.planner == planner) return &m;
  return nullptr;
}

CaseResult run_case(const corpus::Case& c, const CostModel& model, const OptimalOptions& options,
                    SynthOptions synth) {
  CaseResult r;
  r.source = &c;
  r.model = model;
  r.lower_bound = lower_bound(c.mesh, c.src, c.target_mesh, c.dst);
  using Clock = std::chrono::steady_clock;
  auto us_since = [](Clock::time_point t) { return std::chrono::duration<double, std::micro>(Clock::now() - t).count(); };
  synth.cost_model = &model;
  std::vector<double> times;
  Result<Plan> plan = Error{Error::Kind::runtime, "not run", Error::npos};
  for (int i = 0; i < 5; ++i) {
    const auto t = Clock::now();
    plan = synthesize(c.mesh, c.src, c.target_mesh, c.dst, synth);
    times.push_back(us_since(t));
  }
  std::nth_element(times.begin(), times.begin() + 2, times.end());
  r.greedy_us = times[2];
  r.greedy_text = plan ? to_string(*plan) : plan.error().to_string();
  r.plans.push_back(measure(model, "greedy", plan));
  const auto t = Clock::now();
  auto best = optimal_plan(model, c.mesh, c.src, c.target_mesh, c.dst, options);
  r.optimal_us = us_since(t);
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
