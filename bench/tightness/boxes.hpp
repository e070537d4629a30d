// Boxes: the elements a device holds in a type, per dim the real indices of its block
// ([lo, hi), empty past a padded dim's end), the checks the tight-plan searches make on
// them, and the arithmetic both searches share (tight_plans.cpp, relaxed_tightness.cpp).
// Internal to bench/tightness.

#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "redist/core/dist_type.hpp"

namespace redist::tightness {

/// The most dims a type may have here (the random suite's are at most 4).
constexpr int kMaxRank = 8;

inline int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// Returns the prime factors of `n`, smallest first.
inline std::vector<int64_t> prime_factors(int64_t n) {
  std::vector<int64_t> out;
  for (int64_t p = 2; p * p <= n; ++p)
    while (n % p == 0) out.push_back(p), n /= p;
  if (n > 1) out.push_back(n);
  return out;
}

/// Returns the elements of one device's buffer under `type`, padding included.
inline int64_t local_elements(const DistType& type) {
  int64_t n = 1;
  for (int64_t l : local_shape(type)) n *= l;
  return n;
}

struct Interval {
  int64_t lo = 0, hi = 0;  // [lo, hi)
  bool empty() const { return lo >= hi; }
  bool operator==(const Interval&) const = default;
  auto operator<=>(const Interval&) const = default;
};

inline bool within(Interval a, Interval b) { return a.empty() || (b.lo <= a.lo && a.hi <= b.hi); }
inline bool meet(Interval a, Interval b) { return std::max(a.lo, b.lo) < std::min(a.hi, b.hi); }

/// Returns the real indices of block `block` of a dim of `global` elements cut into
/// `tiles` blocks of ceil(global / tiles) (empty past the end).
inline Interval block_interval(int64_t global, int64_t tiles, int64_t block) {
  const int64_t local = ceil_div(global, tiles), lo = std::min(block * local, global);
  return {lo, std::min(lo + local, global)};
}

/// Boxes of every device of one type: rank intervals a device, devices in source-mesh
/// position order.
struct Boxes {
  int rank = 0;
  std::vector<Interval> at;
  const Interval* box(int64_t device) const { return &at[static_cast<std::size_t>(device * rank)]; }
};

inline bool empty(const Interval* a, int rank) {
  for (int j = 0; j < rank; ++j)
    if (a[j].empty()) return true;
  return false;
}
inline bool subset(const Interval* a, const Interval* b, int rank) {
  if (empty(a, rank)) return true;
  for (int j = 0; j < rank; ++j)
    if (!within(a[j], b[j])) return false;
  return true;
}
inline bool disjoint(const Interval* a, const Interval* b, int rank) {
  if (empty(a, rank) || empty(b, rank)) return true;
  for (int j = 0; j < rank; ++j)
    if (!meet(a[j], b[j])) return true;
  return false;
}
inline bool equal(const Interval* a, const Interval* b, int rank) {
  if (empty(a, rank) && empty(b, rank)) return true;
  for (int j = 0; j < rank; ++j)
    if (!(a[j] == b[j])) return false;
  return true;
}
/// Returns whether a \ c lies in b: a \ c is the union over dims j of a with its
/// interval j cut to a_j \ c_j.
inline bool difference_within(const Interval* a, const Interval* c, const Interval* b, int rank) {
  if (empty(a, rank)) return true;
  if (empty(c, rank)) return subset(a, b, rank);
  int outside = 0, last = -1;  // dims where a_j is not within b_j
  for (int j = 0; j < rank; ++j)
    if (!within(a[j], b[j])) ++outside, last = j;
  for (int j = 0; j < rank; ++j) {
    if (outside > 1 || (outside == 1 && last != j)) {
      // Some other dim of a is outside b: every nonempty piece cut on j escapes b.
      const Interval left{a[j].lo, std::min(a[j].hi, c[j].lo)}, right{std::max(a[j].lo, c[j].hi), a[j].hi};
      if (!left.empty() || !right.empty()) return false;
      continue;
    }
    const Interval left{a[j].lo, std::min(a[j].hi, c[j].lo)}, right{std::max(a[j].lo, c[j].hi), a[j].hi};
    if (!within(left, b[j]) || !within(right, b[j])) return false;
  }
  return true;
}
/// Returns whether a ∩ t lies in n.
inline bool meet_within(const Interval* a, const Interval* t, const Interval* n, int rank) {
  for (int j = 0; j < rank; ++j)
    if (!meet(a[j], t[j])) return true;
  for (int j = 0; j < rank; ++j)
    if (!within({std::max(a[j].lo, t[j].lo), std::min(a[j].hi, t[j].hi)}, n[j])) return false;
  return true;
}

}  // namespace redist::tightness
