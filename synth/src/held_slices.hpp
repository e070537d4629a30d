#pragma once
// Slices that keep the blocks devices already hold. A plan that slices and then permutes
// moves every block the slice leaves in the wrong place; a device whose source block
// contains its target block need receive nothing, if its slice keeps exactly that block.
// Example on {x:2, y:16}: bf16[{x}N] -> bf16[{y,x}N]. all_slice(axes={y}) leaves device
// (x, y) block 16x+y of 32 while the target wants 2y+x: 2 devices hold theirs, and 30
// receive (1.875x the lower bound). The 16 devices with x = y:(1)2 (the top bit of y)
// hold their target block in their source half; all_slice(axes={y:(2)8,y:(1)2}) leaves
// block 16x + 2y:(2)8 + y:(1)2, which on them is 2y+x, so they keep it and only the other
// 16 receive: the lower bound.
//
// The construction works on the prime digits of the device position (factors.hpp). Per
// dim, where the target's major digits have the radices of the source's (value equal,
// so digit by digit equal, exactly on the devices that hold the target block), the
// slice takes the target's remaining digits, each source digit among them replaced by
// the target digit equal to it there.
//
// Beside slice_orders.hpp: that rewrite tries the orders of one slice's axes and keeps
// the best, which still helps where these digits do not line up, a device order changes
// or an all_to_all comes between (3 of the comparison harness's 493 cases); this one
// builds the slice that keeps every held block where they do.

#include <optional>

#include "redist/plan/plan.hpp"

namespace redist::synth_detail {

/// Returns `plan` with its leading all_slices (on one mesh, before a collective_permute
/// without explicit pairs) replaced by slices after which every device whose source
/// block holds its block after the permute keeps that block; nullopt when the plan has
/// no such prefix, has padding or pending reductions, a dim's digits do not line up, or
/// the slices stay the same. Unchecked: the engine types and prices it.
std::optional<Plan> held_slices(const Plan& plan);

}  // namespace redist::synth_detail
