// G3: transfers. An element ARRIVES at a device when a step puts it in that device's
// buffer from another device. G3a: no arrival is later dropped by a slice on the
// device. G3b (tight): no arrival ever leaves the device's buffer again (dropped by a
// slice, or sent away by an all-to-all or permute without a local copy), and no
// target element the device already held in the source arrives. With G1 and no
// padding, received(d) = (arrivals that reach the target buffer) + (arrivals lost) and
// the first term equals LB(d) exactly when the second condition holds, so the query
// is equivalent to received(d) == LB(d) on every device.

#include <optional>
#include <string>

#include "properties.hpp"
#include "redist/core/semantics.hpp"
#include "solve.hpp"
#include "step_maps.hpp"
#include "text.hpp"

namespace redist::smt {

namespace {

/// An element arriving at a symbolic device in step k, followed on that device
/// through the later steps.
struct Arrival {
  std::size_t step = 0;  // 1-based
  Located at;            // its location after the step
  z3::expr arrived;      // the location is real and its element came from elsewhere
  std::vector<z3::expr> lost;    // lost at step step+1+i (was still there before it)
  std::vector<z3::expr> sliced;  // lost at step step+1+i by a slice
};

/// Arrival at step k (1-based) on fresh variables `a<k>_*`, followed to the end.
Arrival trace_arrival(Encoder& enc, const LoweredPlan& plan, std::size_t k) {
  const LoweredStep& step = plan.steps[k - 1];
  const std::string prefix = "a" + std::to_string(k);
  Arrival a{k, {}, enc.no(), {}, {}};
  a.at = Located{enc.fresh_device(step.after.mesh, prefix), enc.fresh_index(local_shape(step.after.type), prefix)};
  const Origin origin = step_back(enc, step, a.at);
  a.arrived = origin.in_bounds && origin.moved;
  Located here = a.at;
  z3::expr alive = enc.yes();
  for (std::size_t j = k + 1; j <= plan.steps.size(); ++j) {
    const Fate fate = step_forward(enc, plan.steps[j - 1], here);
    a.lost.push_back(alive && !fate.kept);
    a.sliced.push_back(alive && fate.sliced);
    alive = alive && fate.kept;
    here = fate.after;
  }
  return a;
}

/// Every arrival that some later step could take away, traced.
std::vector<Arrival> arrivals(Encoder& enc, const LoweredPlan& plan) {
  std::vector<Arrival> out;
  for (std::size_t k = 1; k < plan.steps.size(); ++k)
    if (communicates(plan.steps[k - 1])) out.push_back(trace_arrival(enc, plan, k));
  return out;
}

/// True when `e` holds in `model`.
bool holds(const z3::model& model, const z3::expr& e) { return model.eval(e, true).is_true(); }

/// Counterexample for the arrival `a` that is lost at the first later step where
/// `loss[i]` holds in `model`.
std::optional<Counterexample> lost_arrival(const z3::model& model, Encoder& enc, const LoweredPlan& plan,
                                           const Arrival& a, const std::vector<z3::expr>& loss) {
  if (!holds(model, a.arrived)) return std::nullopt;
  for (std::size_t i = 0; i < loss.size(); ++i) {
    if (!holds(model, loss[i])) continue;
    const LoweredStep& step = plan.steps[a.step - 1];
    const std::size_t j = a.step + 1 + i;
    Counterexample ce;
    ce.coords = values_of(model, enc, a.at.device.coords);
    ce.local_index = values_of(model, enc, a.at.index);
    ce.device = step.after.mesh.device_at_coords(ce.coords);
    ce.expected_global = local_to_global(step.after.mesh, step.after.type, ce.coords, ce.local_index)
                             .value_or(std::vector<int64_t>{});
    ce.step = static_cast<int>(j);
    const std::string what = std::string(lowered_name(plan.steps[j - 1].op));
    ce.reason = "device " + std::to_string(ce.device) + " receives the element at local " +
                shape_text(ce.local_index) + " in step " + std::to_string(a.step) + " (" +
                std::string(lowered_name(step.op)) + ") and loses it in step " + std::to_string(j) + " (" + what +
                (what == "all_slice" ? ", dropped by the slice)" : ", sent away)");
    return ce;
  }
  return std::nullopt;
}

}  // namespace

PropertyResult prove_no_peak(Encoder& enc, const LoweredPlan& plan, const CheckOptions& options) {
  const auto traced = arrivals(enc, plan);
  z3::expr_vector bad(enc.ctx());
  for (const auto& a : traced)
    for (const auto& sliced : a.sliced) bad.push_back(a.arrived && sliced);
  const Solved solved = solve(enc, bad, options.timeout_ms, options.keep_smt2);
  PropertyResult result = result_of(solved, "no received element is later dropped by a slice on its device");
  if (!solved.model) return result;
  for (const auto& a : traced) {
    if (auto ce = lost_arrival(*solved.model, enc, plan, a, a.sliced)) {
      result.detail = ce->reason;
      result.counterexample = std::move(ce);
      break;
    }
  }
  return result;
}

PropertyResult prove_tight(Encoder& enc, const LoweredPlan& plan, const TypedState& target,
                           const CheckOptions& options) {
  z3::expr_vector bad(enc.ctx());
  // Arrivals that are lost again.
  const auto traced = arrivals(enc, plan);
  for (const auto& a : traced)
    for (const auto& lost : a.lost) bad.push_back(a.arrived && lost);

  // Target elements held by the device in the source that arrive anyway: the element's
  // source block (its global index cut at the source's local size) is the device's.
  const Located at_target{enc.fresh_device(target.mesh, "held"), enc.fresh_index(local_shape(target.type), "held")};
  const Device at_source = enc.moved_to(at_target.device, plan.source.mesh);
  const auto source_shape = local_shape(plan.source.type);
  z3::expr_vector held(enc.ctx());
  for (std::size_t i = 0; i < target.type.rank(); ++i) {
    const Number global =
        Encoder::concat(enc.mixed_radix(at_target.device, target.type.dims[i].axes), at_target.index[i]);
    const Number block = enc.split(global, source_shape[i]).first;
    held.push_back(enc.equal(block, enc.mixed_radix(at_source, plan.source.type.dims[i].axes)));
  }
  const std::size_t n = plan.steps.size();
  Located here{enc.moved_to(at_target.device, n ? plan.steps.back().after.mesh : plan.source.mesh), at_target.index};
  std::vector<z3::expr> moved;
  for (std::size_t k = n; k > 0; --k) {
    const Origin origin = step_back(enc, plan.steps[k - 1], here);
    moved.push_back(origin.moved);
    here = origin.before;
  }
  for (const auto& m : moved) bad.push_back(z3::mk_and(held) && m);

  const Solved solved = solve(enc, bad, options.timeout_ms, options.keep_smt2);
  PropertyResult result = result_of(solved, "every device receives exactly the target elements it lacks, once");
  if (!solved.model) return result;
  const z3::model& model = *solved.model;
  for (const auto& a : traced) {
    if (auto ce = lost_arrival(model, enc, plan, a, a.lost)) {
      result.detail = ce->reason;
      result.counterexample = std::move(ce);
      return result;
    }
  }
  Counterexample ce;
  ce.coords = values_of(model, enc, at_target.device.coords);
  ce.local_index = values_of(model, enc, at_target.index);
  ce.device = target.mesh.device_at_coords(ce.coords);
  ce.expected_global =
      local_to_global(target.mesh, target.type, ce.coords, ce.local_index).value_or(std::vector<int64_t>{});
  for (std::size_t i = 0; i < moved.size() && ce.step == 0; ++i)
    if (holds(model, moved[i])) ce.step = static_cast<int>(n - i);
  ce.reason = "device " + std::to_string(ce.device) + " holds target element " + shape_text(ce.expected_global) +
              " in the source, yet it is received again in step " + std::to_string(ce.step);
  result.detail = ce.reason;
  result.counterexample = std::move(ce);
  return result;
}

}  // namespace redist::smt
