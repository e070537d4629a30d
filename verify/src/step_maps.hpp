#pragma once
// The semantics of each lowered step as maps between element locations:
//   backward: the element at (device, index) after the step came from where?
//   forward:  the element at (device, index) before the step ends up where on the same
//             device, if it stays there at all?
// Both read only the lowered form (groups, member order, offsets, pairs, split and
// concat dims) and the declared buffer shapes, never the types' index maps, so a wrong
// lowering changes the maps. Reduction steps have no map here (the checker reports
// plans with them as unknown).

#include <vector>

#include "redist/plan/lowered.hpp"
#include "smt_encoder.hpp"

namespace redist::smt {

/// Where an element after a step came from.
struct Origin {
  Located before;      // its location in the buffer before the step
  z3::expr in_bounds;  // that location lies inside the buffer before the step
  z3::expr moved;      // it came from another physical device
};

/// The origin of the element at `after` (on the step's after-mesh).
Origin step_back(Encoder& enc, const LoweredStep& step, const Located& after);

/// What a step does to an element that stays on its device.
struct Fate {
  Located after;    // its location after the step, meaningful when kept
  z3::expr kept;    // it is still in the device's buffer after the step
  z3::expr sliced;  // it is dropped by a local slice
};

/// The fate of the element at `before` (on the step's before-mesh) on its own device.
Fate step_forward(Encoder& enc, const LoweredStep& step, const Located& before);

/// The local buffer shape the lowered collective of `step` produces from the declared
/// shape before it; nullopt when a split does not divide evenly.
std::optional<std::vector<int64_t>> produced_shape(const LoweredStep& step);

/// True when the step moves data between devices (gather, all-to-all, permute).
bool communicates(const LoweredStep& step);

/// True for reduce_scatter and all_reduce.
bool reduces(const LoweredStep& step);

}  // namespace redist::smt
