#pragma once
// The candidate builders of synthesis. Each returns moves within max(source, target)
// local bytes, in the paper's normal form (all_slice, then all_to_all and at most one
// collective_permute, then all_gather; the direct plan may slice after an all_to_all,
// the bounded plan gather before one: docs/synthesis.md) or nullopt when its
// construction does not apply; synthesize() keeps the cheapest.

#include <optional>
#include <vector>

#include "synth_atoms.hpp"
#include "synth_moves.hpp"

namespace redist::synth_detail {

/// Where an atom that the target tiles but the source replicates is sliced in.
enum class SlicePlacement {
  /// On top of its target predecessor, or into its target dim when that dim holds
  /// exactly the target's atoms before it; nothing else.
  exact,
  /// As `exact`, else on top of another dim that holds a prefix of its own target, to
  /// move on to its target dim in the same exchange as its predecessor (a fused
  /// all_to_all appends its blocks in order): on `{x:16}`, `f32[44, {x:(1)2}44, 176] ->
  /// f32[44, 44, {x}176]` slices x:(2)2 onto dim 1 and x:(4)4 onto dim 0, then one
  /// all_to_all moves both into dim 2, where `exact` slices x:(4)4 after it.
  staged,
  /// Its target dim first, then on top of its predecessor, then any dim with room.
  target_first,
  /// On top of its predecessor first, then its target dim, then any dim with room.
  predecessor_first,
};

/// The result of slicing in the atoms a target tiles and a source replicates.
struct SliceIn {
  Layout at;         // the source with the placed atoms appended
  Moves moves;       // one all_slice per dim
  Factors unplaced;  // atoms that fit nowhere under the placement, in target order
};

/// Slices the atoms `dst` tiles and `src` does not (both atomized alike) by `placement`.
SliceIn slice_in(const Frame& frame, const Layout& src, const Layout& dst, SlicePlacement placement);

/// The two ends of a valley over prime atoms (both from atomize(..., true)).
struct Ends {
  Layout lo;     // the source with atoms sliced in (and, when the target's tile total
                 // does not divide its own, free atoms for the permute to swap)
  Moves slices;  // the all_slices that make `lo`
  Layout hi;     // the target with replicated atoms on top, `lo`'s tile total
};

/// `lo` by `placement` and `hi` with the atoms of `lo` the target does not use on top
/// (minor first, in their own dim where it has room, ordered to keep their strides),
/// then other free atoms; nullopt when some atom fits nowhere.
std::optional<Ends> valley_ends(const Frame& frame, const Atomized& atoms, SlicePlacement placement);

/// Direct plan (no permute unless the device order changes): slices placed by
/// `placement` (exact or staged), then greedy all_to_alls that each put a block of atoms
/// at its final place, each atom that could not be placed sliced in as soon as its dim
/// is ready for it (memory still only shrinks), then gathers of the atoms the target
/// does not use.
std::optional<Moves> direct_plan(const Problem& problem, const Layout& src, const Layout& dst,
                                 SlicePlacement placement = SlicePlacement::exact);

/// Sorted plan: atoms the target tiles and the source replicates sliced into their
/// target dims, then all_to_alls that each move the top block of a dim to its atoms'
/// target dim (in whatever order it arrives there), then one permute that sorts every
/// dim into the target's order, then gathers of the atoms the target does not use;
/// nullopt where an atom that must leave is stuck under one that stays. `{x:4 inter,
/// y:8, z:6}` `f32[{y}1536, {z}192, 16, {x}32] -> f32[{z,y}1536, {x}192, 16, 32]`: z to
/// dim 0, x to dim 1, a permute from `{y,z}` to `{z,y}` (on y and z only), 2.3x cheaper
/// than the balanced plan, whose exchanges of prime atoms leave x for the permute.
std::optional<Moves> sorted_plan(const Problem& problem, const Layout& src, const Layout& dst);

/// Slow-first plans (synth_slow_first.cpp): slices, one permute to a layout that holds,
/// per target dim, a prefix of the target's atoms with all of those on `slow` axes (per
/// mesh axis index), the source's atoms the target leaves replicated, and target atoms
/// parked for later (fewest first, until the slices can make up its tile counts), then
/// all_to_alls of the parked atoms and all_gathers, on fast axes where the target puts
/// no slow atom after a fast one. Each variant's first plan over the same layouts, or
/// nullopt where the target has no slow atom or none is found within `max_tries`
/// layouts per variant (one variant's first plan is often worse than another's; the
/// engine prices them). With `slow` empty every prefix may be cut and every atom is
/// fast: the exchange-last plans of synthesize()'s fallback, where no other seed fits
/// the bound (slices only shrink, the permute and all_to_alls keep the size, the gathers
/// end at the target's: every such plan fits max(source, target) and slices first).
/// `{x:3, y:16, z:2, w:2, u:2}` `f32[{u}216, {x}864, {z}36] -> f32[{w,x,u,z}216, {y}864,
/// 36]`: slices of w and y into dim 1, a permute to `[{w}, {y,x,u}, {z}]`, all_to_alls of
/// x,u and z into dim 0, where every other builder's plan exceeds the source's bytes.
struct SlowFirstPlans {
  std::optional<Moves> slices_only;
  /// Slices, then an all_to_all of a minor block of fast source atoms into another dim
  /// (the slices alone never make up the counts), then the permute.
  std::optional<Moves> exchange_first;
  /// As `exchange_first`, with the atoms the target leaves replicated all in one dim
  /// (each dim in turn) of the permute's target, gathered there together.
  std::optional<Moves> gathered_together;
};
/// Layouts a variant tries in the default call: it must stay within microseconds.
inline constexpr int kSlowFirstTries = 256;
/// Layouts each exchange-last variant tries in synthesize()'s fallback, which without a
/// valid seed searches thousands of states (hundreds of milliseconds) for any plan.
inline constexpr int kExchangeLastTries = 4096;
SlowFirstPlans slow_first_plans(const Problem& problem, const Layout& src, const Layout& dst,
                                const std::vector<bool>& slow, int max_tries = kSlowFirstTries);
/// Returns the plans `plans` holds, in the order of its variants.
std::vector<Moves> found_plans(SlowFirstPlans plans);

/// Count-matched plan: slice each dim to the lcm of its source and target tile
/// counts, one collective_permute to the target plus replicated factors, gathers.
/// Over `primes` (the problem's prime atoms) when given, else at the factor level;
/// over atoms, the slices take the target's atoms of each dim major first, or minor
/// first when `minor_first`.
std::optional<Moves> matched_plan(const Problem& problem, const Atomized* primes, bool minor_first = false);

/// Balanced plans over prime atoms: from the valley's `ends`, all_to_alls of minor
/// atoms from dims with too many tiles to dims with too few, taken from the source end
/// and, where that is stuck, from the target end, until the per-dim tile counts meet;
/// one permute between them when the layouts still differ. The largest block goes
/// first, and when that greedy path meets it is the one plan. Where it gets stuck and
/// not `greedy_only`, a bounded depth-first search tries the other blocks and returns
/// up to four plans (`{x:4, y:3, z:2, w:16}` `f32[{x,y}768, {w}1536, {z}48] ->
/// f32[{w}768, {y,z}1536, 48]`: moving w first strands y behind it; moving y first
/// meets). `greedy_only` (the seeds of a plain call, and the xla_style baseline's
/// all_to_alls): the greedy path or nothing.
std::vector<Moves> balanced_plans(const Problem& problem, const Atomized& primes, const Ends& ends,
                                  bool greedy_only);

/// Replicate then slice (the paper's "easy" plan): one all_gather per tiled dim, a
/// permute to the target mesh when the device order changes (free: every device holds
/// everything), then one all_slice per dim of the target.
Moves gather_then_slice_moves(const Problem& problem);

}  // namespace redist::synth_detail
