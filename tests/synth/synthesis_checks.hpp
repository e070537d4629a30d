#pragma once
// Checks every synthesized plan must pass: it type-checks and ends at the target; the
// interpreter, run from the source data, leaves every device holding exactly its
// target shard; no step exceeds the bound; each device receives at least LB(d); and
// the figures equal what the interpreter actually moved (elements new to a device;
// a permute may also resend a whole buffer a device already holds; a padded buffer is
// sent with its padding).

#include <algorithm>
#include <string>
#include <unordered_set>

#include "redist/plan/figures.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/plan/typing.hpp"
#include "redist/verify/interpreter.hpp"

namespace redist::testing {

/// Largest number of elements (over all devices) the interpreter is run on.
inline constexpr int64_t kMaxInterpretedElements = int64_t{1} << 20;

/// Elements of `after` that `before` does not hold (values are distinct per element).
inline int64_t new_elements(const LocalBuffer& before, const LocalBuffer& after) {
  std::unordered_set<int64_t> had(before.values.begin(), before.values.end());
  return static_cast<int64_t>(std::count_if(after.values.begin(), after.values.end(),
                                            [&](int64_t v) { return v != kPadding && !had.count(v); }));
}

/// True when the interpreter can run `plan` cheaply: devices times the largest local
/// size along the plan stay under kMaxInterpretedElements.
inline bool interpretable(const Plan& plan, const PlanFigures& figures) {
  const BigInt elements =
      figures.peak_local_bytes / elem_bytes(plan.source.elem) * plan.mesh.num_devices();
  return elements <= kMaxInterpretedElements;
}

/// The first way `plan` (from `src` on `src_mesh` to `dst` on `dst_mesh`, within `bound`
/// bytes per device) fails the checks, with the plan text; empty when it passes them all.
inline std::string plan_problem(const Plan& plan, const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                                const DistType& dst, const BigInt& bound) {
  const std::string where = "\nplan:\n" + to_string(plan);
  auto states = type_plan(plan);
  if (!states) return "does not type-check: " + states.error().to_string() + where;
  const TypedState& last = states->empty() ? TypedState{plan.mesh, plan.source} : states->back();
  if (!(last.mesh == dst_mesh)) return "ends on mesh " + to_string(last.mesh) + where;
  if (canonical(last.type, dst_mesh) != canonical(dst, dst_mesh)) return "ends at " + to_string(last.type) + where;
  if (!(plan.mesh == src_mesh) || plan.source != src) return "starts elsewhere" + where;
  auto figures = plan_figures(plan);
  if (!figures) return "no figures: " + figures.error().to_string() + where;
  if (figures->peak_local_bytes > bound)
    return "peak " + to_decimal(figures->peak_local_bytes) + " over the bound " + to_decimal(bound) + where;
  if (figures->lower_bound && (figures->recv_bytes_max < figures->lower_bound->max ||
                               figures->recv_bytes_total < figures->lower_bound->total))
    return "receives less than the lower bound" + where;
  if (!interpretable(plan, *figures)) return "";
  MeshData data = distribute(src_mesh, src);
  TypedState at{plan.mesh, plan.source};
  std::vector<BigInt> received(static_cast<std::size_t>(dst_mesh.num_devices()));
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    auto next = run_step(at, plan.steps[k], data);
    if (!next) return "step " + std::to_string(k + 1) + " does not run: " + next.error().to_string() + where;
    const TypedState& after = (*states)[k];
    for (int64_t d = 0; d < dst_mesh.num_devices(); ++d) {
      const auto i = static_cast<std::size_t>(d);
      const BigInt moved = BigInt(new_elements(data[i], (*next)[i])) * elem_bytes(src.elem);
      const BigInt figure = device_recv_bytes(at, after, plan.steps[k], d);
      // A permute's lowered pairs form a bijection, so a device may be sent data it
      // already holds: then it receives its whole buffer with no new element.
      const bool resent = std::holds_alternative<CollectivePermute>(plan.steps[k].op) && moved == 0 &&
                          figure == local_bytes(after.type);
      // A reduction's figure is its ring schedule's, and summands of a pending
      // reduction are not distinct values: neither is a count of new elements.
      const bool reducing = std::holds_alternative<ReduceScatter>(plan.steps[k].op) ||
                            std::holds_alternative<AllReduce>(plan.steps[k].op) || !at.type.reduce_axes.empty();
      // Padded buffers are sent whole: the figure counts their padding, `moved` only
      // real elements.
      const bool padded = has_padding(at.type) || has_padding(after.type);
      // add_pending is local: the identity it fills is made on the device, not received.
      const bool filled = std::holds_alternative<AddPending>(plan.steps[k].op) && figure == 0;
      if ((padded ? figure < moved : figure != moved) && !resent && !reducing && !filled)
        return "step " + std::to_string(k + 1) + ": device " + std::to_string(d) + " receives " + to_decimal(moved) +
               " bytes but the figures say " + to_decimal(figure) + where;
      received[i] += figure;
    }
    data = std::move(*next);
    at = after;
  }
  if (auto mismatch = compare(dst_mesh, dst, data)) return "wrong data: " + mismatch->to_string() + where;
  BigInt max_received = 0, total_received = 0;
  for (int64_t d = 0; d < dst_mesh.num_devices(); ++d) {
    const auto i = static_cast<std::size_t>(d);
    if (received[i] < device_lower_bound(src_mesh, src, dst_mesh, dst, d))
      return "device " + std::to_string(d) + " receives less than LB(d)" + where;
    max_received = std::max(max_received, received[i]);
    total_received += received[i];
  }
  if (figures->recv_bytes_max != max_received || figures->recv_bytes_total != total_received)
    return "plan figures (max " + to_decimal(figures->recv_bytes_max) + ", total " +
           to_decimal(figures->recv_bytes_total) + ") differ from the interpreter's (" + to_decimal(max_received) +
           ", " + to_decimal(total_received) + ")" + where;
  return "";
}

/// True when `plan` has the valley shape of the normal form: all_slices, all_to_alls
/// and at most one collective_permute (memory only shrinks), then all_gathers only.
inline bool is_valley(const Plan& plan) {
  bool growing = false;
  int permutes = 0;
  for (const auto& step : plan.steps) {
    const bool gather = std::holds_alternative<AllGather>(step.op);
    if (growing && !gather) return false;
    growing = growing || gather;
    permutes += std::holds_alternative<CollectivePermute>(step.op);
  }
  return permutes <= 1;
}

/// Number of steps of kind `Op` in `plan`.
template <class Op>
int count_steps(const Plan& plan) {
  return static_cast<int>(std::count_if(plan.steps.begin(), plan.steps.end(),
                                        [](const Step& s) { return std::holds_alternative<Op>(s.op); }));
}

}  // namespace redist::testing
