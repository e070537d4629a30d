// G3: transfers. An element ARRIVES at a device in step k when the step's relation
// links it to a location on another device (for a reduction: some summand comes from
// another device). It is then followed forward on its device: at each later step m a
// Boolean keep_k_m, defined in group "step_m", says that the relation of step m links
// it to the index it would take on the same device (stay_index) inside the buffer.
// G3a: no arrival is dropped by a later slice (keep false at an all_slice). G3b
// (tight): no arrival is lost at any later step, and no target element the device
// already held in the source arrives. With G1 and no padding, received(d) = (arrivals
// that reach the target buffer) + (arrivals lost), and the first term equals LB(d)
// exactly when the second condition holds, so the query is equivalent to
// received(d) == LB(d) on every device.

#include <optional>
#include <string>

#include <fmt/format.h>

#include "encoding.hpp"
#include "properties.hpp"
#include "query_transfer_boxes.hpp"
#include "redist/core/semantics.hpp"
#include "solve.hpp"
#include "step_relations.hpp"
#include "text.hpp"

namespace redist::smt {

namespace {

std::string step_group(std::size_t k) { return fmt::format("step_{}", k); }

/// An element arriving at a symbolic device in step k, followed on that device
/// through the later steps.
struct Arrival {
  std::size_t step = 0;  // 1-based
  Location at;           // its location after the step
  z3::expr arrived;      // the location is real and its element came from elsewhere
  std::vector<z3::expr> keep;  // keep[i]: still on the device after step step+1+i
};

/// Arrival at step k (1-based) on fresh variables `a<k>_*`, followed to the end.
Arrival trace_arrival(Encoding& enc, const LoweredPlan& plan, std::size_t k) {
  Query& q = enc.query();
  const LoweredStep& step = plan.steps[k - 1];
  const std::string prefix = fmt::format("a{}", k);
  const Location before = enc.location(step.before, fmt::format("{}_from", prefix));
  Arrival a{k, enc.location(step.after, prefix), q.ctx().bool_val(false), {}};
  q.add(step_group(k), relate(enc, step, before, a.at));
  a.arrived = enc.in_bounds(a.at.index, local_shape(step.after.type)) &&
              enc.in_bounds(before.index, local_shape(step.before.type)) && !enc.same(before.device, a.at.device);
  Location here = a.at;
  for (std::size_t m = k + 1; m <= plan.steps.size(); ++m) {
    const LoweredStep& next = plan.steps[m - 1];
    const std::string name = fmt::format("{}_at{}", prefix, m);
    const bool transfer = std::holds_alternative<LoweredTransfer>(next.op);
    const Device device =
        transfer ? enc.device(next.after.mesh, name) : enc.same_device_on(here.device, next.after.mesh, name);
    Location there{device, stay_index(enc, next, here, device)};
    z3::expr stays = relate(enc, next, here, there) && enc.in_bounds(there.index, local_shape(next.after.type));
    if (transfer) {
      // Across meshes the device may not be in the new one, so its id there is not a
      // domain constraint (that would be unsat for a device only in the source and
      // prove every query vacuously). Instead: where a box stays on here's device and
      // holds its index, `there` is that device; the element stays exactly when the
      // transfer relates it to the same physical device (which only such a box does).
      q.add("domain",
            implies(stays_on_device(enc, next, here), enc.physical(there.device) == enc.physical(here.device)));
      stays = stays && enc.physical(there.device) == enc.physical(here.device);
    }
    const z3::expr keep = q.ctx().bool_const(fmt::format("keep_{}_{}", k, m).c_str());
    q.add(step_group(m), keep == stays);
    a.keep.push_back(keep);
    // Name the index terms so that later steps read variables.
    for (std::size_t i = 0; i < there.index.size(); ++i) {
      const z3::expr v = q.var(fmt::format("{}_l{}", name, i));
      q.add(step_group(m), v == there.index[i]);
      there.index[i] = v;
    }
    here = there;
  }
  return a;
}

/// Every arrival that some later step could take away, traced.
std::vector<Arrival> arrivals(Encoding& enc, const LoweredPlan& plan) {
  std::vector<Arrival> out;
  for (std::size_t k = 1; k < plan.steps.size(); ++k)
    if (communicates(plan.steps[k - 1])) out.push_back(trace_arrival(enc, plan, k));
  return out;
}

/// The case "arrival `a` is still there before step step+1+i and lost at it".
z3::expr lost_at(const Arrival& a, std::size_t i) {
  z3::expr e = a.arrived;
  for (std::size_t j = 0; j < i; ++j) e = e && a.keep[j];
  return e && !a.keep[i];
}

/// The counterexample of arrival `a` lost at step a.step+1+i, read from `model` (which
/// shows that case).
Counterexample lost_arrival(const z3::model& model, Encoding& enc, const LoweredPlan& plan, const Arrival& a,
                            std::size_t i) {
  const std::size_t j = a.step + 1 + i;
  const bool slice = std::holds_alternative<LoweredSlice>(plan.steps[j - 1].op);
  const LoweredStep& step = plan.steps[a.step - 1];
  Counterexample ce;
  ce.coords = coords_in(model, enc, a.at.device);
  ce.local_index = values_in(model, a.at.index);
  ce.device = step.after.mesh.device_at_coords(ce.coords);
  ce.expected_global =
      local_to_global(step.after.mesh, step.after.type, ce.coords, ce.local_index).value_or(std::vector<int64_t>{});
  ce.step = static_cast<int>(j);
  ce.reason = fmt::format("device {} receives the element at local {} in step {} ({}) and loses it in step {} ({}, {})",
                          ce.device, shape_text(ce.local_index), a.step, lowered_name(step.op), j,
                          lowered_name(plan.steps[j - 1].op), slice ? "dropped by the slice" : "sent away");
  return ce;
}

/// The cases "arrival a lost at step a.step+1+i" posed, in the order of the query's
/// cases (the model of a refutation names the one that holds; other cases' variables
/// may be left free by it, so they are not evaluated).
using LostCases = std::vector<std::pair<const Arrival*, std::size_t>>;

/// True when some device of `b` is in `a`.
bool share_devices(const Mesh& a, const Mesh& b) {
  const auto ids = b.device_ids();
  return std::any_of(ids.begin(), ids.end(), [&a](int64_t d) { return a.has_device(d); });
}

}  // namespace

PropertyResult prove_no_peak(const LoweredPlan& plan, const TypedState& target, const CheckOptions& options) {
  Query q;
  Encoding enc(q, plan, target);
  const auto traced = arrivals(enc, plan);
  z3::expr_vector bad(q.ctx());
  LostCases lost;
  for (const auto& a : traced)
    for (std::size_t i = 0; i < a.keep.size(); ++i)
      if (std::holds_alternative<LoweredSlice>(plan.steps[a.step + i].op)) {
        bad.push_back(lost_at(a, i));
        lost.emplace_back(&a, i);
      }
  if (bad.empty()) {
    PropertyResult r;
    r.verdict = Verdict::proved;
    r.detail = "no slice follows a communicating step";
    return r;
  }
  const Solved solved = solve(q, q.ctx().bool_val(true), bad, options.timeout_ms, options.keep_smt2);
  PropertyResult result = result_of(solved, "no received element is later dropped by a slice on its device");
  if (!solved.model) return result;
  const auto [arrival, i] = lost[solved.holds_case];
  Counterexample ce = lost_arrival(*solved.model, enc, plan, *arrival, i);
  result.detail = ce.reason;
  result.counterexample = std::move(ce);
  return result;
}

PropertyResult prove_tight(const LoweredPlan& plan, const TypedState& target, const CheckOptions& options) {
  for (std::size_t k = 1; k <= plan.steps.size(); ++k)
    if (auto r = transfer_sends_once(plan, k, options)) return *r;
  Query q;
  Encoding enc(q, plan, target);
  z3::expr_vector bad(q.ctx());
  // Arrivals that are lost again.
  const auto traced = arrivals(enc, plan);
  LostCases lost;
  for (const auto& a : traced)
    for (std::size_t i = 0; i < a.keep.size(); ++i) {
      bad.push_back(lost_at(a, i));
      lost.emplace_back(&a, i);
    }

  // Target elements held by the device in the source that arrive anyway: the element's
  // global index lies in the device's source block of every dim.
  const Location t = enc.location(target, "h");
  // A device only in the target holds nothing in the source; when no device is in both
  // meshes the held case cannot arise (and its device would have no source position).
  const bool shared = share_devices(plan.source.mesh, target.mesh);
  z3::expr_vector held(q.ctx());
  if (shared) {
    const Device at_source = enc.same_device_on(t.device, plan.source.mesh, "h_src");
    const auto source_shape = local_shape(plan.source.type);
    held.push_back(enc.in_bounds(t.index, local_shape(target.type)));
    for (std::size_t i = 0; i < target.type.rank(); ++i) {
      const z3::expr g = q.var(fmt::format("h_g{}", i));
      q.add("target_type", g == enc.global(target.type, t, i));
      const z3::expr start = enc.mixed_radix(at_source, plan.source.type.dims[i].axes) * enc.num(source_shape[i]);
      held.push_back(start <= g && g < start + enc.num(source_shape[i]));
    }
  }
  const std::size_t n = plan.steps.size();
  std::vector<Location> chain(n + 1, t);
  chain[n] = Location{enc.same_device_on(t.device, n ? plan.steps.back().after.mesh : plan.source.mesh, "h_last"), t.index};
  std::vector<z3::expr> moved(n + 1, q.ctx().bool_val(false));
  for (std::size_t k = n; k > 0; --k) {
    chain[k - 1] = enc.location(k == 1 ? plan.source : plan.steps[k - 2].after, fmt::format("h{}", k - 1));
    q.add(step_group(k), relate(enc, plan.steps[k - 1], chain[k - 1], chain[k]));
    moved[k] = !enc.same(chain[k - 1].device, chain[k].device);
    if (shared) bad.push_back(all_of(q.ctx(), held) && moved[k]);
  }

  const Solved solved = solve(q, q.ctx().bool_val(true), bad, options.timeout_ms, options.keep_smt2);
  PropertyResult result = result_of(solved, "every device receives exactly the target elements it lacks, once");
  if (!solved.model) return result;
  const z3::model& model = *solved.model;
  if (solved.holds_case < lost.size()) {  // a lost arrival; after them come the held cases
    const auto [arrival, i] = lost[solved.holds_case];
    Counterexample ce = lost_arrival(model, enc, plan, *arrival, i);
    result.detail = ce.reason;
    result.counterexample = std::move(ce);
    return result;
  }
  Counterexample ce;
  ce.coords = coords_in(model, enc, t.device);
  ce.local_index = values_in(model, t.index);
  ce.device = target.mesh.device_at_coords(ce.coords);
  ce.expected_global =
      local_to_global(target.mesh, target.type, ce.coords, ce.local_index).value_or(std::vector<int64_t>{});
  ce.step = static_cast<int>(n - (solved.holds_case - lost.size()));  // held cases for steps n, n-1, ..., 1
  ce.reason = fmt::format("device {} holds target element {} in the source, yet it is received again in step {}",
                          ce.device, shape_text(ce.expected_global), ce.step);
  result.detail = ce.reason;
  result.counterexample = std::move(ce);
  return result;
}

}  // namespace redist::smt
