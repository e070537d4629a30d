#include "factors.hpp"

#include <algorithm>

namespace redist::synth_detail {

int64_t product(const Factors& factors) {
  int64_t p = 1;
  for (const auto& f : factors) p *= f.size;
  return p;
}

void merge(Factors& factors) {
  std::size_t out = 0;
  for (std::size_t i = 0; i < factors.size(); ++i) {
    if (out > 0 && factors[out - 1].axis == factors[i].axis && factors[out - 1].end() == factors[i].pre) {
      factors[out - 1].size *= factors[i].size;
    } else {
      factors[out++] = factors[i];
    }
  }
  factors.resize(out);
}

Factors merged(Factors factors) {
  merge(factors);
  return factors;
}

Factors factors_of(const std::vector<AxisRef>& refs, const Mesh& mesh) {
  Factors out;
  for (const auto& r : refs) out.push_back(Factor{static_cast<int>(*mesh.axis_index(r.name)), r.pre, r.size});
  return out;
}

std::vector<AxisRef> refs_of(const Factors& factors, const Mesh& mesh) {
  std::vector<AxisRef> out;
  for (const auto& f : merged(factors)) {
    const auto& axis = mesh.axes()[static_cast<std::size_t>(f.axis)];
    out.push_back(make_axis_ref(axis.name, f.pre, f.size, axis.size));
  }
  return out;
}

namespace {

/// True when `a` lies before `b`: on an earlier axis, or more major on the same one.
bool before_in_mesh(const Factor& a, const Factor& b) { return a.axis != b.axis ? a.axis < b.axis : a.pre < b.pre; }

}  // namespace

void sort_and_merge(Factors& factors) {
  std::sort(factors.begin(), factors.end(), before_in_mesh);
  merge(factors);
}

Factors gaps(std::span<const int64_t> axis_sizes, Factors used) {
  std::sort(used.begin(), used.end(), before_in_mesh);
  Factors free;
  std::size_t u = 0;
  for (int axis = 0; axis < static_cast<int>(axis_sizes.size()); ++axis) {
    int64_t next = 1;
    for (; u < used.size() && used[u].axis == axis; ++u) {
      if (used[u].pre > next) free.push_back({axis, next, used[u].pre / next});
      next = used[u].end();
    }
    const int64_t size = axis_sizes[static_cast<std::size_t>(axis)];
    if (next < size) free.push_back({axis, next, size / next});
  }
  return free;
}

std::vector<Digit> digits_of(const Mesh& mesh) {
  std::vector<Digit> out;
  for (std::size_t a = 0; a < mesh.rank(); ++a) {
    int64_t rest = mesh.axis_size(a), pre = 1;
    for (int64_t p = 2; rest > 1; ++p)
      for (; rest % p == 0; rest /= p, pre *= p) out.push_back({static_cast<int>(a), p, pre, 1});
  }
  int64_t stride = 1;
  for (std::size_t i = out.size(); i-- > 0;) {
    out[i].stride = stride;
    stride *= out[i].radix;
  }
  return out;
}

std::optional<std::vector<std::size_t>> digit_list(const Factors& factors, const std::vector<Digit>& digits) {
  std::vector<std::size_t> out;
  for (const auto& f : factors) {
    int64_t covered = 1;
    for (std::size_t i = 0; i < digits.size(); ++i) {
      const Digit& d = digits[i];
      if (d.axis != f.axis || d.pre < f.pre || d.pre >= f.end()) continue;
      if (covered == 1 && d.pre != f.pre) return std::nullopt;
      out.push_back(i);
      covered *= d.radix;
    }
    if (covered != f.size) return std::nullopt;
  }
  return out;
}

Factors factors_of_digits(const std::vector<std::size_t>& list, const std::vector<Digit>& digits) {
  Factors out;
  for (auto i : list) {
    const Digit& d = digits[i];
    if (!out.empty() && out.back().axis == d.axis && out.back().end() == d.pre) out.back().size *= d.radix;
    else out.push_back({d.axis, d.pre, d.radix});
  }
  return out;
}

}  // namespace redist::synth_detail
