#include "redist/core/axis.hpp"

#include <algorithm>
#include <fmt/format.h>

namespace redist {

std::string to_string(const AxisRef& axis) {
  if (!axis.sub) return axis.name;
  return fmt::format("{}:({}){}", axis.name, axis.pre, axis.size);
}

std::string to_string(std::span<const AxisRef> axes) {
  std::string out = "{";
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (i) out += ",";
    out += to_string(axes[i]);
  }
  return out + "}";
}

int64_t product_of_sizes(std::span<const AxisRef> axes) {
  int64_t p = 1;
  for (const auto& a : axes) p *= a.size;
  return p;
}

bool overlaps(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name) return false;
  // Factor ranges [pre, pre*size) on a multiplicative scale.
  return std::max(a.pre, b.pre) < std::min(a.pre * a.size, b.pre * b.size);
}

bool compatible(const AxisRef& a, const AxisRef& b) {
  if (a.name != b.name) return true;
  if (a.pre == b.pre) return false;  // same start: the same factor, or overlapping
  const AxisRef& major = a.pre < b.pre ? a : b;
  const AxisRef& minor = a.pre < b.pre ? b : a;
  return minor.pre % (major.pre * major.size) == 0;
}

AxisRef make_axis_ref(const std::string& name, int64_t pre, int64_t size, int64_t axis_size) {
  const bool whole = pre == 1 && size == axis_size;
  return AxisRef{name, pre, size, !whole};
}

}  // namespace redist
