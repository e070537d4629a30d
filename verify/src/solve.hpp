#pragma once
// Running one property query: the negation of the property must be unsat.

#include <optional>
#include <string>
#include <vector>

#include "redist/verify/verdict.hpp"
#include "smt_encoder.hpp"

namespace redist::smt {

/// The solver's answer to one query.
struct Solved {
  Verdict verdict = Verdict::unknown;  // unsat: proved, sat: refuted, else unknown
  std::optional<z3::model> model;      // when refuted
  std::string reason;                  // unknown: Z3's reason
  double ms = 0;
  std::string smt2;                    // when asked for
};

/// Checks whether the encoder's facts and any one of the `cases` can hold, within
/// `timeout_ms` in all. Each case is solved on its own (a case split: much faster for
/// Z3 than the disjunction), stopping at the first that holds. The SMT-LIB2 text, kept
/// when `keep_smt2`, is the single query: facts AND (OR cases).
Solved solve(Encoder& enc, const z3::expr_vector& cases, unsigned timeout_ms, bool keep_smt2);

/// The model's value of an integer term (0 when the model leaves it free).
int64_t value_of(const z3::model& model, const z3::expr& term);
/// The model's values of `terms`.
std::vector<int64_t> values_of(const z3::model& model, const std::vector<z3::expr>& terms);
/// The model's values of `numbers`.
std::vector<int64_t> values_of(const z3::model& model, Encoder& enc, const std::vector<Number>& numbers);

/// A PropertyResult carrying `solved`'s verdict, time, SMT-LIB2 and reason.
PropertyResult result_of(const Solved& solved, std::string proved_detail);

}  // namespace redist::smt
