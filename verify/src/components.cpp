// Splitting a query into the components of its cases: a union-find over the
// uninterpreted constants that each fact and case mention.

#include "components.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace redist::smt {

namespace {

/// The uninterpreted constants and functions (decl ids) that `e` mentions.
struct Symbols {
  std::vector<unsigned> constants;
  std::vector<unsigned> functions;
};

/// Returns the symbols of `e`, each once.
Symbols symbols_of(const z3::expr& e) {
  Symbols out;
  std::unordered_set<unsigned> seen, decls;
  std::vector<z3::expr> stack{e};
  while (!stack.empty()) {
    const z3::expr t = stack.back();
    stack.pop_back();
    if (!seen.insert(t.id()).second || !t.is_app()) continue;
    const z3::func_decl d = t.decl();
    if (d.decl_kind() == Z3_OP_UNINTERPRETED && decls.insert(d.id()).second)
      (d.arity() == 0 ? out.constants : out.functions).push_back(d.id());
    for (unsigned i = 0; i < t.num_args(); ++i) stack.push_back(t.arg(i));
  }
  return out;
}

/// Union-find over decl ids.
class UnionFind {
 public:
  /// Returns the representative of `x`.
  unsigned find(unsigned x) {
    auto it = parent_.try_emplace(x, x).first;
    if (it->second == x) return x;
    const unsigned root = find(it->second);
    parent_[x] = root;
    return root;
  }
  /// Joins every id of `ids` into one set.
  void unite(const std::vector<unsigned>& ids) {
    for (std::size_t i = 1; i < ids.size(); ++i) {
      const unsigned a = find(ids[0]), b = find(ids[i]);
      if (a != b) parent_[b] = a;
    }
  }

 private:
  std::unordered_map<unsigned, unsigned> parent_;
};

}  // namespace

std::vector<Component> components(const Query& query, const z3::expr& precondition, const z3::expr_vector& cases) {
  std::vector<z3::expr> facts;
  for (const auto& group : query.groups()) facts.insert(facts.end(), group.second.begin(), group.second.end());
  std::vector<Symbols> fact_symbols, case_symbols;
  UnionFind uf;
  for (const auto& f : facts) uf.unite(fact_symbols.emplace_back(symbols_of(f)).constants);
  const Symbols pre = symbols_of(precondition);
  for (unsigned c = 0; c < cases.size(); ++c) {
    Symbols s = symbols_of(cases[c]);
    s.constants.insert(s.constants.end(), pre.constants.begin(), pre.constants.end());
    s.functions.insert(s.functions.end(), pre.functions.begin(), pre.functions.end());
    uf.unite(s.constants);
    case_symbols.push_back(std::move(s));
  }

  // Components in the order of their first case; key -1: cases without constants.
  constexpr long long kAll = -1;
  std::vector<Component> out;
  std::map<long long, std::size_t> index;
  std::vector<long long> key_of_case;
  for (unsigned c = 0; c < cases.size(); ++c) {
    const auto& s = case_symbols[c];
    const long long key = s.constants.empty() ? kAll : static_cast<long long>(uf.find(s.constants[0]));
    auto [it, fresh] = index.try_emplace(key, out.size());
    if (fresh) out.emplace_back();
    out[it->second].cases.push_back(c);
    key_of_case.push_back(key);
  }
  // Each component's facts with constants, and the functions it uses.
  std::vector<std::set<unsigned>> functions(out.size());
  for (unsigned c = 0; c < cases.size(); ++c)
    functions[index.at(key_of_case[c])].insert(case_symbols[c].functions.begin(), case_symbols[c].functions.end());
  std::vector<std::vector<bool>> member(out.size(), std::vector<bool>(facts.size(), false));
  for (std::size_t f = 0; f < facts.size(); ++f) {
    const auto& s = fact_symbols[f];
    if (s.constants.empty()) continue;
    auto it = index.find(static_cast<long long>(uf.find(s.constants[0])));
    if (it == index.end()) continue;  // no case reaches it
    member[it->second][f] = true;
    functions[it->second].insert(s.functions.begin(), s.functions.end());
  }
  for (std::size_t k = 0; k < out.size(); ++k) {
    const bool all = index.count(kAll) && index.at(kAll) == k;
    for (std::size_t f = 0; f < facts.size(); ++f) {
      const auto& fn = fact_symbols[f].functions;
      const bool table = fact_symbols[f].constants.empty() &&
                         (fn.empty() || std::any_of(fn.begin(), fn.end(), [&](unsigned d) { return functions[k].count(d); }));
      if (all || member[k][f] || table) out[k].facts.push_back(facts[f]);
    }
  }
  return out;
}

}  // namespace redist::smt
