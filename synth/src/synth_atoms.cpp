#include "synth_atoms.hpp"

#include <algorithm>

namespace redist::synth_detail {

namespace {

using Points = boost::container::small_vector<int64_t, 12>;

/// Adds the prime steps between consecutive points (smaller primes first).
void refine_to_primes(Points& points) {
  Points out;
  for (std::size_t i = 0; i + 1 < points.size(); ++i) {
    int64_t at = points[i];
    int64_t rest = points[i + 1] / points[i];
    out.push_back(at);
    for (int64_t p = 2; p * p <= rest; ++p) {
      while (rest % p == 0) {
        rest /= p;
        at *= p;
        if (rest > 1) out.push_back(at);
      }
    }
  }
  out.push_back(points.back());
  points = std::move(out);
}

/// `f` split at every point strictly inside it.
void split_into(const Factor& f, const Points& points, Factors& out) {
  int64_t at = f.pre;
  for (int64_t p : points) {
    if (p <= f.pre || p >= f.end()) continue;
    out.push_back(Factor{f.axis, at, p / at});
    at = p;
  }
  out.push_back(Factor{f.axis, at, f.end() / at});
}

}  // namespace

std::optional<Atomized> atomize(const Frame& frame, const Layout& a, const Layout& b, bool primes) {
  boost::container::small_vector<Points, 6> points(frame.axis_sizes.size());
  for (std::size_t x = 0; x < points.size(); ++x) points[x] = {1, frame.axis_sizes[x]};
  for (const Layout* l : {&a, &b})
    for (const auto& d : l->dims)
      for (const auto& f : d) {
        points[static_cast<std::size_t>(f.axis)].push_back(f.pre);
        points[static_cast<std::size_t>(f.axis)].push_back(f.end());
      }
  for (auto& p : points) {
    std::sort(p.begin(), p.end());
    p.erase(std::unique(p.begin(), p.end()), p.end());
    for (std::size_t i = 0; i + 1 < p.size(); ++i)
      if (p[i + 1] % p[i] != 0) return std::nullopt;
    if (primes) refine_to_primes(p);
  }
  auto refine = [&](const Layout& l) {
    Layout out;
    for (const auto& d : l.dims) {
      Factors atoms;
      for (const auto& f : d) split_into(f, points[static_cast<std::size_t>(f.axis)], atoms);
      out.dims.push_back(std::move(atoms));
    }
    return out;
  };
  Atomized out{refine(a), refine(b), {}};
  for (std::size_t x = 0; x < points.size(); ++x)
    for (std::size_t i = 0; i + 1 < points[x].size(); ++i)
      out.all.push_back(Factor{static_cast<int>(x), points[x][i], points[x][i + 1] / points[x][i]});
  return out;
}

bool contains(const Factors& factors, const Factor& f) {
  return std::find(factors.begin(), factors.end(), f) != factors.end();
}

bool contains(const Layout& layout, const Factor& f) {
  return std::any_of(layout.dims.begin(), layout.dims.end(), [&](const Factors& d) { return contains(d, f); });
}

std::pair<int, std::size_t> locate(const Layout& layout, const Factor& atom) {
  for (std::size_t d = 0; d < layout.dims.size(); ++d)
    for (std::size_t q = 0; q < layout.dims[d].size(); ++q)
      if (layout.dims[d][q] == atom) return {static_cast<int>(d), q};
  return {-1, 0};
}

std::size_t common_prefix(const Factors& a, const Factors& b, std::size_t from_a, std::size_t from_b) {
  std::size_t k = 0;
  while (from_a + k < a.size() && from_b + k < b.size() && a[from_a + k] == b[from_b + k]) ++k;
  return k;
}

namespace {

/// Atoms of `seq` (from `from` on) at the same stride as in `reference`.
int aligned_count(const Factors& seq, std::size_t from, const Factors& reference) {
  int n = 0;
  int64_t stride = 1;
  for (std::size_t i = seq.size(); i-- > from;) {
    int64_t ref_stride = 1;
    for (std::size_t j = reference.size(); j-- > 0;) {
      if (reference[j] == seq[i]) {
        n += ref_stride == stride;
        break;
      }
      ref_stride *= reference[j].size;
    }
    stride *= seq[i].size;
  }
  return n;
}

}  // namespace

Factors aligned_order(const Factors& base, Factors extras, const Factors& reference) {
  if (extras.size() < 2 || extras.size() > 4) return extras;
  Factors seq = base;
  seq.insert(seq.end(), extras.begin(), extras.end());
  std::vector<std::size_t> order(extras.size()), best;
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  int best_score = -1;
  do {
    for (std::size_t i = 0; i < order.size(); ++i) seq[base.size() + i] = extras[order[i]];
    const int score = aligned_count(seq, base.size(), reference);
    if (score > best_score) {
      best_score = score;
      best = order;
    }
  } while (std::next_permutation(order.begin(), order.end()));
  Factors out;
  for (std::size_t i : best) out.push_back(extras[i]);
  return out;
}

}  // namespace redist::synth_detail
