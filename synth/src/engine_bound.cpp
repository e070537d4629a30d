// The admissible lower bound of the optimal search (A*'s heuristic): a count of the
// communicating steps still needed, each at least one latency, plus the bytes the data
// argument puts on the links.
//
// Data: every communicating step puts on each device's link at least the bytes that
// device receives; so a plan costs at least, for any device, the target bytes its shard
// lacks over the fastest bandwidth. A device's shard overlaps its target shard in at
// most the product over dims of the smaller local size, which bounds what it lacks from
// below.
//
// With two link classes, the data a FAST GROUP (the devices that differ only on fast
// axes) needs and none of its members holds must enter the group through steps priced
// at the slow link (a step on fast axes only, or a permute whose pairs differ on fast
// axes only, stays inside groups); each such step brings at most its modeled bytes into
// each member. So the slow steps' modeled bytes sum to at least M = what the group
// lacks / its size, and all steps' to at least D, what a device lacks: the plan costs at
// least M over the slow bandwidth plus D - M over the fast one. What a group holds in a
// dim is the array with the slow factors' digits fixed (global / their product) and what
// it needs likewise under the target's tiling; their overlap is again at most the
// smaller, per dim. When M > 0 one of the steps runs at the slow class, so its latency
// is at least that class's.
//
// Count: a dim that all_slices cannot turn into the target's (it is not a prefix of
// it) needs a gather or all_to_all out of it, or the permute. A collective takes a suffix
// out of at most two dims (a fused all_to_all or all_gather moves two; appending to a
// dim never makes it a prefix), the permute may fix all. So after the permute such dims
// need half their number of collectives, rounded up (all of it without fused steps);
// before it, at least one step remains.
//
// The plan's latencies: k = the larger of the count and one when data is lacking; one
// of them at the slow class's latency when M > 0, the others at the least latency.

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

/// Communicating steps still needed by the count argument; 0 when a factor of size 1 is
/// about (gathering it is free).
int count_bound(const Frame& frame, const State& s) {
  if (!frame.size_one_axes.empty()) return 0;
  int bad = 0;
  for (std::size_t d = 0; d < s.dims.size(); ++d) {
    for (const auto& f : s.dims[d])
      if (f.size == 1) return 0;
    bad += !slice_prefix(s.dims[d], frame.target.dims[d]);
  }
  // (A change of device order adds no step: its permute may move nothing,
  // same_blocks.hpp.)
  if (!s.permuted) return std::min(bad, 1);
  return frame.fused_steps ? (bad + 1) / 2 : bad;
}

/// The product of the sizes of the factors of `factors` on axes of class `slow`.
int64_t slow_product(const Frame& frame, const Factors& factors, LinkClass slow) {
  int64_t p = 1;
  for (const auto& f : factors)
    if (frame.classes[static_cast<std::size_t>(f.axis)] == slow) p *= f.size;
  return p;
}

/// The elements per member that a fast group lacks under `s` (the argument above); 0
/// with one link speed or a change of device order (groups are then of other devices).
double group_lack_per_member(const Frame& frame, const State& s) {
  const CostModel& m = *frame.model;
  if (m.intra.bandwidth_gbps == m.inter.bandwidth_gbps || frame.mesh_change) return 0;
  const LinkClass slow = m.intra.bandwidth_gbps < m.inter.bandwidth_gbps ? LinkClass::intra : LinkClass::inter;
  double members = 1;
  for (std::size_t a = 0; a < frame.axis_sizes.size(); ++a)
    if (frame.classes[a] != slow) members *= static_cast<double>(frame.axis_sizes[a]);
  double need = 1, overlap = 1;
  for (std::size_t d = 0; d < frame.target.dims.size(); ++d) {
    const int64_t wanted = frame.globals[d] / slow_product(frame, frame.target.dims[d], slow);
    const int64_t sp = slow_product(frame, s.dims[d], slow);
    const int64_t held = (frame.globals[d] + sp - 1) / sp;  // padded blocks: at most this many
    need *= static_cast<double>(wanted);
    overlap *= static_cast<double>(std::min(wanted, held));
  }
  return need > overlap ? (need - overlap) / members : 0;
}

/// The data argument's bound: its bytes over the links (no latency) and whether a step
/// must run at the slow class.
struct DataBound {
  double time_us = 0;
  bool lacking = false;  // some device lacks data
  bool slow = false;     // M > 0
};

/// The data argument's bound; none when the target shard is padded.
DataBound data_bound(const Frame& frame, const State& s) {
  const State& t = frame.target;
  double need = 1, overlap = 1;
  for (std::size_t d = 0; d < t.dims.size(); ++d) {
    const int64_t tt = product(t.dims[d]);
    if (frame.globals[d] % tt != 0) return {};
    const int64_t target_local = frame.globals[d] / tt;
    const int64_t ts = product(s.dims[d]);
    const int64_t source_local = (frame.globals[d] + ts - 1) / ts;
    need *= static_cast<double>(target_local);
    overlap *= static_cast<double>(std::min(source_local, target_local));
  }
  const double lack = need > overlap ? need - overlap : 0;   // D
  const double slow_lack = group_lack_per_member(frame, s);  // M
  if (lack == 0 && slow_lack == 0) return {};
  const CostModel& m = *frame.model;
  const double slow_bandwidth = std::min(m.intra.bandwidth_gbps, m.inter.bandwidth_gbps);
  const double bytes = static_cast<double>(frame.elem_bytes);
  return {slow_lack * bytes / (slow_bandwidth * 1e3) +
              std::max(0.0, lack - slow_lack) * bytes / (frame.max_bandwidth_gbps * 1e3),
          true, slow_lack > 0};
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
    // The order change's permute moves data when it must carry pending factors (a
    // permute that moves nothing has none: same_blocks.hpp).
    const bool move = frame.mesh_change && !s.permuted && !s.reduce.empty();
    return real || move ? frame.min_latency_us : 0;
  }
  if (!t.reduce.empty()) return 0;
  const DataBound data = data_bound(frame, s);
  const int steps = std::max(count_bound(frame, s), data.lacking ? 1 : 0);
  if (steps == 0) return 0;
  const double bound =
      (steps - 1) * frame.min_latency_us + (data.slow ? frame.slow_latency_us : frame.min_latency_us) + data.time_us;
  // Slightly under the exact figure, so that rounding never makes the bound exceed it.
  return bound * (1 - 1e-12);
}

}  // namespace redist::engine_detail
