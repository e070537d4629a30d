// One query through Z3 with a timeout; unknown is never turned into proved.

#include "solve.hpp"
#include "watchdog.hpp"

#include <chrono>

namespace redist::smt {

namespace {

/// Z3's arithmetic solvers, tried in this order: the simplex-based one (2) is the most
/// predictable on these queries (div/mod by numerals over bounded integers); the
/// default one (6) sometimes wins where it stalls.
constexpr unsigned kArithSolvers[] = {2, 6};

}  // namespace

Solved solve(Encoder& enc, const z3::expr_vector& cases, unsigned timeout_ms, bool keep_smt2) {
  Solved out;
  const auto start = std::chrono::steady_clock::now();
  auto left_ms = [&] {
    return timeout_ms - std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };
  bool undecided = false;
  for (unsigned c = 0; c < cases.size() && !out.model; ++c) {
    z3::check_result answer = z3::unknown;
    for (std::size_t attempt = 0; attempt < std::size(kArithSolvers) && answer == z3::unknown; ++attempt) {
      // Each case may use the time left; a first attempt gets half of it.
      const double left = left_ms();
      if (left < 1) {
        out.reason = "timeout";
        break;
      }
      const bool last = attempt + 1 == std::size(kArithSolvers);
      z3::solver solver(enc.ctx());
      z3::params params(enc.ctx());
      params.set("smt.arith.solver", kArithSolvers[attempt]);
      solver.set(params);
      solver.add(enc.facts());
      solver.add(cases[c]);
      const Checked checked = check_within(solver, static_cast<unsigned>(last ? left : left / 2));
      answer = checked.answer;
      if (answer == z3::sat) out.model = solver.get_model();
      if (answer == z3::unknown) out.reason = checked.timed_out ? "timeout" : solver.reason_unknown();
    }
    undecided = undecided || answer == z3::unknown;
  }
  out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  out.verdict = out.model ? Verdict::refuted : undecided ? Verdict::unknown : Verdict::proved;
  if (keep_smt2 && out.verdict != Verdict::unknown) {
    z3::solver whole(enc.ctx());
    whole.add(enc.facts());
    whole.add(z3::mk_or(cases));
    out.smt2 = whole.to_smt2(out.verdict == Verdict::proved ? "unsat" : "sat");
  }
  return out;
}

int64_t value_of(const z3::model& model, const z3::expr& term) {
  const z3::expr v = model.eval(term, true);
  int64_t out = 0;
  return v.is_numeral_i64(out) ? out : 0;
}

std::vector<int64_t> values_of(const z3::model& model, const std::vector<z3::expr>& terms) {
  std::vector<int64_t> out;
  for (const auto& t : terms) out.push_back(value_of(model, t));
  return out;
}

std::vector<int64_t> values_of(const z3::model& model, Encoder& enc, const std::vector<Number>& numbers) {
  return values_of(model, enc.values(numbers));
}

PropertyResult result_of(const Solved& solved, std::string proved_detail) {
  PropertyResult r;
  r.verdict = solved.verdict;
  r.solver_ms = solved.ms;
  r.smt2 = solved.smt2;
  if (solved.verdict == Verdict::proved) r.detail = std::move(proved_detail);
  if (solved.verdict == Verdict::unknown) r.detail = "solver gave up: " + solved.reason;
  return r;
}

}  // namespace redist::smt
