// Coverage and sends-once queries of a transfer (see query_transfer_boxes.hpp). A send
// covers location a of the new buffer when a's device is its receiver and a's index lies
// in its box at dst_start; "padding" is the index map of the type after the step.

#include "query_transfer_boxes.hpp"

#include <string>

#include "encoding.hpp"
#include "redist/core/semantics.hpp"
#include "solve.hpp"
#include "text.hpp"

namespace redist::smt {

namespace {

/// The sends of step k when it is a transfer.
const LoweredTransfer* transfer_at(const LoweredPlan& plan, std::size_t k) {
  return std::get_if<LoweredTransfer>(&plan.steps[k - 1].op);
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
  ce.reason = "device " + std::to_string(ce.device) + ": the element at local " + shape_text(ce.local_index) + " " +
              fault + " in step " + std::to_string(k) + " (transfer)";
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
  z3::expr_vector covered(q.ctx());
  for (const auto& box : t->sends) covered.push_back(covers(enc, box, a));
  z3::expr_vector bad(q.ctx());
  bad.push_back(enc.in_bounds(a.index, local_shape(step.after.type)) && !in_padding(enc, step.after, a) &&
                !z3::mk_or(covered));
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
  for (std::size_t i = 0; i < t->sends.size(); ++i) {
    const z3::expr ci = covers(enc, t->sends[i], a);
    bad.push_back(ci && padding);
    for (std::size_t j = i + 1; j < t->sends.size(); ++j)
      if (t->sends[j].to == t->sends[i].to) bad.push_back(ci && covers(enc, t->sends[j], a));
  }
  PropertyResult r = solve_at(q, enc, bad, a, step, k, "every element of a new buffer is sent once",
                              "is sent twice, or is padding that is sent,", options);
  if (r.verdict == Verdict::proved) return std::nullopt;
  return r;
}

}  // namespace redist::smt
