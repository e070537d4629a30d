// G1: every non-padding target element is the right source element. The query states
// the source and the target type's index maps, one location per state of the plan
// (fresh variables: device digits and local index) and, per lowered step, the
// relation between the location before and after it (step_relations.hpp). Z3 composes
// the steps; the negated goal asks for a target element (in bounds, not padding)
// whose source location has another global index, or a step that reads outside a
// buffer. With reductions (pending in the source or done by a step), every choice of
// the summand at each reducing step and of the target's pending-reduction coordinates
// is one PATH; the paths of one element must reach the source's summands of it each
// once: a second path B must not reach the same summand (injectivity, proved by Z3),
// and the number of paths must equal the number of summands (a product of sizes).
// An add_pending step relates only the member 0 of each of its groups (the others hold
// the identity, which combines nothing): exactly one path in g through it is live, since
// the pending axes' coordinates stay free until a reduction or the target picks them,
// so the live paths are the paths over the product of add_pending group sizes.

#include <iterator>
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

/// The state after step k (k = 0: the source).
const TypedState& state_after(const LoweredPlan& plan, std::size_t k) {
  return k == 0 ? plan.source : plan.steps[k - 1].after;
}

std::string step_group(std::size_t k) { return fmt::format("step_{}", k); }

/// A counterexample naming the first device of `mesh`, for faults that hold on every device.
Counterexample every_device(const Mesh& mesh, int step, std::string reason) {
  Counterexample ce;
  ce.device = mesh.device_at(0);
  ce.coords = mesh.coords_of_position(0);
  ce.step = step;
  ce.reason = std::move(reason);
  return ce;
}

/// Product of the group sizes of the reducing steps.
int64_t reduced_paths(const LoweredPlan& plan) {
  int64_t paths = 1;
  for (const auto& step : plan.steps) {
    if (const auto* r = std::get_if<LoweredReduceScatter>(&step.op)) paths *= r->group.size;
    if (const auto* r = std::get_if<LoweredAllReduce>(&step.op)) paths *= r->group.size;
  }
  return paths;
}

/// Product of the group sizes of the add_pending steps: one path in this many is live.
int64_t pending_groups(const LoweredPlan& plan) {
  int64_t groups = 1;
  for (const auto& step : plan.steps)
    if (const auto* p = std::get_if<LoweredAddPending>(&step.op)) groups *= p->group.size;
  return groups;
}

/// The reduction op of a reducing or add_pending step.
std::optional<ReduceOp> op_of(const LoweredStep& step) {
  if (const auto* r = std::get_if<LoweredReduceScatter>(&step.op)) return r->op;
  if (const auto* r = std::get_if<LoweredAllReduce>(&step.op)) return r->op;
  if (const auto* r = std::get_if<LoweredAddPending>(&step.op)) return r->op;
  return std::nullopt;
}

/// The op of the plan's reductions: the source's when it has pending axes, else the
/// first add_pending's (sum when there is none).
ReduceOp plan_op(const LoweredPlan& plan) {
  if (!plan.source.type.reduce_axes.empty()) return plan.source.type.reduce_op;
  for (const auto& step : plan.steps)
    if (const auto* p = std::get_if<LoweredAddPending>(&step.op)) return p->op;
  return ReduceOp::sum;
}

/// A fault visible without the solver: a collective that does not make the buffer
/// shape its declared type has, a final shape other than the target's, a reduction
/// with another op than the pending one, or summands missing (fewer paths per target
/// element than the source has summands; more are caught by the injectivity query).
std::optional<Counterexample> structural_fault(const LoweredPlan& plan, const TypedState& target) {
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const LoweredStep& step = plan.steps[k];
    const auto made = produced_shape(step);
    const auto declared = local_shape(step.after.type);
    if (!made || *made != declared) {
      const std::string made_text = made ? shape_text(*made) : "no whole chunks";
      return every_device(step.after.mesh, static_cast<int>(k + 1),
                          fmt::format("{} makes local shape {} from {}, but the type after the step has {}",
                                      lowered_name(step.op), made_text, shape_text(local_shape(step.before.type)),
                                      shape_text(declared)));
    }
    if (auto op = op_of(step); op && *op != plan_op(plan))
      return every_device(step.after.mesh, static_cast<int>(k + 1),
                          fmt::format("{} combines with {} but the pending reduction is {}", lowered_name(step.op),
                                      reduce_op_name(*op), reduce_op_name(plan_op(plan))));
  }
  if (!target.type.reduce_axes.empty() && target.type.reduce_op != plan_op(plan))
    return every_device(target.mesh, static_cast<int>(plan.steps.size()),
                        fmt::format("the target reduces with {} but the plan's pending reduction is {}",
                                    reduce_op_name(target.type.reduce_op), reduce_op_name(plan_op(plan))));
  const TypedState& last = state_after(plan, plan.steps.size());
  if (local_shape(last.type) != local_shape(target.type))
    return every_device(target.mesh, static_cast<int>(plan.steps.size()),
                        fmt::format("the plan ends with local shape {} but the target has {}",
                                    shape_text(local_shape(last.type)), shape_text(local_shape(target.type))));
  const int64_t summands = product_of_sizes(plan.source.type.reduce_axes);
  const int64_t all_paths = reduced_paths(plan) * product_of_sizes(target.type.reduce_axes);
  const int64_t paths = all_paths / pending_groups(plan);  // the live ones
  if (all_paths < summands * pending_groups(plan)) {  // every element lacks summands: name the first one
    Counterexample ce = every_device(target.mesh, 0,
                                     fmt::format("each target element combines {} values but the source holds {} "
                                                 "summands of it: {} summands are missing",
                                                 paths, summands, summands - paths));
    ce.local_index.assign(target.type.rank(), 0);
    ce.expected_global = local_to_global(target.mesh, target.type, ce.coords, ce.local_index).value_or(std::vector<int64_t>{});
    ce.actual_global = ce.expected_global;
    return ce;
  }
  return std::nullopt;
}

/// One path from a target element back to the source: location k is after step k.
struct Path {
  Location target;              // on the target mesh
  std::vector<Location> chain;  // chain[n] on the plan's last mesh
  std::vector<z3::expr> source_global;
};

/// The locations of one path named `<prefix><k>`, each step's relation in "step_k",
/// the source index map in "source_type".
Path trace(Encoding& enc, const LoweredPlan& plan, Location target, const std::string& prefix) {
  Query& q = enc.query();
  const std::size_t n = plan.steps.size();
  Path p{std::move(target), {}, {}};
  p.chain.resize(n + 1, p.target);
  p.chain[n] = Location{enc.same_device_on(p.target.device, state_after(plan, n).mesh, fmt::format("{}last", prefix)),
                        p.target.index};
  for (std::size_t k = n; k > 0; --k) {
    p.chain[k - 1] = enc.location(state_after(plan, k - 1), fmt::format("{}{}", prefix, k - 1));
    q.add(step_group(k), relate(enc, plan.steps[k - 1], p.chain[k - 1], p.chain[k]));
  }
  for (std::size_t i = 0; i < plan.source.type.rank(); ++i) {
    const z3::expr g = q.var(fmt::format("{}_src_g{}", prefix, i));
    q.add("source_type", g == enc.global(plan.source.type, p.chain[0], i));
    p.source_global.push_back(g);
  }
  return p;
}

/// Concrete values of a traced location.
struct Point {
  Coords coords;
  std::vector<int64_t> index;
};

/// True when `p` is an index inside the buffer of `s`.
bool inside(const TypedState& s, const Point& p) {
  const auto shape = local_shape(s.type);
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (p.index[i] < 0 || p.index[i] >= shape[i]) return false;
  return true;
}

/// The counterexample of path `p` in `model`: the target location, where its element
/// came from, and the first step after which it no longer matches the declared type.
Counterexample read_counterexample(const z3::model& model, Encoding& enc, const LoweredPlan& plan,
                                   const TypedState& target, const Path& p) {
  Counterexample ce;
  ce.coords = coords_in(model, enc, p.target.device);
  ce.local_index = values_in(model, p.target.index);
  ce.device = target.mesh.device_at_coords(ce.coords);
  ce.expected_global = local_to_global(target.mesh, target.type, ce.coords, ce.local_index).value_or(std::vector<int64_t>{});
  const std::size_t n = plan.steps.size();
  std::vector<Point> points;
  for (const auto& loc : p.chain) points.push_back({coords_in(model, enc, loc.device), values_in(model, loc.index)});
  for (std::size_t k = n; k-- > 0;) {
    if (inside(state_after(plan, k), points[k])) continue;
    ce.step = static_cast<int>(k + 1);
    ce.reason = fmt::format("step {} ({}) reads local index {} outside the buffer of shape {} on the device it "
                            "reads from",
                            k + 1, lowered_name(plan.steps[k].op), shape_text(points[k].index),
                            shape_text(local_shape(state_after(plan, k).type)));
    return ce;
  }
  auto global_at = [&](std::size_t k) {
    const TypedState& s = state_after(plan, k);
    return local_to_global(s.mesh, s.type, points[k].coords, points[k].index);
  };
  const auto origin = global_at(0);
  ce.actual_global = origin.value_or(std::vector<int64_t>{});
  const std::string got = origin ? fmt::format("global {}", shape_text(*origin)) : "a padding element";
  for (std::size_t k = 1; k <= n; ++k) {
    if (global_at(k) == origin) continue;
    ce.step = static_cast<int>(k);
    const auto declared = global_at(k);
    ce.reason = fmt::format("after step {} ({}) the element holds {} where its type {} has {}", k,
                            lowered_name(plan.steps[k - 1].op), got, to_string(state_after(plan, k).type),
                            declared ? fmt::format("global {}", shape_text(*declared)) : "padding");
    return ce;
  }
  ce.step = 0;
  ce.reason = fmt::format(
      "every step keeps its declared type, but the plan ends at {}, which places {} where the target {} has global {}",
      to_string(state_after(plan, n).type), got, to_string(target.type), shape_text(ce.expected_global));
  return ce;
}

/// The counterexample of two paths of one target element reaching the same summand.
Counterexample doubled_summand(const z3::model& model, Encoding& enc, const LoweredPlan& plan,
                               const TypedState& target, const Path& a, const Path& b) {
  Counterexample ce;
  ce.coords = coords_in(model, enc, a.target.device);
  ce.local_index = values_in(model, a.target.index);
  ce.device = target.mesh.device_at_coords(ce.coords);
  ce.expected_global = local_to_global(target.mesh, target.type, ce.coords, ce.local_index).value_or(std::vector<int64_t>{});
  ce.actual_global = ce.expected_global;
  const Mesh& mesh = plan.source.mesh;
  const Coords ca = coords_in(model, enc, a.chain[0].device), cb = coords_in(model, enc, b.chain[0].device);
  const auto summand = mixed_radix_index(mesh, ca, plan.source.type.reduce_axes);
  // The step that combines them: the one after the last state where the paths differ
  // (none when they differ only in the target's own pending reduction).
  const std::size_t n = plan.steps.size();
  for (std::size_t k = n + 1; k-- > 0;) {
    if (coords_in(model, enc, a.chain[k].device) == coords_in(model, enc, b.chain[k].device)) continue;
    ce.step = k == n ? 0 : static_cast<int>(k + 1);
    break;
  }
  ce.reason = fmt::format("summand {} of the element (source devices {} and {} hold it) is combined twice", summand,
                          mesh.device_at_coords(ca), mesh.device_at_coords(cb));
  if (ce.step > 0 && static_cast<std::size_t>(ce.step) <= plan.steps.size())
    fmt::format_to(std::back_inserter(ce.reason), ", by step {} ({})", ce.step,
                   lowered_name(plan.steps[static_cast<std::size_t>(ce.step) - 1].op));
  return ce;
}

}  // namespace

PropertyResult prove_correct(const LoweredPlan& plan, const TypedState& target, const CheckOptions& options) {
  if (auto fault = structural_fault(plan, target)) {
    PropertyResult r;
    r.verdict = Verdict::refuted;
    r.detail = fault->reason;
    r.counterexample = std::move(fault);
    return r;
  }
  for (std::size_t k = 1; k <= plan.steps.size(); ++k)  // elements no send covers have no chain
    if (auto r = transfer_covers(plan, k, options)) return *r;
  Query q;
  Encoding enc(q, plan, target);
  const std::size_t n = plan.steps.size();
  const auto target_shape = local_shape(target.type);

  // The target element: in bounds and not padding, its global index by the target type.
  const Path a = trace(enc, plan, enc.location(target, "t"), "e");
  z3::expr_vector pre(q.ctx());
  pre.push_back(enc.in_bounds(a.target.index, target_shape));
  std::vector<z3::expr> expected;
  for (std::size_t i = 0; i < target.type.rank(); ++i) {
    const z3::expr g = q.var(fmt::format("t_g{}", i));
    q.add("target_type", g == enc.global(target.type, a.target, i));
    pre.push_back(g < enc.num(target.type.dims[i].global));
    expected.push_back(g);
  }

  // Reads outside a buffer first: they are the more basic fault.
  z3::expr_vector bad(q.ctx());
  for (std::size_t k = 0; k < n; ++k)
    bad.push_back(!enc.in_bounds(a.chain[k].index, local_shape(state_after(plan, k).type)));
  for (std::size_t i = 0; i < expected.size(); ++i) bad.push_back(a.source_global[i] != expected[i]);

  // Reductions: a second path B of the same logical target element must not reach the
  // summand path A reaches (same global index, same coordinates on the source's
  // reduction axes) unless it is path A.
  const bool reduction = !plan.source.type.reduce_axes.empty() || !target.type.reduce_axes.empty() ||
                         reduced_paths(plan) > 1 || pending_groups(plan) > 1;
  std::optional<Path> b;
  z3::expr doubled = q.ctx().bool_val(false);
  if (reduction) {
    Location tb = enc.location(target, "u");
    q.add("target_type", enc.same_except(a.target.device, tb.device, target.type.reduce_axes));
    for (std::size_t i = 0; i < tb.index.size(); ++i) q.add("target_type", tb.index[i] == a.target.index[i]);
    b = trace(enc, plan, std::move(tb), "f");
    z3::expr_vector same(q.ctx()), differ(q.ctx());
    for (std::size_t i = 0; i < expected.size(); ++i) same.push_back(b->source_global[i] == a.source_global[i]);
    same.push_back(enc.mixed_radix(a.chain[0].device, plan.source.type.reduce_axes) ==
                   enc.mixed_radix(b->chain[0].device, plan.source.type.reduce_axes));
    for (std::size_t k = 0; k <= n; ++k) {
      differ.push_back(!enc.same(a.chain[k].device, b->chain[k].device));
      same.push_back(enc.in_bounds(a.chain[k].index, local_shape(state_after(plan, k).type)));
      same.push_back(enc.in_bounds(b->chain[k].index, local_shape(state_after(plan, k).type)));
    }
    differ.push_back(!enc.same(a.target.device, b->target.device));
    doubled = all_of(q.ctx(), same) && z3::mk_or(differ);
    bad.push_back(doubled);
  }

  const Solved solved = solve(q, all_of(q.ctx(), pre), bad, options.timeout_ms, options.keep_smt2);
  PropertyResult result = result_of(
      solved, reduction ? "every non-padding target element combines exactly its source summands, each once"
                        : "every non-padding target element is the right source element");
  if (!solved.model) return result;
  const z3::model& model = *solved.model;
  if (b && model.eval(doubled, true).is_true()) {
    result.counterexample = doubled_summand(model, enc, plan, target, a, *b);
  } else {
    result.counterexample = read_counterexample(model, enc, plan, target, a);
  }
  result.detail = result.counterexample->reason;
  return result;
}

}  // namespace redist::smt
