#pragma once
// Independent parts of one query (docs/checker.md "Solving"). Two facts, or a fact
// and a case, are in the same COMPONENT when they share an uninterpreted constant,
// directly or through a chain of facts; a fact without constants (a table's
// definition f(i) = v) belongs to every component that uses its function. Facts of
// other components share no variable with a case, so the case is unsat with the
// whole query exactly when it is unsat with its component (given that the other
// components are satisfiable, which every step relation is: it relates some pair of
// locations). A long plan's transfer query is one chain per arriving step: solving
// each case with its own chain keeps the solver's input linear in the plan's length
// instead of quadratic.

#include <vector>

#include "query.hpp"

namespace redist::smt {

/// The cases of one component and the facts they need.
struct Component {
  std::vector<unsigned> cases;  // indices into the query's cases, ascending
  std::vector<z3::expr> facts;  // the query's facts it needs, in the query's order
};

/// The components of `query`'s facts, `precondition` (part of every case) and
/// `cases`, in the order of their first case. A case without constants gets every fact.
std::vector<Component> components(const Query& query, const z3::expr& precondition, const z3::expr_vector& cases);

}  // namespace redist::smt
