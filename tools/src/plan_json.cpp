#include "plan_json.hpp"

#include <type_traits>

#include "redist/plan/lowered.hpp"
#include "redist/plan/plan_text.hpp"

namespace redist::cli {

namespace {

/// The group description of a lowered step, or nullptr for a permute or a transfer.
const GroupSpec* group_of(const LoweredOp& op) {
  return std::visit(
      [](const auto& o) -> const GroupSpec* {
        using T = std::decay_t<decltype(o)>;
        if constexpr (std::is_same_v<T, LoweredPermute> || std::is_same_v<T, LoweredTransfer>) return nullptr;
        else return &o.group;
      },
      op);
}

/// Adds group_axes, groups and pairs of lowered step `step` to `out` (for a transfer
/// `sends`: {from, to, src_start, dst_start, extent} each): tables only up to
/// kMaxJsonTableDevices devices, else null.
void add_tables(const LoweredStep& step, nlohmann::json& out) {
  const bool small = std::max(step.before.mesh.num_devices(), step.after.mesh.num_devices()) <= kMaxJsonTableDevices;
  out["group_axes"] = nullptr;
  out["groups"] = nullptr;
  out["pairs"] = nullptr;
  if (const auto* t = std::get_if<LoweredTransfer>(&step.op)) {
    out["sends"] = nullptr;
    if (!small) return;
    out["sends"] = nlohmann::json::array();
    for (const TransferBox& box : t->sends)
      out["sends"].push_back({{"from", box.from},
                              {"to", box.to},
                              {"src_start", box.src_start},
                              {"dst_start", box.dst_start},
                              {"extent", box.extent}});
    return;
  }
  if (const GroupSpec* group = group_of(step.op)) {
    out["group_axes"] = nlohmann::json::array();
    for (const AxisRef& axis : group->axes) out["group_axes"].push_back(to_string(axis));
    if (small) out["groups"] = group_table(*group, step.before.mesh);
    return;
  }
  if (!small) return;
  out["pairs"] = nlohmann::json::array();
  for (const auto& [source, target] : pair_table(std::get<LoweredPermute>(step.op), step.before.mesh, step.after.mesh))
    out["pairs"].push_back({source, target});
}

}  // namespace

nlohmann::json mesh_json(const Mesh& mesh) {
  nlohmann::json axes = nlohmann::json::array();
  for (const MeshAxis& axis : mesh.axes()) axes.push_back({{"name", axis.name}, {"size", axis.size}});
  return {{"text", to_string(mesh)},
          {"axes", axes},
          {"device_count", mesh.num_devices()},
          {"device_order", mesh.has_explicit_order() ? nlohmann::json(mesh.device_order()) : nlohmann::json(nullptr)}};
}

nlohmann::json plan_json(const Plan& plan, const std::vector<TypedState>& states, const PlanFigures& f) {
  nlohmann::json out;
  const TypedState& last = states.empty() ? TypedState{plan.mesh, plan.source} : states.back();
  const auto lowered = lower(plan);  // the plan type-checks (states), so it lowers
  out["mesh"] = mesh_json(plan.mesh);
  out["target_mesh"] = mesh_json(last.mesh);
  out["source"] = to_string(canonical(plan.source, plan.mesh));
  out["target"] = to_string(plan.target ? canonical(*plan.target, last.mesh) : last.type);
  out["steps"] = nlohmann::json::array();
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const StepFigures& s = f.steps[k];
    // The reduction operator of a reduce_scatter / all_reduce (the type's before it)
    // or of an add_pending (the type's after it).
    const DistType& before = k == 0 ? plan.source : states[k - 1].type;
    const bool reducing = std::holds_alternative<ReduceScatter>(plan.steps[k].op) ||
                          std::holds_alternative<AllReduce>(plan.steps[k].op);
    const bool adding = std::holds_alternative<AddPending>(plan.steps[k].op);
    const DistType& with_op = adding ? states[k].type : before;
    nlohmann::json step = {{"op", std::string(s.op)},
                           {"reduce_op", reducing || adding
                                             ? nlohmann::json(std::string(reduce_op_name(with_op.reduce_op)))
                                             : nlohmann::json(nullptr)},
                           {"text", to_string(plan.steps[k])},
                           {"type_after", to_string(states[k].type)},
                           {"local_bytes_after", to_decimal(s.local_bytes_after)},
                           {"send_bytes_max", to_decimal(s.send_bytes_max)},
                           {"recv_bytes_max", to_decimal(s.recv_bytes_max)},
                           {"group_size", s.group_size}};
    if (lowered) add_tables(lowered->steps[k], step);
    out["steps"].push_back(std::move(step));
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
  out["verified"] = false;
  return out;
}

}  // namespace redist::cli
