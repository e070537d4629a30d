// G1: every non-padding target element is the right source element. The element at a
// symbolic (device, local index) of the target is traced back through every lowered
// step to its place in the source, where its global index must equal the one the
// target type prescribes.

#include <optional>
#include <string>

#include "properties.hpp"
#include "redist/core/semantics.hpp"
#include "solve.hpp"
#include "step_maps.hpp"
#include "text.hpp"

namespace redist::smt {

namespace {

/// The state after step k (k = 0: the source).
const TypedState& state_after(const LoweredPlan& plan, std::size_t k) {
  return k == 0 ? plan.source : plan.steps[k - 1].after;
}

/// A counterexample naming device 0 of `mesh`, for faults that hold on every device.
Counterexample every_device(const Mesh& mesh, int step, std::string reason) {
  Counterexample ce;
  ce.device = 0;
  ce.coords = mesh.coords_of_device(0);
  ce.step = step;
  ce.reason = std::move(reason);
  return ce;
}

/// A fault visible without the solver: a collective that does not make the buffer
/// shape its declared type has, a final shape other than the target's, or pending
/// reduction axes that differ when no step reduces.
std::optional<Counterexample> structural_fault(const LoweredPlan& plan, const TypedState& target) {
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const LoweredStep& step = plan.steps[k];
    const auto made = produced_shape(step);
    const auto declared = local_shape(step.after.type);
    if (!made || *made != declared) {
      const std::string made_text = made ? shape_text(*made) : "no whole chunks";
      return every_device(step.after.mesh, static_cast<int>(k + 1),
                          std::string(lowered_name(step.op)) + " makes local shape " + made_text + " from " +
                              shape_text(local_shape(step.before.type)) + ", but the type after the step has " +
                              shape_text(declared));
    }
  }
  const TypedState& last = state_after(plan, plan.steps.size());
  if (local_shape(last.type) != local_shape(target.type))
    return every_device(target.mesh, static_cast<int>(plan.steps.size()),
                        "the plan ends with local shape " + shape_text(local_shape(last.type)) +
                            " but the target has " + shape_text(local_shape(target.type)));
  if (canonical(plan.source.type, plan.source.mesh).reduce_axes != canonical(target.type, target.mesh).reduce_axes)
    return every_device(target.mesh, 0, "the source and the target have different pending reduction axes");
  return std::nullopt;
}

/// Concrete values of a traced location.
struct Point {
  std::vector<int64_t> coords;
  std::vector<int64_t> index;
};

/// True when `p` is a device and an index inside the buffer of `s`.
bool inside(const TypedState& s, const Point& p) {
  const auto shape = local_shape(s.type);
  for (std::size_t i = 0; i < p.coords.size(); ++i)
    if (p.coords[i] < 0 || p.coords[i] >= s.mesh.axis_size(i)) return false;
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (p.index[i] < 0 || p.index[i] >= shape[i]) return false;
  return true;
}

/// The counterexample in `model`: the target location, where its element came from,
/// and the first step after which it no longer matches the declared type.
Counterexample read_counterexample(const z3::model& model, Encoder& enc, const LoweredPlan& plan,
                                   const TypedState& target, const Located& at_target,
                                   const std::vector<Located>& chain) {
  Counterexample ce;
  ce.coords = values_of(model, enc, at_target.device.coords);
  ce.local_index = values_of(model, enc, at_target.index);
  ce.device = target.mesh.device_at_coords(ce.coords);
  ce.expected_global = local_to_global(target.mesh, target.type, ce.coords, ce.local_index).value_or(std::vector<int64_t>{});
  const std::size_t n = plan.steps.size();
  std::vector<Point> points;
  for (const auto& loc : chain)
    points.push_back({values_of(model, enc, loc.device.coords), values_of(model, enc, loc.index)});
  for (std::size_t k = n; k-- > 0;) {
    if (inside(state_after(plan, k), points[k])) continue;
    ce.step = static_cast<int>(k + 1);
    ce.reason = "step " + std::to_string(k + 1) + " (" + std::string(lowered_name(plan.steps[k].op)) +
                ") reads local index " + shape_text(points[k].index) + " outside the buffer of shape " +
                shape_text(local_shape(state_after(plan, k).type)) + " on the device it reads from";
    return ce;
  }
  auto global_at = [&](std::size_t k) {
    const TypedState& s = state_after(plan, k);
    return local_to_global(s.mesh, s.type, points[k].coords, points[k].index);
  };
  const auto origin = global_at(0);
  ce.actual_global = origin.value_or(std::vector<int64_t>{});
  const std::string got = origin ? "global " + shape_text(*origin) : "a padding element";
  for (std::size_t k = 1; k <= n; ++k) {
    if (global_at(k) == origin) continue;
    ce.step = static_cast<int>(k);
    const auto declared = global_at(k);
    ce.reason = "after step " + std::to_string(k) + " (" + std::string(lowered_name(plan.steps[k - 1].op)) +
                ") the element holds " + got + " where its type " + to_string(state_after(plan, k).type) +
                " has " + (declared ? "global " + shape_text(*declared) : "padding");
    return ce;
  }
  ce.step = 0;
  ce.reason = "every step keeps its declared type, but the plan ends at " + to_string(state_after(plan, n).type) +
              ", which places " + got + " where the target " + to_string(target.type) + " has global " +
              shape_text(ce.expected_global);
  return ce;
}

/// The element at `start` (on the target mesh) traced back through every step: the
/// location after step k is element k (k = n: `start` on the plan's last mesh), and
/// every read outside a buffer is added to `bad`.
std::vector<Located> trace_back(Encoder& enc, const LoweredPlan& plan, const Located& start, z3::expr_vector& bad) {
  const std::size_t n = plan.steps.size();
  std::vector<Located> chain(n + 1, start);
  chain[n] = Located{enc.moved_to(start.device, state_after(plan, n).mesh), start.index};
  for (std::size_t k = n; k > 0; --k) {
    const Origin origin = step_back(enc, plan.steps[k - 1], chain[k]);
    if (!origin.in_bounds.is_true()) bad.push_back(!origin.in_bounds);
    chain[k - 1] = origin.before;
  }
  return chain;
}

/// The global index, as a number, of the element at `at` under `type`: the block of
/// each dim followed by the local index.
std::vector<Number> global_numbers(Encoder& enc, const DistType& type, const Located& at) {
  std::vector<Number> out;
  for (std::size_t i = 0; i < type.rank(); ++i)
    out.push_back(Encoder::concat(enc.mixed_radix(at.device, type.dims[i].axes), at.index[i]));
  return out;
}

/// The counterexample of two members of one reduction group holding the same summand.
Counterexample doubled_summand(const z3::model& model, Encoder& enc, const TypedState& target,
                               const Located& at_target, const Located& peer, const std::vector<AxisRef>& source_r,
                               const Located& source) {
  Counterexample ce;
  ce.coords = values_of(model, enc, at_target.device.coords);
  ce.local_index = values_of(model, enc, at_target.index);
  ce.device = target.mesh.device_at_coords(ce.coords);
  ce.expected_global = local_to_global(target.mesh, target.type, ce.coords, ce.local_index).value_or(std::vector<int64_t>{});
  ce.actual_global = ce.expected_global;
  const int64_t other = target.mesh.device_at_coords(values_of(model, enc, peer.device.coords));
  const Coords origin = values_of(model, enc, source.device.coords);
  ce.reason = "devices " + std::to_string(ce.device) + " and " + std::to_string(other) +
              " of one reduction group both hold summand " +
              std::to_string(mixed_radix_index(*source.device.mesh, origin, source_r)) + " of the element";
  return ce;
}

}  // namespace

PropertyResult prove_correct(Encoder& enc, const LoweredPlan& plan, const TypedState& target,
                             const CheckOptions& options) {
  if (auto fault = structural_fault(plan, target)) {
    PropertyResult r;
    r.verdict = Verdict::refuted;
    r.detail = fault->reason;
    r.counterexample = std::move(fault);
    return r;
  }
  const Located at_target{enc.fresh_device(target.mesh, "dev"), enc.fresh_index(local_shape(target.type), "dev")};
  const auto expected = global_numbers(enc, target.type, at_target);
  for (std::size_t i = 0; i < target.type.rank(); ++i) {
    const Dim& dim = target.type.dims[i];
    if (dim.global % tile_count(dim) != 0) enc.assume(enc.value(expected[i]) < enc.num(dim.global));
  }

  z3::expr_vector bad(enc.ctx());
  const auto chain = trace_back(enc, plan, at_target, bad);
  const Located& source = chain[0];
  const auto actual = global_numbers(enc, plan.source.type, source);
  for (std::size_t i = 0; i < actual.size(); ++i) bad.push_back(!enc.equal(actual[i], expected[i]));
  // A pending reduction: the members of a reduction group must hold distinct summands
  // (each once); a peer of the device in its group must not hold the same one.
  const auto target_r = canonical(target.type, target.mesh).reduce_axes;
  const auto source_r = canonical(plan.source.type, plan.source.mesh).reduce_axes;
  z3::expr doubled = enc.no();
  std::optional<Located> peer;
  if (!target_r.empty()) {
    const Number p = enc.fresh("peer", product_of_sizes(target_r));
    enc.assume(enc.value(p) != enc.value(enc.mixed_radix(at_target.device, target_r)));
    peer = Located{enc.with_digits(at_target.device, target_r, p), at_target.index};
    z3::expr_vector peer_bad(enc.ctx());
    const auto peer_chain = trace_back(enc, plan, *peer, peer_bad);
    doubled = !z3::mk_or(peer_bad) &&
              enc.equal(enc.mixed_radix(peer_chain[0].device, source_r), enc.mixed_radix(source.device, source_r));
    bad.push_back(doubled);
  }

  const Solved solved = solve(enc, bad, options.timeout_ms, options.keep_smt2);
  PropertyResult result = result_of(solved, "every non-padding target element is the right source element");
  if (!solved.model) return result;
  const z3::model& model = *solved.model;
  if (peer && model.eval(doubled, true).is_true()) {
    result.counterexample = doubled_summand(model, enc, target, at_target, *peer, source_r, source);
  } else {
    result.counterexample = read_counterexample(model, enc, plan, target, at_target, chain);
  }
  result.detail = result.counterexample->reason;
  return result;
}

}  // namespace redist::smt
