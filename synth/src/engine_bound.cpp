// The admissible lower bound of the optimal search (A*'s heuristic), the larger of two:
//
// Data: every communicating step costs at least the smallest latency and puts on each
// device's link at least the bytes that device receives; so a plan costs at least one
// latency plus, for any device, the target bytes its shard lacks over the fastest
// bandwidth. A device's shard overlaps its target shard in at most the product over
// dims of the smaller local size, which bounds what it lacks from below.
//
// Count: a dim that all_slices cannot turn into the target's (it is not a prefix of
// it) needs a gather or all_to_all out of it, or the permute; each such collective
// fixes one dim, the permute may fix all. So after the permute each such dim costs a
// latency; before it, at least one latency remains.

#include <algorithm>

#include "engine_moves.hpp"

namespace redist::engine_detail {

namespace {

/// True when all_slices alone can turn `have` into `want`: `have` is a prefix of it,
/// factor by factor, its last factor possibly the major part of the target's.
bool slice_prefix(const Factors& have, const Factors& want) {
  if (have.size() > want.size()) return false;
  for (std::size_t i = 0; i < have.size(); ++i) {
    if (have[i] == want[i]) continue;
    const bool major_part = i + 1 == have.size() && have[i].axis == want[i].axis && have[i].pre == want[i].pre &&
                            want[i].size % have[i].size == 0;
    if (!major_part) return false;
  }
  return true;
}

/// Latencies still needed by the count argument; 0 when a factor of size 1 is about
/// (gathering it is free).
double count_bound(const Frame& frame, const State& s) {
  if (!frame.size_one_axes.empty()) return 0;
  int bad = 0;
  for (std::size_t d = 0; d < s.dims.size(); ++d) {
    for (const auto& f : s.dims[d])
      if (f.size == 1) return 0;
    bad += !slice_prefix(s.dims[d], frame.target.dims[d]);
  }
  if (!s.permuted) bad = std::min(bad, 1);
  if (frame.mesh_change && !s.permuted) bad = std::max(bad, 1);
  return bad * frame.min_latency_us;
}

/// The data argument's bound; 0 when the target shard is padded.
double data_bound(const Frame& frame, const State& s) {
  const State& t = frame.target;
  double need = 1, overlap = 1;
  for (std::size_t d = 0; d < t.dims.size(); ++d) {
    const int64_t tt = product(t.dims[d]);
    if (frame.globals[d] % tt != 0) return 0;
    const int64_t target_local = frame.globals[d] / tt;
    const int64_t ts = product(s.dims[d]);
    const int64_t source_local = (frame.globals[d] + ts - 1) / ts;
    need *= static_cast<double>(target_local);
    overlap *= static_cast<double>(std::min(source_local, target_local));
  }
  if (need <= overlap) return 0;
  const double bytes = (need - overlap) * static_cast<double>(frame.elem_bytes);
  return frame.min_latency_us + bytes / (frame.max_bandwidth_gbps * 1e3);
}

}  // namespace

double lower_bound_us(const Frame& frame, const State& s) {
  const State& t = frame.target;
  if (s.reduce != t.reduce) {
    // A reduction collective over a factor of size >= 2 remains, unless every pending
    // factor stays pending (the target only adds some: add_pending, free).
    const bool real = std::any_of(s.reduce.begin(), s.reduce.end(), [&t](const Factor& f) {
      return f.size >= 2 && std::find(t.reduce.begin(), t.reduce.end(), f) == t.reduce.end();
    });
    const bool move = frame.mesh_change && !s.permuted;
    return real || move ? frame.min_latency_us : 0;
  }
  const double bound = t.reduce.empty() ? std::max(data_bound(frame, s), count_bound(frame, s)) : 0;
  // Slightly under the exact figure, so that rounding never makes the bound exceed it.
  return bound * (1 - 1e-12);
}

}  // namespace redist::engine_detail
