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
// before it, at least one step remains, unless the device order changes: then the
// permute may move nothing and cost nothing. A collective that takes a factor of a slow-class
// axis out runs at the slow class; so after the permute the dims with such a factor to
// leave need half their number of slow collectives, rounded up.
//
// The plan's latencies: k steps, the largest of the count, the slow steps and one when
// data is lacking; s of them slow, the larger of the count's slow steps and one when
// M > 0. It costs at least s slow latencies and k - s least ones.

#include <algorithm>
#include <optional>
#include <utility>

#include "engine_moves.hpp"

namespace redist::engine_detail {

namespace {

/// True when `have` may stay as the major part of `want` for slices to extend.
bool major_part(const Factor& have, const Factor& want) {
  return have.axis == want.axis && have.pre == want.pre && want.size % have.size == 0;
}

/// The index from which the factors of `have` must leave the dim before all_slices can
/// turn it into `want`: have.size() when `have` is a prefix of it, factor by factor, its
/// last factor possibly the major part of the target's.
std::size_t first_to_leave(const Factors& have, const Factors& want) {
  for (std::size_t i = 0; i < have.size(); ++i) {
    if (i < want.size() && have[i] == want[i]) continue;
    if (i < want.size() && major_part(have[i], want[i])) return i + 1;
    return i;
  }
  return have.size();
}

/// Communicating steps still needed by the count argument, and how many of them run at
/// the slow class.
struct Count {
  int steps = 0;
  int slow = 0;
};

/// The count argument's steps; none when a factor of size 1 is about (gathering it is
/// free). A dim whose leaving factors include one of the slow class
/// (Frame::slow_class) needs a collective on that axis, which runs at the slow class.
Count count_bound(const Frame& frame, const State& s) {
  if (!frame.size_one_axes.empty()) return {};
  int bad = 0, bad_slow = 0;
  for (std::size_t d = 0; d < s.dims.size(); ++d) {
    const Factors& have = s.dims[d];
    for (const auto& f : have)
      if (f.size == 1) return {};
    const std::size_t first = first_to_leave(have, frame.target.dims[d]);
    if (first == have.size()) continue;
    ++bad;
    bad_slow += std::any_of(have.begin() + static_cast<std::ptrdiff_t>(first), have.end(), [&](const Factor& f) {
      return frame.slow_class && frame.classes[static_cast<std::size_t>(f.axis)] == *frame.slow_class;
    });
  }
  // Before the permute, it may fix every dim, at any class; with a change of device
  // order it may also move nothing (same_blocks.hpp), and cost nothing.
  if (!s.permuted) return {frame.mesh_change ? 0 : std::min(bad, 1), 0};
  if (!frame.fused_steps) return {bad, bad_slow};
  return {(bad + 1) / 2, (bad_slow + 1) / 2};
}

/// What one device (or one group of devices) needs of a dim and the most it holds of
/// that on the worst device (group), in elements.
struct DimLack {
  int64_t need = 0;
  int64_t held = 0;
};

/// The dim of `global` elements tiled by `have`, against `want`, for the devices that
/// share the digits of the factors on axes `fixes` accepts (every axis: one device; the
/// slow class: a fast group). Both tilings are cut at every boundary of either, from the
/// major end, into pieces of one position each; a position a piece of accepted axis
/// occupies is fixed to that piece's digit. Held and needed elements are the positions
/// with their fixed digits, so the overlap is global over the product of the fixed
/// positions, or 0 for some devices when one position holds two different pieces (their
/// digits differ on some device). Nullopt when the boundaries do not nest or a tiling
/// does not divide the dim.
template <class Fixes>
std::optional<DimLack> dim_lack(int64_t global, const Factors& have, const Factors& want, Fixes fixes) {
  if (global % product(have) != 0 || global % product(want) != 0) return std::nullopt;
  std::size_t i = 0, j = 0;
  Factor a, b;  // the rest of have[i - 1] and want[j - 1]
  auto next = [](const Factors& list, std::size_t& k, Factor& rest) {
    while (rest.size == 1 && k < list.size()) rest = list[k++];
    return rest.size > 1;
  };
  int64_t fixed = 1, needed = 1;
  bool clash = false;
  while (next(have, i, a) && next(want, j, b)) {
    const int64_t piece = std::min(a.size, b.size);
    if (std::max(a.size, b.size) % piece != 0) return std::nullopt;
    const bool fa = fixes(a.axis), fb = fixes(b.axis);
    clash = clash || (fa && fb && !(a.axis == b.axis && a.pre == b.pre));
    if (fa || fb) fixed *= piece;
    if (fb) needed *= piece;
    a = Factor{a.axis, a.pre * piece, a.size / piece};
    b = Factor{b.axis, b.pre * piece, b.size / piece};
  }
  // What one tiling has past the other's end fixes its own positions.
  for (; next(have, i, a); a.size = 1)
    if (fixes(a.axis)) fixed *= a.size;
  for (; next(want, j, b); b.size = 1)
    if (fixes(b.axis)) fixed *= b.size, needed *= b.size;
  return DimLack{global / needed, clash ? 0 : global / fixed};
}

/// Elements of the target block of the worst device, or group of devices sharing the
/// digits of the factors on axes `fixes` accepts: (needed, held of them). Per dim,
/// dim_lack() where `by_position` and the tilings nest; else by size alone, each tiling
/// counted by its accepted factors (held at most the smaller of needed and the held
/// block, padded blocks rounded up).
template <class Fixes>
std::pair<double, double> worst_lack(const Frame& frame, const State& s, Fixes fixes, bool by_position) {
  auto tiles = [&](const Factors& factors) {
    int64_t p = 1;
    for (const auto& f : factors)
      if (fixes(f.axis)) p *= f.size;
    return p;
  };
  double need = 1, held = 1;
  for (std::size_t d = 0; d < s.dims.size(); ++d) {
    const int64_t global = frame.globals[d];
    std::optional<DimLack> lack;
    if (by_position) lack = dim_lack(global, s.dims[d], frame.target.dims[d], fixes);
    if (!lack) {
      const int64_t wanted = global / tiles(frame.target.dims[d]), have = tiles(s.dims[d]);
      lack = DimLack{wanted, std::min(wanted, (global + have - 1) / have)};
    }
    need *= static_cast<double>(lack->need);
    held *= static_cast<double>(lack->held);
  }
  return {need, held};
}

/// The elements per member that a fast group lacks under `s` (the argument above), on
/// the worst group; 0 with one link speed or a change of device order (groups are then
/// of other devices).
double group_lack_per_member(const Frame& frame, const State& s) {
  const CostModel& m = *frame.model;
  if (m.intra.bandwidth_gbps == m.inter.bandwidth_gbps || frame.mesh_change) return 0;
  auto is_slow = [&](int axis) { return frame.classes[static_cast<std::size_t>(axis)] == *frame.slow_class; };
  const auto [need, held] = worst_lack(frame, s, is_slow, true);
  return need > held ? (need - held) / frame.fast_group_size : 0;
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
  for (std::size_t d = 0; d < frame.target.dims.size(); ++d)
    if (frame.globals[d] % product(frame.target.dims[d]) != 0) return {};
  // (Before the permute of a change of device order the source's devices are others.)
  const auto [need, overlap] = worst_lack(frame, s, [](int) { return true; }, !frame.mesh_change || s.permuted);
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
  const Count count = count_bound(frame, s);
  const int slow = std::max(count.slow, data.slow ? 1 : 0);
  const int steps = std::max({count.steps, slow, data.lacking ? 1 : 0});
  if (steps == 0) return 0;
  const double bound = slow * frame.slow_latency_us + (steps - slow) * frame.min_latency_us + data.time_us;
  // Slightly under the exact figure, so that rounding never makes the bound exceed it.
  return bound * (1 - 1e-12);
}

}  // namespace redist::engine_detail
