// One query through Z3 with a timeout; unknown is never turned into proved.

#include "solve.hpp"
#include "components.hpp"
#include "watchdog.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

namespace redist::smt {

namespace {

/// Z3's arithmetic solvers, tried in this order: the simplex-based one (2) is the most
/// predictable on these queries; the default one (6) sometimes wins where it stalls.
constexpr unsigned kArithSolvers[] = {2, 6};

}  // namespace

Checked check_with_timeout(z3::solver& solver, unsigned timeout_ms) {
  // Not Z3's `timeout` parameter, whose timer can deadlock in Z3 4.8.12 (watchdog.hpp).
  const Watched watched = check_within(solver, timeout_ms);
  Checked out;
  out.answer = watched.answer;
  if (out.answer == z3::unknown) out.reason = watched.timed_out ? "timeout" : solver.reason_unknown();
  return out;
}

Solved solve(Query& query, const z3::expr& precondition, const z3::expr_vector& cases, unsigned timeout_ms,
             bool keep_smt2) {
  Solved out;
  const auto start = std::chrono::steady_clock::now();
  auto left_ms = [&] {
    return timeout_ms - std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  };
  // The time left, scaled, as a check's limit; never negative: building a solver from a
  // large query can itself use up the time (a negative double cast to unsigned was a
  // limit of 2^32 ms: the soak test caught it as a check that did not return).
  auto limit_ms = [&](double share) { return static_cast<unsigned>(std::max(0.0, left_ms() * share)); };
  // Checks `facts`, the precondition and `goal` with arithmetic solver `arith` within
  // `share` of the time left; stores a model in `model` when given and the goal holds.
  auto check = [&](const std::vector<z3::expr>& facts, const z3::expr& goal, unsigned arith, double share,
                   std::optional<z3::model>* model) {
    z3::solver solver(query.ctx());
    z3::params params(query.ctx());
    params.set("smt.arith.solver", arith);
    solver.set(params);
    for (const auto& fact : facts) solver.add(fact);
    solver.add(precondition);
    solver.add(goal);
    const Checked checked = check_with_timeout(solver, limit_ms(share));
    if (model && checked.answer == z3::sat) *model = solver.get_model();
    if (model && checked.answer == z3::unknown) out.reason = checked.reason;
    return checked.answer;
  };
  // The disjunction of the component's cases [from, to).
  auto any_of_cases = [&](const Component& part, std::size_t from, std::size_t to) {
    z3::expr_vector any(query.ctx());
    for (std::size_t c = from; c < to; ++c) any.push_back(cases[part.cases[c]]);
    return z3::mk_or(any);
  };
  bool undecided = false;
  // Each component on its own solver (components.hpp): a long plan's cases then do not
  // carry every other chain of the query.
  for (const Component& part : components(query, precondition, cases)) {
    if (out.model) break;
    std::size_t first_case = 0;
    if (left_ms() >= 4) {  // The component's disjunction at once first: for a correct plan
                           // the composed relations usually make it linear arithmetic that
                           // Z3 refutes in one check (3x faster on bench/checker than the split).
      std::optional<z3::model> whole;
      const z3::check_result answer = check(part.facts, any_of_cases(part, 0, part.cases.size()), kArithSolvers[0], 0.25, &whole);
      if (answer == z3::unsat) first_case = part.cases.size();
      if (whole) {
        // The first case its model shows is the counterexample when no earlier case can
        // hold: one check of their disjunction instead of one per earlier case (a wrong
        // long plan's G1 has a read-outside-the-buffer case per state before its own).
        std::size_t shown = 0;
        while (shown < part.cases.size() && !whole->eval(cases[part.cases[shown]], true).is_true()) ++shown;
        if (shown < part.cases.size() &&
            (shown == 0 || check(part.facts, any_of_cases(part, 0, shown), kArithSolvers[0], 0.25, nullptr) == z3::unsat)) {
          out.model = std::move(whole);
          out.holds_case = part.cases[shown];
          break;
        }
      }
    }
    for (std::size_t c = first_case; c < part.cases.size() && !out.model; ++c) {
      z3::check_result answer = z3::unknown;
      for (std::size_t attempt = 0; attempt < std::size(kArithSolvers) && answer == z3::unknown; ++attempt) {
        // Each case may use the time left; a first attempt gets half of it.
        if (left_ms() < 1) {
          out.reason = "timeout";
          break;
        }
        const bool last = attempt + 1 == std::size(kArithSolvers);
        answer = check(part.facts, cases[part.cases[c]], kArithSolvers[attempt], last ? 1.0 : 0.5, &out.model);
      }
      if (out.model) out.holds_case = part.cases[c];
      undecided = undecided || answer == z3::unknown;
    }
  }
  out.ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  out.verdict = out.model ? Verdict::refuted : undecided ? Verdict::unknown : Verdict::proved;
  if (keep_smt2 && out.verdict != Verdict::unknown) out.smt2 = query.smt2(precondition, cases);
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

PropertyResult result_of(const Solved& solved, std::string proved_detail) {
  PropertyResult r;
  r.verdict = solved.verdict;
  r.solver_ms = solved.ms;
  r.smt2 = solved.smt2;
  if (solved.verdict == Verdict::proved) r.detail = std::move(proved_detail);
  if (solved.verdict == Verdict::unknown) r.detail = fmt::format("solver gave up: {}", solved.reason);
  return r;
}

}  // namespace redist::smt
