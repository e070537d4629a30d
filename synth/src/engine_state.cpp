// The search engine's factor-level states (engine_state.hpp).

#include "engine_state.hpp"

#include <algorithm>

namespace redist::engine_detail {

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
  mix(h, s.received);
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

int64_t local_bytes(const Frame& frame, const State& s) {
  int64_t bytes = frame.elem_bytes;
  for (std::size_t d = 0; d < s.dims.size(); ++d) {
    const int64_t t = product(s.dims[d]);
    bytes *= (frame.globals[d] + t - 1) / t;
  }
  return bytes;
}

Factors free_regions(const Frame& frame, const State& s) {
  Factors used = s.reduce;
  for (const auto& d : s.dims) used.insert(used.end(), d.begin(), d.end());
  return synth_detail::gaps(frame.axis_sizes, std::move(used));
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
  State s;
  for (const auto& d : type.dims) s.dims.push_back(synth_detail::factors_of(d.axes, mesh));
  s.reduce = synth_detail::factors_of(type.reduce_axes, mesh);
  s.permuted = permuted;
  return s;
}

DistType type_of(const Frame& frame, const State& s) {
  DistType t = frame.like;
  for (std::size_t d = 0; d < s.dims.size(); ++d) t.dims[d].axes = refs_of(s.dims[d], frame.src_mesh);
  t.reduce_axes = refs_of(s.reduce, frame.src_mesh);
  if (t.reduce_axes.empty()) t.reduce_op = ReduceOp::sum;
  return t;
}

}  // namespace redist::engine_detail
