// The admissible lower bound of the optimal search (A*'s heuristic): a count of the
// communicating steps still needed, each at least one latency, plus the bytes the data
// argument puts on the links.
//
// Data: every communicating step puts on each device's link at least the bytes that
// device receives; so a plan costs at least, for any device, the target bytes its shard
// lacks over the fastest bandwidth. Where a dim's two tilings nest, every device's
// shard overlaps its target shard there by the same count (or some device's by none);
// where they do not, the overlap of a few corner devices, computed interval by
// interval, bounds the least overlap from above, and so what the worst device lacks
// from below.
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
// smaller, per dim. Where a dim's tilings do not nest, the group holds the union of its
// members' blocks there (the tiles whose slow digits are the group's), and its overlap
// with what the group needs is summed interval by interval, on every group or the
// corner groups (the least over some groups is at least the least over all). When
// M > 0 one of the steps runs at the slow class, so its latency is at least that
// class's. On a change of device order the argument holds after the permute (state,
// target and steps are then all on the target mesh), not before it.
//
// Count: a dim that all_slices cannot turn into the target's (it is not a prefix of
// it) needs a gather or all_to_all out of it, or the permute. A collective takes a
// suffix out of at most two dims (a fused all_to_all or all_gather moves two; appending
// to a dim never makes it a prefix), the permute may fix all. So after the permute such
// dims need half their number of collectives, rounded up (all of it without fused
// steps); before it, at least one step remains, unless the device order changes: then
// the permute may move nothing and cost nothing. A dim that must lose a digit the
// target has in that same dim needs a second collective to bring it back, and digits
// that must move to another dim while others drop out need an all_to_all and an
// all_gather; before the permute either makes two steps where no single permute can end
// at the target (some dim's tile count does not divide the target's: slices only
// multiply it), as do more than two dims to fix. Before it, a state with more tiles
// than the target must grow, which only an all_gather does (after it no slice may
// run): where no gather after slices reaches the target (a dim whose tiling and the
// target's first differ in where a factor starts), two steps remain. A collective that
// takes a factor of a slow-class axis out runs at the slow class; so after the permute
// the dims with such a factor to leave need half their number of slow collectives,
// rounded up.
//
// Floor: a communicating step's buffer is a state's shard, which holds at least the
// array over that state's tiles (at most the devices; once slices are closed, no more
// than the current state's), and it moves at least (g - 1) / g of it for a group of g
// (an all_to_all; a gather, permute or reduction more): at least half, or (p - 1) / p
// for the least prime p of the axes, of the slow class for a slow step.
//
// The plan's latencies: k steps, the largest of the count, the slow steps and one when
// data is lacking; s of them slow, the larger of the count's slow steps and one when
// M > 0 or when a slow axis's digit must change its place (engine_spots.hpp: no slice
// can put it where the target has it). It costs at least s slow latencies and k - s
// least ones, plus the links' time: the slow steps move at least M and their floors,
// the others their floors, all together at least D, and with every step slow all of it
// at the slow bandwidth. A plan may have more steps, or more of them slow, than these
// least counts: the bound is the least over s from the slow count up to k, and over one
// more step where all k are slow (a fast step may then carry D cheaper).

#include <algorithm>
#include <array>
#include <limits>
#include <numeric>
#include <optional>
#include <tuple>
#include <utility>
#include <vector>

#include "engine_moves.hpp"
#include "engine_spots.hpp"
#include "in_place.hpp"
#include "shared_partitions.hpp"

namespace redist::engine_detail {

namespace {

/// True when `axis` is of the slow class (Frame::slow_class; none with one class).
bool slow_axis(const Frame& frame, int axis) {
  return frame.slow_class && frame.classes[static_cast<std::size_t>(axis)] == *frame.slow_class;
}

/// The digit of factor `f` of the device at `coords` (one coordinate per mesh axis).
int64_t digit_of(const Frame& frame, const Factor& f, const std::vector<int64_t>& coords) {
  const auto a = static_cast<std::size_t>(f.axis);
  return coords[a] / (frame.axis_sizes[a] / f.end()) % f.size;
}

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

/// False when no all_slices and one all_gather after them turn `have` into `want`:
/// where they first differ, their factors start at different places (axis or major
/// part). Where they start at the same place a slice may extend the held factor along
/// its axis and the gather cut it elsewhere ({y:(1)3} -> {y} -> {y:(1)2} on y:6).
bool one_gather_may_reach(const Factors& have, const Factors& want) {
  for (std::size_t i = 0; i < std::min(have.size(), want.size()); ++i)
    if (have[i] != want[i]) return have[i].axis == want[i].axis && have[i].pre == want[i].pre;
  return true;
}

/// The tiles of `s` over all dims.
int64_t tile_count(const State& s) {
  int64_t tiles = 1;
  for (const auto& d : s.dims) tiles *= product(d);
  return tiles;
}

/// Communicating steps still needed by the count argument, and how many of them run at
/// the slow class.
struct Count {
  int steps = 0;
  int slow = 0;
};

/// True when `a` and `b` share digits (factors of one axis whose ranges overlap).
bool overlap(const Factor& a, const Factor& b) {
  return a.axis == b.axis && a.pre < b.end() && b.pre < a.end();
}

/// Where the digits that must leave a dim go in the target: back into the same dim
/// (then a second collective must bring them: a collective appends at the end of a dim,
/// and no slice follows a received one), into another dim (an all_to_all moves them),
/// or out of the tiling (an all_gather drops them).
struct Leaving {
  bool returns = false;
  bool to_other_dim = false;
  bool to_free = false;
};

/// Where the digits that must leave dim `d` of a state, tiled by `have`, go in the
/// `target`. What must leave is every digit after the two tilings' longest common prefix
/// (a factor's major part may stay: {z:(1)4} -> {z:(1)2} gathers z:(2)2 only). Where the
/// first factors that differ start at the same place and `have`'s is its last, slices
/// may still extend it first ({x:(1)2} -> {x} -> {x:(1)3} on x:6), and where a leaving
/// factor and a target factor do not nest, digits are not defined: no claim (all false).
Leaving leaving_digits(const State& target, std::size_t d, const Factors& have, bool slices_open) {
  const Factors& want = target.dims[d];
  std::size_t i = 0;
  while (i < have.size() && i < want.size() && have[i] == want[i]) ++i;
  if (i == have.size()) return {};
  Factors leaving(have.begin() + static_cast<std::ptrdiff_t>(i), have.end());
  if (i < want.size() && leaving[0].axis == want[i].axis && leaving[0].pre == want[i].pre) {
    if (slices_open && i + 1 == have.size()) return {};
    const int64_t common = std::gcd(leaving[0].size, want[i].size);
    leaving[0] = Factor{leaving[0].axis, leaving[0].pre * common, leaving[0].size / common};
  }
  Leaving out;
  for (const Factor& f : leaving) {
    if (f.size <= 1) continue;
    int64_t covered = 1;  // the part of f's digits the target tiles by
    for (std::size_t e = 0; e < target.dims.size(); ++e)
      for (const Factor& w : target.dims[e]) {
        if (!overlap(f, w)) continue;
        const int64_t lo = std::max(f.pre, w.pre), hi = std::min(f.end(), w.end());
        if (hi % lo != 0) return {};
        covered *= hi / lo;
        (e == d ? out.returns : out.to_other_dim) = true;
      }
    if (f.size % covered != 0) return {};
    out.to_free = out.to_free || covered < f.size;
  }
  return out;
}

/// True when a permute from `s` may end at `target`: slices, if still open, can make
/// each dim's tile count the target's (they only multiply it).
bool permute_may_finish(const State& target, const State& s) {
  for (std::size_t d = 0; d < s.dims.size(); ++d) {
    const int64_t have = product(s.dims[d]), want = product(target.dims[d]);
    if (want % have != 0 || (s.received && want != have)) return false;
  }
  return true;
}

/// The count argument's steps from `s`, a state without factors of size 1, to
/// Frame::counted_target (count_bound()). A dim whose leaving factors include one of the
/// slow class (Frame::slow_class) needs a collective on that axis, which runs at the slow
/// class. One that must get one of them back (`{w,z}` -> `{z}`) needs two collectives.
Count counted_steps(const Frame& frame, const State& s) {
  const State& target = frame.counted_target;
  int bad = 0, bad_slow = 0;
  Leaving all;
  for (std::size_t d = 0; d < s.dims.size(); ++d) {
    const Factors& have = s.dims[d];
    const std::size_t first = first_to_leave(have, target.dims[d]);
    if (first == have.size()) continue;
    ++bad;
    bad_slow += std::any_of(have.begin() + static_cast<std::ptrdiff_t>(first), have.end(),
                            [&](const Factor& f) { return slow_axis(frame, f.axis); });
    const Leaving dim = leaving_digits(target, d, have, !s.received || frame.slice_after_receive);
    all.returns = all.returns || dim.returns;
    all.to_other_dim = all.to_other_dim || dim.to_other_dim;
    all.to_free = all.to_free || dim.to_free;
  }
  // Two collectives where digits must come back, or where some must move to another dim
  // (an all_to_all) and some drop out (an all_gather). A slice after received data could
  // bring a digit back, or put a gathered one elsewhere.
  const bool two = !frame.slice_after_receive && (all.returns || (all.to_other_dim && all.to_free));
  // Before the permute, it may fix every dim, at any class; with a change of device
  // order it may also move nothing (same_blocks.hpp), and cost nothing.
  if (!s.permuted) {
    if (frame.mesh_change || bad == 0) return {};
    // Where the permute cannot end at the target, one collective must: it takes suffixes
    // out of at most two dims, brings none back, and gathers or exchanges, not both.
    if ((bad > 2 || two) && !frame.slice_after_receive && !permute_may_finish(target, s)) return {2, 0};
    // Where the target's tile count is no multiple of the state's, some factor must leave
    // the tiling, which only an all_gather does (slices multiply the count, a permute or
    // an all_to_all keeps it), and no all_slice may follow it. One step then suffices
    // only where all_slices and one gather may reach the target.
    if (frame.padded || tile_count(target) % tile_count(s) == 0) return {1, 0};
    for (std::size_t d = 0; d < s.dims.size(); ++d)
      if (!one_gather_may_reach(s.dims[d], target.dims[d]))
        return {2, 0};
    return {1, 0};
  }
  if (bad == 0) return {};
  const int least = two ? 2 : 1;
  if (!frame.fused_steps) return {std::max(bad, least), bad_slow};
  return {std::max((bad + 1) / 2, least), (bad_slow + 1) / 2};
}

/// The count argument's steps from `s`. Factors of size 1 (size-1 mesh axes) are left
/// out of the state and the target: a step on them alone moves nothing and costs
/// nothing, and any plan, each of its states without them, is a plan between the two
/// states without them whose other steps are the same steps (a suffix stays a suffix),
/// slicing no later and permuting no earlier. So its steps that cost something are at
/// least the count there. Example: the target `f32[{x}8, {v}3]` on `{x:2, v:1}` is
/// counted as `f32[{x}8, 3]`.
Count count_bound(const Frame& frame, const State& s) {
  const bool size_one = frame.size_one_mesh_axes && std::any_of(s.dims.begin(), s.dims.end(), [](const Factors& d) {
    return std::any_of(d.begin(), d.end(), [](const Factor& f) { return f.size == 1; });
  });
  return size_one ? counted_steps(frame, without_size_one(s)) : counted_steps(frame, s);
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

/// Where worst_lack() places what a device holds by position and where by size alone.
struct Nesting {
  std::vector<std::size_t> loose;  // dims whose tilings do not nest (by size)
  double held = 1;                 // the held elements of the other dims, multiplied
};

/// Elements of the target block of the worst device, or group of devices sharing the
/// digits of the factors on axes `fixes` accepts: (needed, held of them). Per dim,
/// dim_lack() where `by_position` and the tilings nest; else by size alone, each tiling
/// counted by its accepted factors (held at most the smaller of needed and the held
/// block, padded blocks rounded up).
template <class Fixes>
std::pair<double, double> worst_lack(const Frame& frame, const State& s, Fixes fixes, bool by_position,
                                     Nesting* nesting = nullptr) {
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
    if (nesting) {
      if (lack) nesting->held *= static_cast<double>(lack->held);
      else nesting->loose.push_back(d);
    }
    if (!lack) {
      const int64_t wanted = global / tiles(frame.target.dims[d]), have = tiles(s.dims[d]);
      lack = DimLack{wanted, std::min(wanted, (global + have - 1) / have)};
    }
    need *= static_cast<double>(lack->need);
    held *= static_cast<double>(lack->held);
  }
  return {need, held};
}

/// The index of the block of `factors` (major first) that the device at `coords` (one
/// coordinate per mesh axis) holds.
int64_t block_index(const Frame& frame, const Factors& factors, const std::vector<int64_t>& coords) {
  int64_t index = 0;
  for (const auto& f : factors) index = index * f.size + digit_of(frame, f, coords);
  return index;
}

/// The elements of its target block that the device at `coords` holds under `s`, in
/// the dims `dims` (unpadded target): per dim the intersection of two intervals.
double device_overlap(const Frame& frame, const State& s, const std::vector<std::size_t>& dims,
                      const std::vector<int64_t>& coords) {
  double overlap = 1;
  for (const std::size_t d : dims) {
    const int64_t global = frame.globals[d];
    const int64_t have_tiles = product(s.dims[d]), want_tiles = product(frame.target.dims[d]);
    const int64_t have_block = (global + have_tiles - 1) / have_tiles, want_block = global / want_tiles;
    const int64_t have_begin = block_index(frame, s.dims[d], coords) * have_block;
    const int64_t want_begin = block_index(frame, frame.target.dims[d], coords) * want_block;
    const int64_t end = std::min({have_begin + have_block, want_begin + want_block, global});
    const int64_t begin = std::max(have_begin, want_begin);
    if (end <= begin) return 0;
    overlap *= static_cast<double>(end - begin);
  }
  return overlap;
}

/// The least that some device holds of its target block in `dims` (an upper bound on
/// it: the least over the corner devices, each axis at its first or last coordinate,
/// of the axes these dims' tilings use; the worst device of two tilings that do not
/// nest is usually one of them, as block 0 of one against the last block of the
/// other). Axes past the first kMaxCornerAxes stay at coordinate 0.
double least_device_overlap(const Frame& frame, const State& s, const std::vector<std::size_t>& dims) {
  constexpr std::size_t kMaxCornerAxes = 6;
  std::vector<int> axes;
  auto note = [&axes](const Factors& factors) {
    for (const auto& f : factors)
      if (std::find(axes.begin(), axes.end(), f.axis) == axes.end()) axes.push_back(f.axis);
  };
  for (const std::size_t d : dims) note(s.dims[d]), note(frame.target.dims[d]);
  if (axes.size() > kMaxCornerAxes) axes.resize(kMaxCornerAxes);
  std::vector<int64_t> coords(frame.axis_sizes.size(), 0);
  double least = std::numeric_limits<double>::infinity();
  for (uint32_t corner = 0; corner < (uint32_t{1} << axes.size()); ++corner) {
    for (std::size_t i = 0; i < axes.size(); ++i) {
      const auto a = static_cast<std::size_t>(axes[i]);
      coords[a] = (corner >> i & 1) ? frame.axis_sizes[a] - 1 : 0;
    }
    least = std::min(least, device_overlap(frame, s, dims, coords));
    if (least == 0) break;
  }
  return least;
}

/// The elements of its target block that the worst device lacks under `s`, D of the
/// argument above: worst_lack() over every axis, where the tilings of some dims do not
/// nest refined by least_device_overlap() in those dims (the nesting dims' overlap is
/// the same on every device, or none on some).
double device_lack(const Frame& frame, const State& s) {
  const bool by_position = !frame.mesh_change || s.permuted;
  Nesting nesting;
  const auto [need, held] = worst_lack(frame, s, [](int) { return true; }, by_position, &nesting);
  const double overlap = !by_position || held == 0 || nesting.loose.empty()
                             ? held
                             : std::min(held, nesting.held * least_device_overlap(frame, s, nesting.loose));
  return need > overlap ? need - overlap : 0;
}

/// Sets `out` to the blocks of `factors` (major first; blocks of `block` elements of a
/// dim of `global`) whose factors on slow-class axes take the digits of the slow
/// coordinates `coords`: what a fast group's members hold, or need, in one dim, as
/// ascending element intervals. The fast factors after the last slow one vary fastest,
/// so each run of them is one interval.
void group_intervals(const Frame& frame, const Factors& factors, const std::vector<int64_t>& coords, int64_t block,
                     int64_t global, std::vector<std::pair<int64_t, int64_t>>& out) {
  std::size_t end = factors.size();  // past the last slow factor
  while (end > 0 && !slow_axis(frame, factors[end - 1].axis)) --end;
  int64_t run = block;
  for (std::size_t k = end; k < factors.size(); ++k) run *= factors[k].size;
  out.assign(1, {0, 0});  // block prefixes, in `first`
  for (std::size_t k = 0; k < end; ++k) {
    const Factor& f = factors[k];
    const std::size_t n = out.size();
    if (slow_axis(frame, f.axis)) {
      const int64_t digit = digit_of(frame, f, coords);
      for (auto& p : out) p.first = p.first * f.size + digit;
      continue;
    }
    const auto size = static_cast<std::size_t>(f.size);
    out.resize(n * size);
    for (std::size_t i = n; i-- > 0;)  // from the back: each prefix's children after it
      for (std::size_t k2 = size; k2-- > 0;) out[i * size + k2].first = out[i].first * f.size + static_cast<int64_t>(k2);
  }
  for (auto& p : out) {
    p.first *= run;
    p.second = std::min(p.first + run, global);
  }
}

/// The elements two ascending interval lists share.
double shared(const std::vector<std::pair<int64_t, int64_t>>& a, const std::vector<std::pair<int64_t, int64_t>>& b) {
  double overlap = 0;
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    overlap += static_cast<double>(
        std::max<int64_t>(0, std::min(a[i].second, b[j].second) - std::max(a[i].first, b[j].first)));
    if (a[i].second <= b[j].second) ++i;
    else ++j;
  }
  return overlap;
}

/// The most fast groups the refined group argument checks.
constexpr std::size_t kMaxGroups = 16;

/// Fills the frame's memo of the groups the refined group argument checks: every
/// combination of the slow axes' coordinates where there are at most kMaxGroups,
/// else the corners of the first four slow axes (the least over some groups bounds the
/// least over all from above, as for devices); and what each needs per dim.
void prepare_groups(const Frame& frame) {
  if (!frame.group_coords.empty()) return;
  std::vector<std::size_t> axes;
  int64_t combos = 1;
  for (std::size_t a = 0; a < frame.axis_sizes.size(); ++a)
    if (slow_axis(frame, static_cast<int>(a)) && frame.axis_sizes[a] >= 2) {
      axes.push_back(a);
      combos = std::min(combos * frame.axis_sizes[a], static_cast<int64_t>(kMaxGroups) + 1);
    }
  const bool every = combos <= static_cast<int64_t>(kMaxGroups);
  if (!every) {
    if (axes.size() > 4) axes.resize(4);
    combos = int64_t{1} << axes.size();
  }
  for (int64_t c = 0; c < combos; ++c) {
    auto& coords = frame.group_coords.emplace_back(frame.axis_sizes.size(), 0);
    int64_t rest = c;
    for (const std::size_t a : axes) {
      coords[a] = every ? rest % frame.axis_sizes[a] : (rest & 1) * (frame.axis_sizes[a] - 1);
      rest = every ? rest / frame.axis_sizes[a] : rest >> 1;
    }
  }
  for (std::size_t d = 0; d < frame.target.dims.size(); ++d) {
    auto& needs = frame.group_needs.emplace_back();
    const int64_t global = frame.globals[d];
    for (const auto& coords : frame.group_coords)
      group_intervals(frame, frame.target.dims[d], coords, global / product(frame.target.dims[d]), global,
                      needs.emplace_back());
  }
}

/// The least that some fast group holds of what it needs in `dims` (tilings that do not
/// nest), in elements, multiplied over them, over the groups prepare_groups() lists.
double least_group_overlap(const Frame& frame, const State& s, const std::vector<std::size_t>& dims) {
  prepare_groups(frame);
  auto slow = [&](const Factor& f) { return slow_axis(frame, f.axis); };
  std::array<double, kMaxGroups> overlap;  // per group
  const std::size_t groups = frame.group_coords.size();
  std::fill_n(overlap.begin(), groups, 1.0);
  thread_local std::vector<std::pair<int64_t, int64_t>> held;  // scratch: the search bounds millions of states
  for (const std::size_t d : dims) {
    const Factors& have = s.dims[d];
    const int64_t global = frame.globals[d];
    if (std::none_of(have.begin(), have.end(), slow) &&
        std::none_of(frame.target.dims[d].begin(), frame.target.dims[d].end(), slow)) {
      for (std::size_t c = 0; c < groups; ++c) overlap[c] *= static_cast<double>(global);  // all held, all needed
      continue;
    }
    const int64_t block = (global + product(have) - 1) / product(have);
    for (std::size_t c = 0; c < groups; ++c) {
      group_intervals(frame, have, frame.group_coords[c], block, global, held);
      overlap[c] *= shared(held, frame.group_needs[d][c]);
    }
  }
  return *std::min_element(overlap.begin(), overlap.begin() + static_cast<std::ptrdiff_t>(groups));
}

/// What the worst fast group needs and holds of it (elements) under `s`, by nesting
/// tilings and by sizes, and the dims whose tilings do not nest; none with one link
/// speed, or before the permute of a change of device order (a fast step before it may
/// bring data into the target mesh's group from devices outside it; after it, the state
/// and every remaining step are on the target mesh).
struct GroupHolding {
  double need = 0;
  double held = 0;
  Nesting nesting;
};
std::optional<GroupHolding> group_holding(const Frame& frame, const State& s) {
  const CostModel& m = *frame.model;
  if (m.intra.bandwidth_gbps == m.inter.bandwidth_gbps || (frame.mesh_change && !s.permuted)) return std::nullopt;
  GroupHolding g;
  std::tie(g.need, g.held) = worst_lack(frame, s, [&](int axis) { return slow_axis(frame, axis); }, true, &g.nesting);
  return g;
}

/// True when least_group_overlap() may lower what `g` says the worst group holds.
bool refinable(const GroupHolding& g) { return g.held > 0 && !g.nesting.loose.empty(); }

/// `g` with what the worst group holds refined in the dims whose tilings do not nest.
GroupHolding refined(const Frame& frame, const State& s, GroupHolding g) {
  g.held = std::min(g.held, g.nesting.held * least_group_overlap(frame, s, g.nesting.loose));
  return g;
}

/// The elements per member that the worst fast group lacks (M of the argument above).
double lack_per_member(const Frame& frame, const std::optional<GroupHolding>& g) {
  return g && g->need > g->held ? (g->need - g->held) / frame.fast_group_size : 0;
}

/// The least elements a step from `s` on moves per device, over its modeled fraction:
/// its buffer, a state's shard, holds at least the array over that state's tiles, which
/// later steps never raise once slices are closed (a permute keeps each dim's tiles, an
/// all_to_all moves them between dims, an all_gather lowers them), and which never
/// exceed the devices.
double least_shard(const Frame& frame, const State& s) {
  const bool closed = s.received && !frame.slice_after_receive;
  return frame.array_elements / static_cast<double>(closed ? tile_count(s) : frame.device_count);
}

/// The least time on the links (no latency) of `steps` communicating steps, `slow` of
/// them at the slow class, where a device lacks `lack` elements (D), the slow steps
/// must bring each member of a fast group `slow_lack` (M), and each step moves at least
/// its fraction of `shard` elements per device: the slow steps move at least M and their
/// floors, the others at least their floors, all together at least D; with every step
/// slow, all of it over the slow link.
double data_time_us(const Frame& frame, int steps, int slow, double lack, double slow_lack, double shard) {
  const CostModel& m = *frame.model;
  const double slow_bandwidth = std::min(m.intra.bandwidth_gbps, m.inter.bandwidth_gbps) * 1e3;
  const double fast_bandwidth = frame.max_bandwidth_gbps * 1e3;
  double on_slow = std::max(slow_lack, slow * frame.slow_step_fraction * shard);
  double on_fast = std::max({lack - on_slow, (steps - slow) * frame.step_fraction * shard, 0.0});
  if (steps == slow) on_slow = std::max(on_slow, lack), on_fast = 0;
  const double bytes = static_cast<double>(frame.elem_bytes);
  return on_slow * bytes / slow_bandwidth + on_fast * bytes / fast_bandwidth;
}

/// The bound without the order change's permute (lower_bound_us()).
double bound_us(const Frame& frame, const State& s, double enough) {
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
  Count count = count_bound(frame, s);
  if (count.slow == 0 && slow_axis_must_move(frame, s)) count = {std::max(count.steps, 1), 1};
  // The count alone bounds the plan by its latencies (the full bound below has at least
  // as many steps and slow ones); where that reaches `enough`, the data argument, the
  // dearer part, is skipped. The extra margin keeps it under the full bound through
  // rounding.
  const double latencies =
      (count.slow * frame.slow_latency_us + (count.steps - count.slow) * frame.min_latency_us) * (1 - 1e-9);
  if (latencies >= enough) return latencies;
  const double shard = least_shard(frame, s);
  // With D and M in elements: a plan has at least `steps` communicating steps, at least
  // `least_slow` of them slow, and costs at least the least of these cases (more steps
  // only cost more, except that one fast step more may beat an all-slow plan).
  auto bound_with = [&](double lack, double slow_lack) {
    const int least_slow = std::max(count.slow, slow_lack > 0 ? 1 : 0);
    const int steps = std::max({count.steps, least_slow, lack > 0 ? 1 : 0});
    auto time_us = [&](int k, int slow) {
      return slow * frame.slow_latency_us + (k - slow) * frame.min_latency_us +
             data_time_us(frame, k, slow, lack, slow_lack, shard);
    };
    double bound = time_us(steps + 1, steps);
    for (int slow = least_slow; slow <= steps; ++slow) bound = std::min(bound, time_us(steps, slow));
    // Slightly under the exact figure, so that rounding never makes the bound exceed it.
    return bound * (1 - 1e-12);
  };
  if (frame.target_padded) return bound_with(0, 0);  // the data argument does not apply
  const double lack = device_lack(frame, s);  // D
  const auto group = group_holding(frame, s);
  const double bound = bound_with(lack, lack_per_member(frame, group));
  // The group argument refined where tilings do not nest (dearer) only raises the bound,
  // and only where the rest does not already reach `enough`.
  if (bound >= enough || !group || !refinable(*group)) return bound;
  return bound_with(lack, lack_per_member(frame, refined(frame, s, *group)));
}

/// The modeled times of the permute of a change of device order where every permute
/// must move data, else zeros. None can keep the blocks in place (shared_partitions.hpp)
/// when the tiling before it can be neither replicated (the array exceeds the budget)
/// nor one giving every device a distinct block in one dim (no dim divides into that
/// many, or the orders differ in their first or last device or share no bit), nor one
/// whose dims partition the devices by sub-axes of both orders; padded problems are
/// left out. Above kMaxInPlaceDevices no permute is written to stay. A moving permute
/// sends a whole shard at the slowest class (permute_time_us()): with T tiles, the
/// array over T. At T below the target's tile count that is more than the target's
/// shard (`at_target`); above it, the shard must then grow, by an all_gather (one more
/// latency) that brings each device the rest of its target shard (`below_target`, least
/// at every device's own tile: the slow link's bytes cost more than the fast one's;
/// none where the target gives every device its own tile).
const OrderChangeCharge& order_change_charge(const Frame& frame) {
  if (frame.order_change_charge) return *frame.order_change_charge;
  const int64_t n = frame.device_count;
  const double bytes = frame.array_elements * static_cast<double>(frame.elem_bytes);
  bool moves = false;
  if (!frame.padded && n > synth_detail::kMaxInPlaceDevices) {
    moves = true;
  } else if (!frame.padded && bytes > static_cast<double>(frame.budget_bytes)) {
    moves = (std::none_of(frame.globals.begin(), frame.globals.end(), [n](int64_t g) { return g % n == 0; }) ||
             !synth_detail::may_keep_distinct_blocks(frame.src_mesh, frame.dst_mesh)) &&
            !synth_detail::shares_a_proper_partition(frame.src_mesh, frame.dst_mesh);
  }
  frame.order_change_charge = OrderChangeCharge{};
  if (!moves) return *frame.order_change_charge;
  auto permute_us = [&](double shard) {
    return collective_time_us(*frame.model, CollectiveKind::permute, 2, shard, frame.order_change_link);
  };
  const double target_bytes = bytes / static_cast<double>(tile_count(frame.target));
  const double own_tile_bytes = bytes / static_cast<double>(n);
  auto below_us = [&](const Link& growth) {
    return target_bytes > own_tile_bytes ? permute_us(own_tile_bytes) + growth.latency_us +
                                               (target_bytes - own_tile_bytes) / (growth.bandwidth_gbps * 1e3)
                                         : INFINITY;
  };
  // A factor gathered after the moving permute stays free (no slice may follow received
  // data, no second permute), so the gather removes only factors the target leaves
  // free: at the fast link only where one of them is on a fast axis.
  const Link fastest{frame.max_bandwidth_gbps, frame.min_latency_us};
  const Factors free = free_regions(frame, frame.target);
  const bool fast_growth = !frame.slow_class || std::any_of(free.begin(), free.end(), [&](const Factor& f) {
    return f.size >= 2 && frame.classes[static_cast<std::size_t>(f.axis)] != *frame.slow_class;
  });
  frame.order_change_charge = OrderChangeCharge{permute_us(target_bytes),
                                                below_us(fast_growth ? fastest : frame.model->link(*frame.slow_class)),
                                                below_us(fastest)};
  return *frame.order_change_charge;
}

/// The least modeled time of the permute of a change of device order from `s`, where
/// every permute must move data, else 0: the lesser of order_change_charge()'s. Where no
/// permute from `s` can end at the target (slices cannot give each dim the target's tile
/// count: permute_may_finish()), a step that changes tile counts (a gather or an
/// all_to_all) must run besides a permute of the target's shard or more: at least one
/// more latency and its floor (Frame::step_fraction of the least shard over the fastest
/// link; factors of size 1 change no tile count, so that step has a group of 2 or more);
/// a permute of a smaller shard is followed by its gather already. Example
/// (`random223` of seed 13013, `{x:8 inter, y:2, z:2, w:4}` on another device order,
/// `bf16[18432, {y}576] -> bf16[{w,x:(1)2,x:(2)4,y,z}18432, 576]`): the permute of the
/// target's 165,888-byte shard over x costs 11.64 us; dim 1's two tiles must become one,
/// so an exchange runs too, at least 1 us and half a least shard over the intra link:
/// 12.91 us, the optimum (`AS AS A2A CP`).
double order_change_us(const Frame& frame, const State& s) {
  const OrderChangeCharge& charge = order_change_charge(frame);
  const double below = frame.slice_after_receive ? charge.below_target_open : charge.below_target;
  const bool another_step =
      !frame.slice_after_receive && !permute_may_finish(frame.target, s);
  if (charge.at_target == 0 || !another_step) return std::min(charge.at_target, below);
  const double floor_us = frame.step_fraction * least_shard(frame, s) * static_cast<double>(frame.elem_bytes) /
                          (frame.max_bandwidth_gbps * 1e3);
  return std::min(charge.at_target + frame.min_latency_us + floor_us, below);
}

}  // namespace

double lower_bound_us(const Frame& frame, const State& s, double enough) {
  // Before the permute of a change of device order, where it must move data.
  const double permute = frame.mesh_change && !s.permuted ? order_change_us(frame, s) : 0;
  if (permute >= enough) return permute;
  return std::max(permute, bound_us(frame, s, enough));
}

}  // namespace redist::engine_detail
