#include "plan_json.hpp"

#include "redist/plan/plan_text.hpp"

namespace redist::cli {

nlohmann::json plan_json(const Plan& plan, const std::vector<TypedState>& states, const PlanFigures& f) {
  nlohmann::json out;
  const TypedState& last = states.empty() ? TypedState{plan.mesh, plan.source} : states.back();
  out["source"] = to_string(canonical(plan.source, plan.mesh));
  out["target"] = to_string(plan.target ? canonical(*plan.target, last.mesh) : last.type);
  out["steps"] = nlohmann::json::array();
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const StepFigures& s = f.steps[k];
    // The reduction operator of a reduce_scatter / all_reduce (the type's before it).
    const DistType& before = k == 0 ? plan.source : states[k - 1].type;
    const bool reducing = std::holds_alternative<ReduceScatter>(plan.steps[k].op) ||
                          std::holds_alternative<AllReduce>(plan.steps[k].op);
    out["steps"].push_back({{"op", std::string(s.op)},
                            {"reduce_op", reducing ? nlohmann::json(std::string(reduce_op_name(before.reduce_op)))
                                                   : nlohmann::json(nullptr)},
                            {"text", to_string(plan.steps[k])},
                            {"type_after", to_string(states[k].type)},
                            {"local_bytes_after", to_decimal(s.local_bytes_after)},
                            {"send_bytes_max", to_decimal(s.send_bytes_max)},
                            {"recv_bytes_max", to_decimal(s.recv_bytes_max)},
                            {"group_size", s.group_size}});
  }
  auto lower_bound = [&f](bool max) -> nlohmann::json {
    if (!f.lower_bound) return nullptr;
    return to_decimal(max ? f.lower_bound->max : f.lower_bound->total);
  };
  out["peak_local_bytes"] = to_decimal(f.peak_local_bytes);
  out["bound_bytes"] = to_decimal(f.bound_bytes);
  out["recv_bytes_max"] = to_decimal(f.recv_bytes_max);
  out["recv_bytes_total"] = to_decimal(f.recv_bytes_total);
  out["lower_bound_bytes_max"] = lower_bound(true);
  out["lower_bound_bytes_total"] = lower_bound(false);
  return out;
}

}  // namespace redist::cli
