// Received bytes from the lowered steps; LB(d) from the synthesizer's figures.

#include "transfer_figures.hpp"

#include <algorithm>
#include <map>

#include "redist/plan/figures.hpp"
#include "encoding.hpp"
#include "solve.hpp"
#include "step_relations.hpp"

namespace redist::smt {

namespace {

/// Time limit of the permute query below; it answers in milliseconds in practice.
constexpr unsigned kPermuteQueryMs = 2000;

/// True when some device of the permute `step` receives from another device: a pair of
/// its table with two devices, or a small query over a symbolic device, so that its
/// cost does not grow with the device count. An
/// unknown answer (the time limit) counts as moving data, an upper bound on the bytes.
bool permute_moves_data(const LoweredStep& step) {
  // An explicit table is read directly (its size is the device count anyway): Z3 4.8.12
  // can take a minute to answer the watchdog on a query over 65,536 entries.
  if (const auto& table = std::get<LoweredPermute>(step.op).table)
    return std::any_of(table->begin(), table->end(), [](const auto& pair) { return pair.first != pair.second; });
  Query q;
  const LoweredPlan alone{step.before, {step}};
  Encoding enc(q, alone, step.after);
  const Location before = enc.location(step.before, "b"), after = enc.location(step.after, "a");
  const z3::expr moves = relate(enc, step, before, after) && !enc.same(before.device, after.device);
  z3::solver solver(q.ctx());
  for (const auto& group : q.groups())  // bounds and definitions, including relate()'s
    for (const auto& fact : group.second) solver.add(fact);
  solver.add(moves);
  return check_with_timeout(solver, kPermuteQueryMs).answer != z3::unsat;
}

/// Bytes of one all_to_all chunk of `step`: the buffer before with its split dims cut to
/// their local sizes after (padded buffers whole: on a padded split dim the
/// chunks reach past the buffer).
BigInt chunk_bytes(const LoweredStep& step, const LoweredAllToAll& a) {
  std::vector<int64_t> shape = local_shape(step.before.type);
  for (const auto& p : a.parts)
    shape[static_cast<std::size_t>(p.split_dim)] = local_shape(step.after.type)[static_cast<std::size_t>(p.split_dim)];
  BigInt bytes = elem_bytes(step.before.type.elem);
  for (int64_t extent : shape) bytes *= extent;
  return bytes;
}

/// Bytes one device receives in `step` (max over devices), padding included.
BigInt received(const LoweredStep& step) {
  const BigInt bytes = local_bytes(step.before.type);
  if (const auto* g = std::get_if<LoweredGather>(&step.op)) return bytes * (g->group.size - 1);
  if (const auto* a = std::get_if<LoweredAllToAll>(&step.op)) return chunk_bytes(step, *a) * (a->group.size - 1);
  if (std::holds_alternative<LoweredPermute>(step.op)) return permute_moves_data(step) ? bytes : BigInt(0);
  if (const auto* r = std::get_if<LoweredReduceScatter>(&step.op)) return bytes / r->group.size * (r->group.size - 1);
  if (const auto* r = std::get_if<LoweredAllReduce>(&step.op)) return bytes / r->group.size * (r->group.size - 1) * 2;
  if (const auto* t = std::get_if<LoweredTransfer>(&step.op)) {  // the most any receiver gets over its sends
    std::map<int64_t, BigInt> got;
    for (const auto& box : t->sends) {
      if (box.from == box.to) continue;
      BigInt b = elem_bytes(step.after.type.elem);
      for (int64_t e : box.extent) b *= e;
      got[box.to] += b;
    }
    BigInt most = 0;
    for (const auto& [device, b] : got) most = std::max(most, b);
    return most;
  }
  return 0;
}

}  // namespace

BigInt received_bytes_max(const LoweredPlan& plan) {
  BigInt total = 0;
  for (const auto& step : plan.steps) total += received(step);
  return total;
}

std::optional<BigInt> lower_bound_max(const LoweredPlan& plan, const TypedState& target) {
  const auto lb = lower_bound(plan.source.mesh, plan.source.type, target.mesh, target.type);
  if (!lb) return std::nullopt;
  return lb->max;
}

std::size_t permute_count(const LoweredPlan& plan) {
  return static_cast<std::size_t>(std::count_if(plan.steps.begin(), plan.steps.end(), [](const LoweredStep& s) {
    return std::holds_alternative<LoweredPermute>(s.op);
  }));
}

}  // namespace redist::smt
