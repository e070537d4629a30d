#pragma once
// Running one property query: the negation of the property must be unsat.

#include <optional>
#include <string>
#include <vector>

#include "query.hpp"
#include "redist/verify/verdict.hpp"

namespace redist::smt {

/// The solver's answer to one query.
struct Solved {
  Verdict verdict = Verdict::unknown;  // unsat: proved, sat: refuted, else unknown
  std::optional<z3::model> model;      // when refuted
  std::size_t holds_case = 0;          // when refuted: the index in `cases` of the case the model shows
  std::string reason;                  // unknown: Z3's reason
  double ms = 0;
  std::string smt2;                    // when asked for
};

/// One solver check within `timeout_ms`: the answer and, when unknown, Z3's reason.
/// The single place that runs Z3's check (a watchdog may wrap it).
struct Checked {
  z3::check_result answer = z3::unknown;
  std::string reason;
};
Checked check_with_timeout(z3::solver& solver, unsigned timeout_ms);

/// Checks whether every group of `query`, `precondition` and any one of `cases` can
/// hold, within `timeout_ms` in all. Each case is solved on its own (a case split: much
/// faster for Z3 than the disjunction), stopping at the first that holds. The SMT-LIB2
/// text, kept when `keep_smt2`, is the single query: groups AND precondition AND (OR cases).
Solved solve(Query& query, const z3::expr& precondition, const z3::expr_vector& cases, unsigned timeout_ms,
             bool keep_smt2);

/// The model's value of an integer term (0 when the model leaves it free).
int64_t value_of(const z3::model& model, const z3::expr& term);
/// The model's values of `terms`.
std::vector<int64_t> values_of(const z3::model& model, const std::vector<z3::expr>& terms);

/// A PropertyResult carrying `solved`'s verdict, time, SMT-LIB2 and reason.
PropertyResult result_of(const Solved& solved, std::string proved_detail);

}  // namespace redist::smt
