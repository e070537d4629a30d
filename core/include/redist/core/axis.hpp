#pragma once
// A reference to a mesh axis or to a sub-axis of one.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace redist {

/// A whole mesh axis `x`, or the sub-axis `x:(m)k` in Shardy's notation: the factor of
/// size k of axis x whose major part has size m (x = m * k * rest). For a whole axis
/// `pre` is 1 and `size` is the axis size. References inside a validated DistType
/// always carry the resolved size.
struct AxisRef {
  std::string name;
  int64_t pre = 1;   // m: product of the factors more major than this one
  int64_t size = 1;  // k: this factor's size
  bool sub = false;  // written as a sub-axis

  bool operator==(const AxisRef&) const = default;
  auto operator<=>(const AxisRef&) const = default;
};

/// `x` or `x:(m)k`.
std::string to_string(const AxisRef& axis);
/// `{x,y:(1)2}`: no spaces, as in the type notation.
std::string to_string(std::span<const AxisRef> axes);

/// Product of the sizes of `axes`.
int64_t product_of_sizes(std::span<const AxisRef> axes);

/// True when the two references share some factor of the same mesh axis (a whole
/// axis overlaps every sub-axis of itself).
bool overlaps(const AxisRef& a, const AxisRef& b);

/// True when the two may appear in one type: different axes, or factors of one axis
/// that do not overlap and nest (the smaller end divides the larger start), as Shardy
/// requires of coexisting sub-axes.
bool compatible(const AxisRef& a, const AxisRef& b);

/// The reference to the factor of size `size` after a major part `pre` of the axis
/// `name` of size `axis_size`: a whole axis when it covers all of it, else a sub-axis.
AxisRef make_axis_ref(const std::string& name, int64_t pre, int64_t size, int64_t axis_size);

/// Merges neighbours that are consecutive factors of one axis (x:(1)2 then x:(2)2 on
/// x:4 becomes x). `axis_size(name)` gives each axis's full size. Tiling is unchanged.
template <class AxisSize>
std::vector<AxisRef> merge_adjacent(std::vector<AxisRef> axes, AxisSize axis_size) {
  std::vector<AxisRef> out;
  for (auto& a : axes) {
    if (!out.empty() && out.back().name == a.name && out.back().pre * out.back().size == a.pre) {
      out.back() = make_axis_ref(a.name, out.back().pre, out.back().size * a.size, axis_size(a.name));
    } else {
      out.push_back(std::move(a));
    }
  }
  return out;
}

/// If `suffix` is, factor by factor, a suffix of `axes` (e.g. x:(2)2 is a suffix of x
/// on x:4), the part of `axes` before it; else nullopt.
template <class AxisSize>
std::optional<std::vector<AxisRef>> strip_suffix(std::vector<AxisRef> axes,
                                                 std::vector<AxisRef> suffix, AxisSize axis_size) {
  while (!suffix.empty()) {
    if (axes.empty()) return std::nullopt;
    AxisRef& p = axes.back();
    AxisRef& q = suffix.back();
    if (p.name != q.name || p.pre * p.size != q.pre * q.size) return std::nullopt;
    if (p.size == q.size) {
      axes.pop_back();
      suffix.pop_back();
    } else if (q.size < p.size) {  // q is the minor part of p
      if (p.size % q.size != 0) return std::nullopt;
      p = make_axis_ref(p.name, p.pre, p.size / q.size, axis_size(p.name));
      suffix.pop_back();
    } else {  // p is the minor part of q
      if (q.size % p.size != 0) return std::nullopt;
      q = make_axis_ref(q.name, q.pre, q.size / p.size, axis_size(q.name));
      axes.pop_back();
    }
  }
  return axes;
}

}  // namespace redist
