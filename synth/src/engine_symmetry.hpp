#pragma once
// Swappable digits: the search's symmetry. An axis of prime-power size p^k is k digits
// of base p, major first (x:(1)2 is digit 0 of x:8, x:(2)4 digits 1 and 2). Where the
// device order stays, relabeling the digits the *target* does not use (any permutation
// of them) maps the problem to itself: the target is unchanged, every step keeps its
// group sizes and link classes (a class is per axis), so each state and its relabeled
// images cost the same to finish. The engine stores each state once per relabeling
// class: a successor is relabeled so its swappable digits appear in order of first use
// (dims in order, then the pending reductions), each node records the relabeling, and
// the plan is mapped back to the source's labels when it is rebuilt.
//
// Example: on {x:2, y:6, z:16, w:2}, bf16[{w}420, {y}1680, {x}560] ->
// bf16[{y}420, 1680, {w}560] uses no digit of z, so slicing z:(8)2 onto dim 0 and
// z:(1)2 onto dim 1 is slicing z:(1)2 onto dim 0 and z:(2)2 onto dim 1 relabeled; the
// optimal search expands 1,158 states instead of 13,255 (`random190` of seed 13013).
//
// The step set is symmetric but for the permute's targets, which are built from the
// target's dims and whole sub-axes of a pool and capped (engine_permute.cpp): the image
// of a target may be another spelling the caps leave out. docs/search-engine.md says
// what that was measured to change.

#include <boost/container/small_vector.hpp>

#include <cstdint>

#include "engine_state.hpp"

namespace redist::engine_detail {

/// A relabeling of the swappable digits: for each digit of the mesh (in the order of
/// synth_detail::digits_of(), an axis's from its `offset`), its new position within its
/// axis; empty for the identity.
using DigitMap = boost::container::small_vector<uint8_t, 16>;

/// Sets `frame.digits`: per axis, where the device order stays and the axis size is a
/// prime power p^k, those of its k digits no factor of the target (dims or pending
/// reductions) covers, where there are two or more; left empty where no axis has any.
void set_swappable_digits(Frame& frame);

/// Relabels the swappable digits `s` uses in order of first use (dims in order, each
/// major first, then the pending reductions) onto the swappable positions in increasing
/// order, the unused ones after them; returns the map applied (empty when `s` was
/// already so labeled). Example, z:16 free in the target: [{z:(4)2}, {z:(1)2}] becomes
/// [{z:(1)2}, {z:(2)2}] with the map 0->1, 1->2, 2->0, 3->3.
DigitMap canonicalize_digits(const Frame& frame, State& s);

/// Returns `factors` with their swappable digits moved by `map` (old -> new), merged.
Factors relabeled(const Frame& frame, const Factors& factors, const DigitMap& map);

/// Returns `s` with its swappable digits moved by `map`, in canonical form.
State relabeled(const Frame& frame, const State& s, const DigitMap& map);

/// Returns the map that undoes `map`.
DigitMap inverse(const Frame& frame, const DigitMap& map);

/// Returns the map that applies `first`, then `second`.
DigitMap composed(const Frame& frame, const DigitMap& first, const DigitMap& second);

}  // namespace redist::engine_detail
