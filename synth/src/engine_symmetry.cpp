#include "engine_symmetry.hpp"

#include <algorithm>
#include <bit>

namespace redist::engine_detail {

namespace {

/// Returns the digit at which a factor starting (or ending) at `pre` starts: log_p(pre).
int digit_at(const SwappableDigits& axis, int64_t pre) {
  if (axis.base == 2) return std::countr_zero(static_cast<uint64_t>(pre));
  int j = 0;
  for (; pre > 1; pre /= axis.base) ++j;
  return j;
}

/// Returns p^j.
int64_t power(int64_t p, int j) {
  int64_t v = 1;
  while (j-- > 0) v *= p;
  return v;
}

/// Appends `f`, its digits moved by `map` where its axis has swappable ones: one factor
/// per run of digits that stay consecutive.
void append_relabeled(const std::vector<SwappableDigits>& digits, const Factor& f, const DigitMap& map,
                      Factors& out) {
  const auto& axis = digits[static_cast<std::size_t>(f.axis)];
  if (axis.free == 0 || f.size == 1) {
    out.push_back(f);
    return;
  }
  const auto at = [&](int j) { return static_cast<int>(map[static_cast<std::size_t>(axis.offset + j)]); };
  const int end = digit_at(axis, f.end());
  for (int j = digit_at(axis, f.pre); j < end;) {
    int k = j + 1;
    while (k < end && at(k) == at(k - 1) + 1) ++k;
    out.push_back({f.axis, power(axis.base, at(j)), power(axis.base, k - j)});
    j = k;
  }
}

}  // namespace

void set_swappable_digits(Frame& frame) {
  frame.digits.clear();
  if (frame.mesh_change) return;
  // Each axis's digits as the mesh's digit list gives them (consecutive, major first):
  // one radix throughout for a prime power.
  const auto all = synth_detail::digits_of(frame.src_mesh);
  std::vector<SwappableDigits> axes(frame.axis_sizes.size());
  for (std::size_t i = 0; i < all.size(); ++i) {
    auto& axis = axes[static_cast<std::size_t>(all[i].axis)];
    if (axis.count == 0) axis = SwappableDigits{all[i].radix, 0, 0, static_cast<int>(i)};
    if (axis.base != all[i].radix) axis.base = 0;  // not a prime power
    ++axis.count;
  }
  // Axes of size 1 have no digit: their offset follows the axis before.
  for (std::size_t a = 1; a < axes.size(); ++a)
    if (axes[a].count == 0) axes[a].offset = axes[a - 1].offset + axes[a - 1].count;
  bool any = false;
  for (std::size_t a = 0; a < axes.size(); ++a) {
    auto& axis = axes[a];
    if (axis.base == 0) continue;
    axis.free = (uint64_t{1} << axis.count) - 1;
    const auto clear = [&](const Factor& f) {
      if (f.axis != static_cast<int>(a)) return;
      for (int j = digit_at(axis, f.pre), end = digit_at(axis, f.end()); j < end; ++j) axis.free &= ~(uint64_t{1} << j);
    };
    for (const auto& d : frame.target.dims) std::for_each(d.begin(), d.end(), clear);
    std::for_each(frame.target.reduce.begin(), frame.target.reduce.end(), clear);
    if (std::popcount(axis.free) < 2) axis.free = 0;  // one free digit has nowhere to go
    any = any || axis.free != 0;
  }
  if (any) frame.digits = std::move(axes);
}

DigitMap canonicalize_digits(const Frame& frame, State& s) {
  if (frame.digits.empty()) return {};
  // One pass over the factors: to[offset + j] is the new position of digit j of an axis,
  // -1 until it is met; each axis gives its free positions lowest first.
  const std::size_t size = static_cast<std::size_t>(frame.digits.back().offset + frame.digits.back().count);
  boost::container::small_vector<int8_t, 32> to(size, -1);
  boost::container::small_vector<uint64_t, 8> open;
  for (const auto& axis : frame.digits) open.push_back(axis.free);
  bool moved = false;
  const auto meet = [&](const Factor& f) {
    const auto a = static_cast<std::size_t>(f.axis);
    const auto& axis = frame.digits[a];
    if (axis.free == 0) return;
    for (int j = digit_at(axis, f.pre), end = digit_at(axis, f.end()); j < end; ++j) {
      auto& t = to[static_cast<std::size_t>(axis.offset + j)];
      if (!(axis.free >> j & 1) || t >= 0) continue;
      const int next = std::countr_zero(open[a]);
      open[a] &= open[a] - 1;
      t = static_cast<int8_t>(next);
      moved = moved || next != j;
    }
  };
  for (const auto& d : s.dims) std::for_each(d.begin(), d.end(), meet);
  std::for_each(s.reduce.begin(), s.reduce.end(), meet);
  if (!moved) return {};
  // Every digit keeps its place but the free ones: those met go where they were sent,
  // the others to the positions left, lowest first.
  DigitMap map(size);
  for (std::size_t a = 0; a < frame.digits.size(); ++a) {
    const auto& axis = frame.digits[a];
    for (int j = 0; j < axis.count; ++j) {
      auto t = to[static_cast<std::size_t>(axis.offset + j)];
      if (!(axis.free >> j & 1)) {
        t = static_cast<int8_t>(j);
      } else if (t < 0) {
        t = static_cast<int8_t>(std::countr_zero(open[a]));
        open[a] &= open[a] - 1;
      }
      map[static_cast<std::size_t>(axis.offset + j)] = static_cast<uint8_t>(t);
    }
  }
  s = relabeled(frame, s, map);
  return map;
}

Factors relabeled(const Frame& frame, const Factors& factors, const DigitMap& map) {
  if (map.empty()) return factors;
  Factors out;
  for (const auto& f : factors) append_relabeled(frame.digits, f, map, out);
  merge(out);
  return out;
}

State relabeled(const Frame& frame, const State& s, const DigitMap& map) {
  if (map.empty()) return s;
  State out = s;
  for (auto& d : out.dims) d = relabeled(frame, d, map);
  Factors reduce;
  for (const auto& f : s.reduce) append_relabeled(frame.digits, f, map, reduce);
  synth_detail::sort_and_merge(reduce);
  out.reduce = std::move(reduce);
  return out;
}

DigitMap inverse(const Frame& frame, const DigitMap& map) {
  if (map.empty()) return map;
  DigitMap out(map.size());
  for (const auto& axis : frame.digits)
    for (int j = 0; j < axis.count; ++j)
      out[static_cast<std::size_t>(axis.offset + map[static_cast<std::size_t>(axis.offset + j)])] =
          static_cast<uint8_t>(j);
  return out;
}

DigitMap composed(const Frame& frame, const DigitMap& first, const DigitMap& second) {
  if (first.empty()) return second;
  if (second.empty()) return first;
  DigitMap out(first.size());
  for (const auto& axis : frame.digits)
    for (int j = 0; j < axis.count; ++j) {
      const auto o = static_cast<std::size_t>(axis.offset);
      out[o + static_cast<std::size_t>(j)] = second[o + first[o + static_cast<std::size_t>(j)]];
    }
  return out;
}

}  // namespace redist::engine_detail
