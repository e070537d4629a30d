// The optimal search's factor-level states (optimal_state.hpp).

#include "optimal_state.hpp"

#include <algorithm>

namespace redist::optimal_detail {

namespace {

void mix(std::size_t& h, uint64_t v) { h = (h ^ v) * 1099511628211ull; }

void mix(std::size_t& h, const Factors& factors) {
  mix(h, factors.size());
  for (const auto& f : factors) {
    mix(h, static_cast<uint64_t>(f.axis));
    mix(h, static_cast<uint64_t>(f.pre));
    mix(h, static_cast<uint64_t>(f.size));
  }
}

}  // namespace

std::size_t StateHash::operator()(const State& s) const {
  std::size_t h = 1469598103934665603ull;
  for (const auto& d : s.dims) mix(h, d);
  mix(h, s.reduce);
  mix(h, s.permuted);
  return h;
}

bool compatible(const Factor& a, const Factor& b) {
  if (a.axis != b.axis) return true;
  if (a.pre == b.pre) return false;
  const Factor& major = a.pre < b.pre ? a : b;
  const Factor& minor = a.pre < b.pre ? b : a;
  return minor.pre % major.end() == 0;
}

bool fits(const State& s, const Factor& f) {
  for (const auto& d : s.dims)
    for (const auto& u : d)
      if (!compatible(u, f)) return false;
  for (const auto& u : s.reduce)
    if (!compatible(u, f)) return false;
  return true;
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

int64_t tiles(const Factors& factors) {
  int64_t n = 1;
  for (const auto& f : factors) n *= f.size;
  return n;
}

int64_t local_bytes(const Frame& frame, const State& s) {
  int64_t bytes = frame.elem_bytes;
  for (std::size_t d = 0; d < s.dims.size(); ++d) {
    const int64_t t = tiles(s.dims[d]);
    bytes *= (frame.globals[d] + t - 1) / t;
  }
  return bytes;
}

Factors free_regions(const Frame& frame, const State& s) {
  Factors used;
  for (const auto& d : s.dims) used.insert(used.end(), d.begin(), d.end());
  used.insert(used.end(), s.reduce.begin(), s.reduce.end());
  std::sort(used.begin(), used.end(),
            [](const Factor& a, const Factor& b) { return a.axis != b.axis ? a.axis < b.axis : a.pre < b.pre; });
  Factors free;
  std::size_t u = 0;
  for (int axis = 0; axis < static_cast<int>(frame.axis_sizes.size()); ++axis) {
    int64_t next = 1;
    for (; u < used.size() && used[u].axis == axis; ++u) {
      if (used[u].pre > next) free.push_back({axis, next, used[u].pre / next});
      next = used[u].end();
    }
    if (next < frame.axis_sizes[static_cast<std::size_t>(axis)])
      free.push_back({axis, next, frame.axis_sizes[static_cast<std::size_t>(axis)] / next});
  }
  return free;
}

void append_sub_factors(const Factor& region, Factors& out) {
  // (region.pre * a, b) with a * b dividing region.size.
  for (int64_t a = 1; a < region.size; ++a) {
    if (region.size % a != 0) continue;
    const int64_t rest = region.size / a;
    for (int64_t b = 2; b <= rest; ++b)
      if (rest % b == 0) out.push_back({region.axis, region.pre * a, b});
  }
}

LinkClass slowest(const Frame& frame, const Factors& factors) {
  LinkClass c = LinkClass::intra;
  for (const auto& f : factors) c = slower(c, frame.classes[static_cast<std::size_t>(f.axis)]);
  return c;
}

State state_of(const DistType& type, const Mesh& mesh, bool permuted) {
  auto factors = [&](const std::vector<AxisRef>& refs) {
    Factors out;
    for (const auto& r : refs) out.push_back({static_cast<int>(*mesh.axis_index(r.name)), r.pre, r.size});
    return out;
  };
  State s;
  for (const auto& d : type.dims) s.dims.push_back(factors(d.axes));
  s.reduce = factors(type.reduce_axes);
  s.permuted = permuted;
  return s;
}

std::vector<AxisRef> refs_of(const Frame& frame, const Factors& factors) {
  std::vector<AxisRef> out;
  for (const auto& f : factors) {
    const auto a = static_cast<std::size_t>(f.axis);
    out.push_back(make_axis_ref(frame.names[a], f.pre, f.size, frame.axis_sizes[a]));
  }
  return out;
}

DistType type_of(const Frame& frame, const State& s) {
  DistType t = frame.like;
  for (std::size_t d = 0; d < s.dims.size(); ++d) t.dims[d].axes = refs_of(frame, s.dims[d]);
  t.reduce_axes = refs_of(frame, s.reduce);
  if (t.reduce_axes.empty()) t.reduce_op = ReduceOp::sum;
  return t;
}

}  // namespace redist::optimal_detail
