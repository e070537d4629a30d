#pragma once
// One SMT query of the checker as NAMED CONSTRAINT GROUPS plus a negated goal
// (docs/checker.md "Certificates"). Every constraint belongs to one group: "domain"
// (variable bounds, table definitions), "source_type" / "target_type" (the types'
// index maps), "step_k" (what lowered step k does, written by one function per
// collective kind in step_relations.cpp), and the goal (the negation of the property,
// as a precondition and a disjunction of cases). The SMT-LIB2 text keeps the groups
// apart, one `(assert (! ... :named GROUP))` line each, so that a certificate checker
// can delete a step's constraints mechanically. Private to redist_verify.

#include <z3++.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace redist::smt {

/// The conjunction of `v`; true when it is empty (Z3 would print a bare `and`).
z3::expr all_of(z3::context& ctx, const z3::expr_vector& v);

class Query {
 public:
  Query();
  Query(const Query&) = delete;
  Query& operator=(const Query&) = delete;

  z3::context& ctx() { return ctx_; }
  /// Integer numeral; exact for any size (decimal text).
  z3::expr num(int64_t value) { return ctx_.int_val(value); }
  /// A fresh integer constant named `name` (made unique with a suffix when taken).
  z3::expr var(const std::string& name);
  /// A fresh integer constant in [0, range), its bounds added to "domain".
  z3::expr bounded(const std::string& name, int64_t range);

  /// Adds `fact` to the constraint group `group` (created on first use, in order).
  void add(const std::string& group, const z3::expr& fact);
  /// Every group's facts, in order of creation.
  const std::vector<std::pair<std::string, std::vector<z3::expr>>>& groups() const { return groups_; }

  /// f(arg) for the finite table values[i] = f(i): the uninterpreted function
  /// `<kind><n>` declared once per (`kind`, `key`), defined in "domain" by one equation
  /// per entry.
  z3::expr table(const std::string& kind, const void* key, const std::vector<int64_t>& values, const z3::expr& arg);

  /// The whole query as self-contained SMT-LIB2: declarations, one named assert per
  /// group, the goal `precondition AND (OR cases)` named "goal", and (check-sat).
  std::string smt2(const z3::expr& precondition, const z3::expr_vector& cases);

 private:
  z3::context ctx_;
  std::vector<std::pair<std::string, std::vector<z3::expr>>> groups_;
  std::map<std::string, std::size_t> group_index_;
  std::map<std::string, int> names_;
  std::map<std::pair<std::string, const void*>, z3::func_decl> tables_;
};

}  // namespace redist::smt
