#include "digit_classes.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <set>
#include <string>

namespace redist::detail {

namespace {

/// One digit: the factor of axis `axis` whose more-major part has size `pre`, of size
/// `size`.
struct Digit {
  std::size_t axis = 0;
  int64_t pre = 1;
  int64_t size = 1;
};

/// The refinement of every axis: the sorted boundaries (products of the more-major part)
/// at which digits start and end, 1 and the axis size included.
class Refinement {
 public:
  explicit Refinement(const Mesh& mesh) : mesh_(mesh), cuts_(mesh.rank()) {
    for (std::size_t a = 0; a < mesh.rank(); ++a) cuts_[a] = {1, mesh.axis_size(a)};
  }

  /// Adds the boundaries of `ref`; false when the axis is unknown or the factor does not
  /// fit the axis.
  bool add(const AxisRef& ref) {
    const auto a = mesh_.axis_index(ref.name);
    if (!a || ref.pre < 1 || ref.size < 1 || mesh_.axis_size(*a) % (ref.pre * ref.size) != 0) return false;
    cuts_[*a].insert(ref.pre);
    cuts_[*a].insert(ref.pre * ref.size);
    return true;
  }

  /// Adds the boundary `cut` to axis `a`.
  void cut(std::size_t a, int64_t at) { cuts_[a].insert(at); }

  /// Whether every axis's boundaries form a divisibility chain (independent digits).
  bool nested() const {
    for (const auto& cuts : cuts_)
      for (auto it = cuts.begin(); std::next(it) != cuts.end(); ++it)
        if (*std::next(it) % *it != 0) return false;
    return true;
  }

  /// The digits of `refs`, major first.
  std::vector<Digit> digits(const std::vector<AxisRef>& refs) const {
    std::vector<Digit> out;
    for (const AxisRef& ref : refs) {
      const std::size_t a = *mesh_.axis_index(ref.name);
      const auto& cuts = cuts_[a];
      for (auto it = cuts.find(ref.pre); *it != ref.pre * ref.size; ++it)
        out.push_back({a, *it, *std::next(it) / *it});
    }
    return out;
  }

  /// All digits of the mesh.
  std::vector<Digit> all() const {
    std::vector<Digit> out;
    for (std::size_t a = 0; a < cuts_.size(); ++a)
      for (auto it = cuts_[a].begin(); std::next(it) != cuts_[a].end(); ++it)
        out.push_back({a, *it, *std::next(it) / *it});
    return out;
  }

 private:
  const Mesh& mesh_;
  std::vector<std::set<int64_t>> cuts_;
};

/// Pairs of equal digits of one equality, or a boundary to add first (`split` set), or
/// failure (a size that does not divide).
struct Matched {
  bool ok = true;
  std::optional<std::pair<std::size_t, int64_t>> split;  // axis, boundary
  std::vector<std::pair<Digit, Digit>> pairs;
  std::vector<Digit> dropped;  // lhs digits of the dropped minor part: free
};

/// A failed match.
Matched mismatch() {
  Matched out;
  out.ok = false;
  return out;
}

/// Splits off the minor part of size `want` of digit `d` (size a multiple of `want`).
std::pair<std::size_t, int64_t> minor_cut(const Digit& d, int64_t want) { return {d.axis, d.pre * (d.size / want)}; }

Matched match(const Refinement& r, const FactorEquality& eq) {
  Matched out;
  std::vector<Digit> lhs = r.digits(eq.lhs), rhs = r.digits(eq.rhs);
  // The dropped minor part of lhs: whole digits, splitting the last one if needed.
  int64_t drop = eq.lhs_drop;
  while (drop > 1) {
    if (lhs.empty()) return mismatch();
    const Digit d = lhs.back();
    if (d.size <= drop) {
      if (drop % d.size != 0) return mismatch();
      drop /= d.size;
      out.dropped.push_back(d);
      lhs.pop_back();
      continue;
    }
    if (d.size % drop != 0) return mismatch();
    out.split = minor_cut(d, drop);
    return out;
  }
  // Equal numbers: equal digits from the minor end, splitting the larger of two.
  while (!lhs.empty() && !rhs.empty()) {
    const Digit a = lhs.back(), b = rhs.back();
    if (a.size == b.size) {
      out.pairs.push_back({a, b});
      lhs.pop_back();
      rhs.pop_back();
      continue;
    }
    const Digit& big = a.size > b.size ? a : b;
    const int64_t small = std::min(a.size, b.size);
    if (big.size % small != 0) return mismatch();
    out.split = minor_cut(big, small);
    return out;
  }
  if (!lhs.empty() || !rhs.empty()) return mismatch();  // different ranges
  return out;
}

/// Union-find over digits keyed by (axis, pre).
class Classes {
 public:
  /// Merges the classes of `a` and `b`; returns whether they were distinct.
  bool merge(const Digit& a, const Digit& b) {
    const auto ra = find(key(a)), rb = find(key(b));
    if (ra == rb) return false;
    parent_[ra] = rb;
    return true;
  }

 private:
  using Key = std::pair<std::size_t, int64_t>;
  static Key key(const Digit& d) { return {d.axis, d.pre}; }
  Key find(Key k) {
    auto it = parent_.find(k);
    if (it == parent_.end() || it->second == k) return k;
    return it->second = find(it->second);
  }
  std::map<Key, Key> parent_;
};

}  // namespace

std::optional<int64_t> count_devices(const Mesh& mesh, const std::vector<FactorEquality>& equalities) {
  Refinement refinement(mesh);
  for (const FactorEquality& eq : equalities)
    for (const auto* side : {&eq.lhs, &eq.rhs})
      for (const AxisRef& ref : *side)
        if (!refinement.add(ref)) return std::nullopt;
  if (!refinement.nested()) return std::nullopt;
  // Refine until every equality matches digit by digit; each split adds a boundary that
  // divides an existing digit, so the chains stay nested and the loop ends.
  std::vector<Matched> matched;
  for (bool again = true; again;) {
    again = false;
    matched.clear();
    for (const FactorEquality& eq : equalities) {
      Matched m = match(refinement, eq);
      if (!m.ok) return std::nullopt;
      if (m.split) {
        refinement.cut(m.split->first, m.split->second);
        again = true;
        break;
      }
      matched.push_back(std::move(m));
    }
  }
  int64_t count = mesh.num_devices();
  Classes classes;
  for (const Matched& m : matched)
    for (const auto& [a, b] : m.pairs)
      if (classes.merge(a, b)) count /= a.size;
  return count;
}

}  // namespace redist::detail
