// Figures of one plan: exact bytes (plan_figures), modeled time (plan_cost), profile.

#include "measure.hpp"

#include <iterator>
#include <variant>

#include "redist/plan/figures.hpp"

namespace redist::compare {

namespace {

/// "A2A(4)", "AG(2)", "CP", "AS", "RS(2)", "AR(8)", "AP", "T" for one step of group
/// size `g` (the names in StepOp's order; one per alternative, checked at compile time).
std::string short_name(const Step& step, int64_t g) {
  static constexpr const char* kNames[] = {"AS", "AG", "A2A", "CP", "RS", "AR", "AP", "T"};
  static_assert(std::size(kNames) == std::variant_size_v<StepOp>);
  std::string out = kNames[step.op.index()];
  if (std::holds_alternative<AllGather>(step.op) || std::holds_alternative<AllToAll>(step.op) ||
      std::holds_alternative<ReduceScatter>(step.op) || std::holds_alternative<AllReduce>(step.op))
    out += "(" + std::to_string(g) + ")";
  return out;
}

}  // namespace

Measured measure(const CostModel& model, const std::string& planner, const Result<Plan>& plan) {
  Measured m;
  m.planner = planner;
  if (!plan) {
    m.status = plan.error().to_string();
    return m;
  }
  auto figures = plan_figures(*plan);
  auto cost = plan_cost(model, *plan);
  if (!figures || !cost) {
    m.status = "no figures: " + (figures ? cost.error() : figures.error()).to_string();
    return m;
  }
  m.status = "ok";
  m.steps = static_cast<int>(plan->steps.size());
  m.collectives = cost->collectives;
  m.time_us = cost->time_us;
  m.wire_bytes = cost->wire_bytes;
  m.peak_bytes = figures->peak_local_bytes;
  m.recv_max = figures->recv_bytes_max;
  m.recv_total = figures->recv_bytes_total;
  m.profile.push_back(figures->source_local_bytes);
  for (std::size_t k = 0; k < plan->steps.size(); ++k) {
    const StepCost& c = cost->steps[k];
    if (c.link == LinkClass::inter) m.inter_bytes += c.wire_bytes;
    m.profile.push_back(figures->steps[k].local_bytes_after);
    m.shape += (k ? " " : "") + short_name(plan->steps[k], figures->steps[k].group_size);
  }
  return m;
}

}  // namespace redist::compare
