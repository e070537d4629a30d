#pragma once
// Where a mesh axis's digits sit in a state, and the part of the search bound that
// follows from it (engine_bound.cpp): with no step that communicates along an axis, its
// digits cannot change places after the first slices, so where the target has them
// elsewhere some step must run on that axis (docs/synthesis.md, lower bound).

#include "engine_state.hpp"

namespace redist::engine_detail {

/// True when every plan from `s` to the target has a step priced at the slow link class
/// (Frame::slow_class) because some slow-class axis's digits must change places.
///
/// The argument: a step prices a slow-class axis a only where it communicates along a
/// (an all_gather, all_to_all, reduce_scatter or all_reduce over a factor of a; a
/// permute whose lowered pairs differ on a: permute_axes.hpp). Every other step keeps
/// each digit of a in its SPOT: its dim and the tiles above it there (an all_slice or a
/// collective on other axes appends to or cuts the end of a dim, behind a's factors or
/// in other dims; a permute that leaves a's pieces where they are prices none of a).
/// Only all_slices, before anything is received, give a free digit a spot: at the end of
/// a dim, so above it lie that dim's tiles now times those of earlier slices. So a digit
/// whose spot in the target differs from its spot in `s` and that no slice can give that
/// spot (it is not free, slices are closed, or the dim's tiles do not divide the tiles
/// above it in the target) needs a slow step.
///
/// Example, on {x:8 (inter), y:6, z:4, w:2}: from f32[6, {y}18, 24, {w,z}24] to
/// f32[{y}6, {x:(1)2}18, {x:(2)4,w}24, {z}24] the digit x:(1)2 is free but has 1 tile
/// above it in the target's dim 1, which holds 6 tiles now: a step on x remains (the
/// optimal plan permutes over x and y), although every device holds all it needs over x.
///
/// False before the permute of a change of device order (the state's spots are on
/// another mesh), where all_slice stays open after data is received, with one link
/// class, and for axes with pending reductions (the bound handles those apart).
bool slow_axis_must_move(const Frame& frame, const State& s);

}  // namespace redist::engine_detail
