#pragma once
// The search engine's working representation: a type as per-dim lists of factors
// (factors.hpp) plus pending reduction factors, canonical (consecutive factors of one
// axis merged) so equal tilings compare equal, with two flags of the path taken (the
// permute used; data received, after which no slice may drop any: G3a); and the fixed
// facts of one search.
// Converted from and to DistType at the edges only.

#include <boost/container/small_vector.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "factors.hpp"
#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/synth/cost_model.hpp"

namespace redist::engine_detail {

using synth_detail::Factor;
using synth_detail::Factors;
using synth_detail::merge;
using synth_detail::product;
using synth_detail::refs_of;

/// A search state: the tiling, pending reductions, whether the permute was used and
/// whether a communicating step has run (then all_slice is closed: it would drop
/// received elements, which G3a forbids).
struct State {
  boost::container::small_vector<Factors, 4> dims;
  Factors reduce;  // sorted by (axis, pre), merged
  bool permuted = false;
  bool received = false;
  bool operator==(const State&) const = default;
};

struct StateHash {
  std::size_t operator()(const State& s) const;
};

/// Permute edges offered to the search besides those it enumerates: (state before,
/// state after) pairs, from the seeds' permutes.
using PermuteHints = std::vector<std::pair<State, State>>;

/// Permute targets the search's full step set offers a state (the targets' per-dim
/// options combined in order: engine_permute.cpp). A smaller cap (EngineLimits) keeps
/// the ones of these nearest to the target.
inline constexpr std::size_t kPermuteTargets = 96;

/// One dim's factors before and after a permute.
struct DimChange {
  Factors from;
  Factors to;
  bool operator==(const DimChange&) const = default;
};

struct DimChangeHash {
  std::size_t operator()(const DimChange& c) const;
};

/// The least modeled time of a change of device order's permute that moves data: of the
/// target's shard or more, and of a smaller shard with the gather that must follow it
/// (engine_bound.cpp; infinite where the target's shard is the least), that gather at
/// the class the factors the target leaves free allow, or at the fastest where slices
/// stay open after data arrives; zeros where some permute may move nothing.
struct OrderChangeCharge {
  double at_target = 0;
  double below_target = 0;
  double below_target_open = 0;
};

/// The digits of one axis and those of them the search may relabel (engine_symmetry.hpp).
struct SwappableDigits {
  int64_t base = 0;   // the prime p of an axis of size p^k; 0 for other sizes
  int count = 0;      // its digits (k for p^k)
  uint64_t free = 0;  // bit j: digit j (major first) is swappable
  int offset = 0;     // its first digit's index in synth_detail::digits_of(mesh), and in a DigitMap
};

/// The fixed facts of one search.
struct Frame {
  std::vector<int64_t> axis_sizes;  // mesh axes in declared order
  std::vector<LinkClass> classes;  // per axis
  std::vector<int64_t> globals;    // per dim
  int64_t elem_bytes = 4;
  int64_t budget_bytes = 0;
  const CostModel* model = nullptr;
  Mesh src_mesh;
  Mesh dst_mesh;
  bool mesh_change = false;  // the device order differs: the permute is required
  /// The class such a permute runs at (its symbolic lowering's: the slowest of the axes
  /// of size 2 or more).
  LinkClass order_change_link = LinkClass::intra;
  bool slice_after_receive = false;  // all_slice stays open after data is received
  bool fused_steps = true;           // fused all_to_alls and all_gathers are successors
  std::size_t max_permute_targets = kPermuteTargets;  // permute edges offered per state (EngineLimits)
  bool padded = false;  // the source or target has padding: padded states may be visited
  bool target_padded = false;  // the target's shard is padded
  DistType like;             // element type, global sizes and reduce op of the array
  State target;
  State counted_target;      // the target without factors of size 1 (the count bound's)
  bool size_one_mesh_axes = false;  // some mesh axis has size 1
  Factors pool;              // every factor of every axis, those the target leaves replicated first
  std::vector<int> size_one_axes;  // axes of size 1 the target tiles by
  /// Per axis, the digits states may be relabeled on (set by the search); empty where no
  /// axis has any.
  std::vector<SwappableDigits> digits;
  double min_latency_us = 0;
  /// The class of lower bandwidth (of higher latency where the bandwidths are equal;
  /// none where the classes are equal) and its latency: a step on one of its axes takes
  /// at least that latency.
  std::optional<LinkClass> slow_class;
  double slow_latency_us = 0;
  double fast_group_size = 1;  // devices that differ only on axes not of the slow class
  double max_bandwidth_gbps = 0;
  double array_elements = 1;  // of the global array
  int64_t device_count = 1;   // of the mesh: the most tiles a state has
  /// The least share of its buffer a communicating step moves per device (its modeled
  /// fraction, (g - 1) / g for a group of g): (p - 1) / p for the least prime p dividing
  /// an axis, or a slow-class axis for a step at the slow class (its group has a factor
  /// of one).
  double step_fraction = 1;
  double slow_step_fraction = 1;
  /// Permutes the seed plans take: (state before, state after), the best plan's first.
  PermuteHints permute_hints;
  /// Memo of the permute search: per (dim, tile count), the target-derived dim lists.
  mutable std::unordered_map<uint64_t, std::vector<Factors>> permute_options;
  /// Per pair of those (dim, tile count) keys, for each option of the first the options
  /// of the second compatible with it, as bit masks (engine_permute.cpp).
  mutable std::map<std::pair<uint64_t, uint64_t>, std::vector<uint32_t>> permute_masks;
  /// Memo of the lower bound's group argument (engine_bound.cpp), filled on first use:
  /// the fast groups it checks where tilings do not nest (their slow-class coordinates),
  /// and per dim and group the element intervals the group needs.
  mutable std::vector<std::vector<int64_t>> group_coords;
  mutable std::vector<std::vector<std::vector<std::pair<int64_t, int64_t>>>> group_needs;
  /// Memo of the bound's charges for the permute of a change of device order, filled on
  /// first use.
  mutable std::optional<OrderChangeCharge> order_change_charge;
  /// Memo of the permutes of a change of device order: per dim's factors before and
  /// after, whether every device keeps its block of that dim (same_blocks.hpp). A
  /// permute moves nothing when every dim does; each check walks every device, and the
  /// search asks it of each permute edge.
  mutable std::unordered_map<DimChange, bool, DimChangeHash> dim_stays;
};

/// Returns true when the permute from `s` to `t` (a change of device order, no pending
/// reductions) leaves every device the block it holds: it moves nothing.
bool stays_in_place(const Frame& frame, const State& s, const State& t);

/// True when two factors may appear in one type (as core's compatible()).
bool compatible(const Factor& a, const Factor& b);
/// True when `f` is compatible with every factor `s` uses.
bool fits(const State& s, const Factor& f);
/// The tile count of each dim of a state.
using Tiles = boost::container::small_vector<int64_t, 6>;
/// Returns the tile count of each dim of `s`.
Tiles tiles_of(const State& s);
/// Bytes one device holds with `tiles` tiles per dim (padding included): what any
/// state of those tile counts holds, known before the state is built.
int64_t local_bytes(const Frame& frame, const Tiles& tiles);
/// Bytes one device holds under `s` (padding included).
int64_t local_bytes(const Frame& frame, const State& s);
/// The factors of each axis that `s` does not use, each a maximal gap, in axis order.
Factors free_regions(const Frame& frame, const State& s);
/// Appends every factor of size >= 2 inside `region` whose ends nest with its ends.
void append_sub_factors(const Factor& region, Factors& out);
/// The slowest link class over the axes of `factors` of size 2 or more (one of size 1
/// carries no traffic).
LinkClass slowest(const Frame& frame, const Factors& factors);

/// Returns `s` without its factors of size 1 (of size-1 mesh axes: they tile nothing).
State without_size_one(State s);

/// Returns the frame of the search from `src` on `src_mesh` to `dst` on `dst_mesh`
/// (validated, same axes, same array) under `model`, with a per-device budget of
/// `budget` bytes.
Frame make_frame(const CostModel& model, const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                 const DistType& dst, int64_t budget);
/// The state of a validated, canonical `type` on `mesh`.
State state_of(const DistType& type, const Mesh& mesh, bool permuted);
/// The type of `s`.
DistType type_of(const Frame& frame, const State& s);

}  // namespace redist::engine_detail
