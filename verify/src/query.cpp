// Named constraint groups and their SMT-LIB2 text.

#include "query.hpp"

#include <set>
#include <sstream>

#include <fmt/format.h>

namespace redist::smt {

namespace {

/// Collects the uninterpreted constants and functions of `e` (declarations to print).
void collect(const z3::expr& e, std::set<unsigned>& seen, std::vector<z3::func_decl>& decls,
             std::set<unsigned>& decl_seen) {
  if (!seen.insert(e.id()).second) return;
  if (!e.is_app()) return;
  const z3::func_decl d = e.decl();
  if (d.decl_kind() == Z3_OP_UNINTERPRETED && decl_seen.insert(d.id()).second) decls.push_back(d);
  for (unsigned i = 0; i < e.num_args(); ++i) collect(e.arg(i), seen, decls, decl_seen);
}

/// `e` printed on one line.
std::string one_line(const z3::expr& e) {
  std::string s = e.to_string();
  for (char& c : s)
    if (c == '\n') c = ' ';
  std::string out;
  for (char c : s)
    if (!(c == ' ' && !out.empty() && out.back() == ' ')) out += c;
  return out;
}

}  // namespace

z3::expr all_of(z3::context& ctx, const z3::expr_vector& v) {
  return v.empty() ? ctx.bool_val(true) : z3::mk_and(v);
}

Query::Query() { Z3_set_ast_print_mode(ctx_, Z3_PRINT_SMTLIB2_COMPLIANT); }

z3::expr Query::var(const std::string& name) {
  const int n = names_[name]++;
  return ctx_.int_const((n == 0 ? name : fmt::format("{}_{}", name, n)).c_str());
}

z3::expr Query::bounded(const std::string& name, int64_t range) {
  const z3::expr v = var(name);
  add("domain", v >= 0 && v < num(range));
  return v;
}

void Query::add(const std::string& group, const z3::expr& fact) {
  auto it = group_index_.find(group);
  if (it == group_index_.end()) {
    it = group_index_.emplace(group, groups_.size()).first;
    groups_.push_back({group, {}});
  }
  groups_[it->second].second.push_back(fact);
}

z3::expr Query::table(const std::string& kind, const void* key, const std::vector<int64_t>& values,
                      const z3::expr& arg) {
  auto it = tables_.find({kind, key});
  if (it == tables_.end()) {
    const std::string name = fmt::format("{}{}", kind, tables_.size());
    const z3::func_decl f = ctx_.function(name.c_str(), ctx_.int_sort(), ctx_.int_sort());
    for (std::size_t i = 0; i < values.size(); ++i)
      add("domain", f(num(static_cast<int64_t>(i))) == num(values[i]));
    it = tables_.emplace(std::make_pair(kind, key), f).first;
  }
  return it->second(arg);
}

std::string Query::smt2(const z3::expr& precondition, const z3::expr_vector& cases) {
  std::vector<std::pair<std::string, z3::expr>> asserts;
  for (const auto& [name, facts] : groups_) {
    z3::expr_vector v(ctx_);
    for (const auto& f : facts) v.push_back(f);
    asserts.emplace_back(name, all_of(ctx_, v));
  }
  asserts.emplace_back("goal", precondition && z3::mk_or(cases));
  std::set<unsigned> seen, decl_seen;
  std::vector<z3::func_decl> decls;
  for (const auto& a : asserts) collect(a.second, seen, decls, decl_seen);
  std::ostringstream out;
  out << "(set-logic ALL)\n";
  for (const auto& d : decls) out << d.to_string() << "\n";
  for (const auto& [name, e] : asserts) out << "(assert (! " << one_line(e) << " :named " << name << "))\n";
  out << "(check-sat)\n";
  return out.str();
}

}  // namespace redist::smt
