#pragma once
// Slice orders that keep data in place. Slicing a dim by several axes at once, the order
// of the axes decides which block each device keeps; a permute after it then moves the
// blocks that are not where the target wants them. Example on {x:2, y:2, z:2}:
// f64[{y}8] -> f64[{z,x,y}8]. all_slice(axes={z,x}) leaves each device block 4y+2z+x,
// the target wants 4z+2x+y: 2 of 8 devices already hold theirs, 6 receive.
// all_slice(axes={x,z}) leaves 4y+2x+z: every device with y = z holds its block, 4
// receive (the lower bound; XLA's own plan). The cost model prices both alike (a
// permute takes as long as its busiest device), so the engine compares the orders by
// the bytes received over all devices (engine.cpp best_seed).

#include <vector>

#include "redist/plan/plan.hpp"

namespace redist::synth_detail {

/// Largest number of axes of one all_slice whose orders are tried (3! = 6 plans).
inline constexpr std::size_t kMaxReorderedAxes = 3;

/// Returns `plan` with the axes of one all_slice that a collective_permute follows put
/// in each other order, one plan per order; empty when no such all_slice has 2 to
/// kMaxReorderedAxes axes. Unchecked: the engine types and prices them.
std::vector<Plan> reordered_slices(const Plan& plan);

}  // namespace redist::synth_detail
