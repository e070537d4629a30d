// Coverage and sends-once queries of a transfer (see query_transfer_boxes.hpp). A send
// covers location a of the new buffer when a's device is its receiver and a's index lies
// in its box at dst_start; "padding" is the index map of the type after the step.

#include "query_transfer_boxes.hpp"

#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "encoding.hpp"
#include "redist/core/semantics.hpp"
#include "solve.hpp"
#include "text.hpp"

namespace redist::smt {

namespace {

/// The sends of step k when it is a transfer with a table. A symbolic transfer's relation
/// (step_relations.cpp) relates every element of a new buffer to exactly one element,
/// on the one holder of its global index, so it covers each element once by its form.
const LoweredTransfer* transfer_at(const LoweredPlan& plan, std::size_t k) {
  const auto* t = std::get_if<LoweredTransfer>(&plan.steps[k - 1].op);
  return t && !t->symbolic ? t : nullptr;
}

/// The sends of `t` grouped by receiver, in the order of the receivers' ids.
std::map<int64_t, std::vector<const TransferBox*>> by_receiver(const LoweredTransfer& t) {
  std::map<int64_t, std::vector<const TransferBox*>> out;
  for (const auto& box : t.sends) out[box.to].push_back(&box);
  return out;
}

/// False when the destination boxes of two sends to one receiver are disjoint in some
/// dim (their ranges [dst_start, dst_start + extent) do not meet): then no element lies
/// in both, and the pair is not posed. This interval test is the one piece of the
/// sends-once argument decided in C++: an all-to-all transfer of N devices would
/// otherwise pose N^2 (N - 1) / 2 pairs (64 devices: 129,024), nearly all of them boxes
/// side by side.
bool may_overlap(const TransferBox& x, const TransferBox& y) {
  for (std::size_t i = 0; i < x.extent.size(); ++i)
    if (x.dst_start[i] + x.extent[i] <= y.dst_start[i] || y.dst_start[i] + y.extent[i] <= x.dst_start[i]) return false;
  return true;
}

/// send `box` writes the element at `a`.
z3::expr covers(Encoding& enc, const TransferBox& box, const Location& a) {
  z3::expr c = enc.physical(a.device) == enc.num(box.to);
  for (std::size_t i = 0; i < box.extent.size(); ++i)
    c = c && a.index[i] >= enc.num(box.dst_start[i]) && a.index[i] < enc.num(box.dst_start[i] + box.extent[i]);
  return c;
}

/// Some dim of the element at `a` is padding under `state.type`.
z3::expr in_padding(Encoding& enc, const TypedState& state, const Location& a) {
  z3::expr_vector padding(enc.query().ctx());
  for (std::size_t i = 0; i < state.type.rank(); ++i)
    padding.push_back(enc.global(state.type, a, i) >= enc.num(state.type.dims[i].global));
  return z3::mk_or(padding);
}

/// Solves `bad` over `q` and turns a model into a counterexample at `a` in step k.
PropertyResult solve_at(Query& q, Encoding& enc, const z3::expr_vector& bad, const Location& a, const LoweredStep& step,
                        std::size_t k, const std::string& proved, const std::string& fault,
                        const CheckOptions& options) {
  const Solved solved = solve(q, q.ctx().bool_val(true), bad, options.timeout_ms, options.keep_smt2);
  PropertyResult result = result_of(solved, proved);
  if (!solved.model) return result;
  Counterexample ce;
  ce.coords = coords_in(*solved.model, enc, a.device);
  ce.local_index = values_in(*solved.model, a.index);
  ce.device = step.after.mesh.device_at_coords(ce.coords);
  ce.expected_global =
      local_to_global(step.after.mesh, step.after.type, ce.coords, ce.local_index).value_or(std::vector<int64_t>{});
  ce.step = static_cast<int>(k);
  ce.reason = fmt::format("device {}: the element at local {} {} in step {} (transfer)", ce.device,
                          shape_text(ce.local_index), fault, k);
  result.detail = ce.reason;
  result.counterexample = std::move(ce);
  return result;
}

}  // namespace

std::optional<PropertyResult> transfer_covers(const LoweredPlan& plan, std::size_t k, const CheckOptions& options) {
  const LoweredTransfer* t = transfer_at(plan, k);
  if (!t) return std::nullopt;
  const LoweredStep& step = plan.steps[k - 1];
  Query q;
  Encoding enc(q, plan, step.after);
  const Location a = enc.location(step.after, "u");
  const z3::expr to = enc.physical(a.device);
  const z3::expr element = enc.in_bounds(a.index, local_shape(step.after.type)) && !in_padding(enc, step.after, a);
  // One case per receiver (its own sends), and one for a device that receives nothing.
  z3::expr_vector bad(q.ctx()), receivers(q.ctx());
  for (const auto& [receiver, boxes] : by_receiver(*t)) {
    z3::expr_vector covered(q.ctx());
    for (const TransferBox* box : boxes) covered.push_back(covers(enc, *box, a));
    bad.push_back(to == enc.num(receiver) && element && !z3::mk_or(covered));
    receivers.push_back(to == enc.num(receiver));
  }
  bad.push_back(element && !z3::mk_or(receivers));
  PropertyResult r = solve_at(q, enc, bad, a, step, k, "every element of every new buffer is sent", "is sent by no send",
                              options);
  if (r.verdict == Verdict::proved) return std::nullopt;
  return r;
}

std::optional<PropertyResult> transfer_sends_once(const LoweredPlan& plan, std::size_t k, const CheckOptions& options) {
  const LoweredTransfer* t = transfer_at(plan, k);
  if (!t) return std::nullopt;
  const LoweredStep& step = plan.steps[k - 1];
  Query q;
  Encoding enc(q, plan, step.after);
  const Location a = enc.location(step.after, "w");
  const z3::expr padding = in_padding(enc, step.after, a);
  z3::expr_vector bad(q.ctx());
  for (const auto& [receiver, boxes] : by_receiver(*t))
    for (std::size_t i = 0; i < boxes.size(); ++i) {
      const z3::expr ci = covers(enc, *boxes[i], a);
      bad.push_back(ci && padding);
      for (std::size_t j = i + 1; j < boxes.size(); ++j)
        if (may_overlap(*boxes[i], *boxes[j])) bad.push_back(ci && covers(enc, *boxes[j], a));
    }
  PropertyResult r = solve_at(q, enc, bad, a, step, k, "every element of a new buffer is sent once",
                              "is sent twice, or is padding that is sent,", options);
  if (r.verdict == Verdict::proved) return std::nullopt;
  return r;
}

}  // namespace redist::smt
