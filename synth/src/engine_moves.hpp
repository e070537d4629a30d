#pragma once
// The edges of the search engine (its one successor generator): each step a state may take within the budget, the
// state after it and its modeled time; and the admissible lower bound on the time
// still needed from a state to the target.

#include <algorithm>
#include <cmath>
#include <vector>

#include "engine_state.hpp"

namespace redist::engine_detail {

/// One step at the factor level.
struct Move {
  enum class Kind { slice, gather, all_to_all, permute, reduce_scatter, all_reduce, add_pending };
  Kind kind = Kind::slice;
  int dim = 0;     // slice, gather, reduce_scatter dim; all_to_all source dim
  int dst = 0;     // all_to_all target dim
  /// A permute that moves nothing (same_blocks.hpp): written with pairs that keep
  /// every buffer in place.
  bool stays = false;
  Factors axes;    // not used by a permute (its target is the edge's state)
  /// A fused all_to_all (all_gather): the move (part) after this one (its source
  /// (gathered) dim, target dim (unused), axes).
  struct Next {
    int dim = 0;
    int dst = 0;
    Factors axes;
  };
  std::vector<Next> fused;
};

struct Edge {
  Move move;
  State to;
  double time_us = 0;
};

/// Returns true when modeled time `a` is less than `b` beyond the relative slack under
/// which two modeled times count as equal.
inline bool cheaper(double a, double b) {
  return std::isinf(b) ? !std::isinf(a) : a < b - 1e-9 * std::max(1.0, b);
}

/// The edges worth generating from a state reached at modeled time `base` while the
/// best plan costs `best`: an edge whose time added to `base` is not cheaper than the
/// best plan cannot lead to a better one, and the search would drop it unseen, so the
/// collective generators skip it before its state is built (one collective edge in
/// eight of the default calls).
struct EdgeLimit {
  double base = 0;
  double best = INFINITY;
  /// Returns true when an edge of modeled time `time_us` is worth generating.
  bool admits(double time_us) const { return cheaper(base + time_us, best); }
};

/// Appends the slices (none once `s` has received data), gathers (also fused: two dims
/// in one collective, on unpadded problems), all_to_alls (also fused: two moves between
/// distinct source and target dims in one exchange, on unpadded problems) and reduction
/// steps `s` can take whose result fits the budget and that `limit` admits.
void append_collectives(const Frame& frame, const State& s, const EdgeLimit& limit, std::vector<Edge>& out);

/// Appends the add_pending `s` can take (engine_pending.cpp): before anything is
/// received, the target's pending reduction factors that `s` lacks and leaves free.
void append_add_pending(const Frame& frame, const State& s, std::vector<Edge>& out);

/// Appends the permutes `s` can take (none once it has permuted): to the target, or to
/// a state with `s`'s per-dim tile counts whose dims each keep `s`'s factors or start
/// with a prefix of the target's and continue with up to three other factors (those
/// the target leaves replicated tried first); and where the greedy plan permutes from
/// `s`, to its intermediate. With a device order change, also to `s` itself on the new
/// mesh; a permute there that gives every device the block it holds (same_blocks.hpp)
/// is free and receives nothing.
void append_permutes(const Frame& frame, const State& s, std::vector<Edge>& out);

/// The modeled microseconds of a permute from `s` (whose free regions are `s_free`) to
/// `x` (with equal tile counts), as the cost model charges the lowering's pairs.
double permute_time_us(const Frame& frame, const State& s, const Factors& s_free, const State& x);

/// A lower bound on the modeled time of any plan from `s` to the target: every device
/// must receive the target elements its shard lacks (at least the target's local size
/// minus the largest possible overlap), at the fastest bandwidth, after one latency.
/// Where a part of the bound, no more than the whole, already reaches `enough`, returns
/// that part (a caller that prunes states whose bound reaches `enough` needs no more).
double lower_bound_us(const Frame& frame, const State& s, double enough = INFINITY);

}  // namespace redist::engine_detail
