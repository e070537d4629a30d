// G2: the local buffer after every step, the source included, stays within the bound,
// with every figure a formula of the types: the local extent of dim i of a state is
// the integer L_i with T_i * (L_i - 1) < global_i <= T_i * L_i (T_i the product of the
// dim's axis sizes: ceil division, padding included), the bytes are
// element size * L_0 * ... * L_{r-1}, and the bound is the budget or
// max(source bytes, target bytes). Each state's extents sit in its own group
// ("source_type", "step_k", "target_type"), so deleting one frees its bytes.

#include <fmt/format.h>

#include "encoding.hpp"
#include "properties.hpp"
#include "solve.hpp"
#include "text.hpp"

namespace redist::smt {

namespace {

/// The local bytes of `type` as a formula over fresh extent variables `<name>_L<i>`
/// defined in `group`.
z3::expr bytes_of(Query& q, const DistType& type, const std::string& name, const std::string& group) {
  z3::expr bytes = q.num(elem_bytes(type.elem));
  for (std::size_t i = 0; i < type.rank(); ++i) {
    const Dim& dim = type.dims[i];
    z3::expr tiles = q.num(1);
    for (const auto& a : dim.axes) tiles = tiles * q.num(a.size);
    const z3::expr l = q.var(fmt::format("{}_L{}", name, i));
    const z3::expr global = q.num(dim.global);
    q.add(group, tiles * (l - 1) < global && global <= tiles * l);
    bytes = bytes * l;
  }
  const z3::expr b = q.var(fmt::format("{}_bytes", name));
  q.add(group, b == bytes);
  return b;
}

}  // namespace

PropertyResult prove_memory(const LoweredPlan& plan, const TypedState& target, const std::optional<BigInt>& budget,
                            const CheckOptions& options) {
  Query q;
  std::vector<const TypedState*> states{&plan.source};
  for (const auto& step : plan.steps) states.push_back(&step.after);
  std::vector<z3::expr> bytes;
  for (std::size_t k = 0; k < states.size(); ++k)
    bytes.push_back(bytes_of(q, states[k]->type, fmt::format("s{}", k),
                             k == 0 ? "source_type" : fmt::format("step_{}", k)));
  const z3::expr bound = q.var("bound");
  if (budget) {
    q.add("bound_definition", bound == q.ctx().int_val(to_decimal(*budget).c_str()));
  } else {
    const z3::expr t = bytes_of(q, target.type, "t", "target_type");
    q.add("bound_definition", bound == z3::ite(bytes[0] >= t, bytes[0], t));
  }
  z3::expr_vector over(q.ctx());
  for (const auto& b : bytes) over.push_back(b > bound);
  const Solved solved = solve(q, q.ctx().bool_val(true), over, options.timeout_ms, options.keep_smt2);
  const BigInt limit = budget.value_or(std::max(local_bytes(plan.source.type), local_bytes(target.type)));
  PropertyResult result = result_of(solved, fmt::format("every local buffer is at most {} bytes", to_decimal(limit)));
  if (!solved.model) return result;
  for (std::size_t k = 0; k < states.size(); ++k) {
    if (!solved.model->eval(over[static_cast<unsigned>(k)], true).is_true()) continue;
    const BigInt b = local_bytes(states[k]->type);
    Counterexample ce;
    ce.device = states[k]->mesh.device_at(0);
    ce.coords = states[k]->mesh.coords_of_position(0);
    ce.step = static_cast<int>(k);
    ce.reason = fmt::format("{} holds {} bytes on every device, over the bound of {}",
                            k == 0 ? "the source buffer" : fmt::format("the buffer after step {}", k), to_decimal(b),
                            to_decimal(limit));
    result.detail = ce.reason;
    result.counterexample = std::move(ce);
    break;
  }
  return result;
}

}  // namespace redist::smt
