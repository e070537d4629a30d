// G2: the local buffer after every step, the source included, stays within the bound.
// Buffer sizes do not depend on the device (SPMD), so the query is over numerals; it is
// still posed to the solver so that it has a certificate like every other property.

#include "properties.hpp"
#include "solve.hpp"
#include "text.hpp"

namespace redist::smt {

PropertyResult prove_memory(Encoder& enc, const LoweredPlan& plan, const BigInt& bound,
                            const CheckOptions& options) {
  std::vector<const TypedState*> states{&plan.source};
  for (const auto& step : plan.steps) states.push_back(&step.after);
  const z3::expr limit = enc.ctx().int_val(to_decimal(bound).c_str());
  z3::expr_vector over(enc.ctx());
  for (std::size_t k = 0; k < states.size(); ++k) {
    const z3::expr bytes = enc.ctx().int_const(("bytes_after_step" + std::to_string(k)).c_str());
    enc.assume(bytes == enc.ctx().int_val(to_decimal(local_bytes(states[k]->type)).c_str()));
    over.push_back(bytes > limit);
  }
  z3::expr_vector any_over(enc.ctx());
  any_over.push_back(z3::mk_or(over));
  const Solved solved = solve(enc, any_over, options.timeout_ms, options.keep_smt2);
  PropertyResult result =
      result_of(solved, "every local buffer is at most " + to_decimal(bound) + " bytes");
  if (!solved.model) return result;
  for (std::size_t k = 0; k < states.size(); ++k) {
    const BigInt bytes = local_bytes(states[k]->type);
    if (bytes <= bound) continue;
    Counterexample ce;
    ce.coords = states[k]->mesh.coords_of_device(0);
    ce.step = static_cast<int>(k);
    ce.reason = (k == 0 ? std::string("the source buffer") : "the buffer after step " + std::to_string(k)) +
                " holds " + to_decimal(bytes) + " bytes on every device, over the bound of " + to_decimal(bound);
    result.detail = ce.reason;
    result.counterexample = std::move(ce);
    break;
  }
  return result;
}

}  // namespace redist::smt
