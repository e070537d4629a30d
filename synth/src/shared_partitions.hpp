#pragma once
// Whether a change of device order can keep any tiled block in place. A permute that
// moves nothing (same_blocks.hpp) from a tiling u on one order to a tiling t on the
// other gives every device the same block index in every dim, so each dim's partition
// of the devices (those holding the same index) is a partition by sub-axes on both
// orders. Where no partition by a proper, non-empty set of sub-axes of the first order
// is one by sub-axes of the second (a random device list has none), only the replicated
// tiling and one that gives all devices distinct blocks in one dim can stay, the latter
// only where the two orders put the same device first and the same last (and, on axes
// of power-of-two sizes, share a bit); the search bound (engine_bound.cpp) charges the
// permute of such a change where none of them fits.

#include "redist/core/mesh.hpp"

namespace redist::synth_detail {

/// Returns false only when no partition of the devices by a proper, non-empty set of
/// sub-axes of `a` (every device's coordinates on them; not every device apart) is also
/// a partition by sub-axes of `b` (same axes, another order of the same devices). True
/// where it may be, and where the sets of sub-axes of `a` are too many to try
/// (over 2^15 partitions).
///
/// Example: on `{x:2, y:3}` the devices split by x into {0,1,2} {3,4,5} and by y into
/// {0,3} {1,4} {2,5}. The order `devices=[0,4,2,3,1,5]` keeps y's partition: true.
/// On `devices=[1,3,5,0,2,4]` x splits them {1,3,5} {0,2,4} and y {1,0} {3,2} {5,4}:
/// false.
bool shares_a_proper_partition(const Mesh& a, const Mesh& b);

/// Returns false only when no tiling that gives every device its own block in one dim
/// (its factors use every digit of every axis) gives each device the same block on `a`
/// as one on `b` does. Such a pair of tilings needs two things:
///  - the same device first and the same device last on both orders: on either order,
///    block 0 goes to the device whose coordinates are all 0 (position 0), and block
///    n-1 to the one whose coordinates are all at their largest (position n-1);
///  - where every axis size is a power of two, a binary digit of the devices' positions
///    on `a` that is one of their positions on `b` (same value on every device): the
///    block index's lowest bit is a digit of each order's last factor.
///
/// Example: `{x:2, y:3}` against `devices=[0,4,2,3,1,5]`: first 0 and last 5 on both, so
/// maybe; against `devices=[1,3,5,0,2,4]`: device 0 is first on one and fourth on the
/// other, so no such tiling stays.
bool may_keep_distinct_blocks(const Mesh& a, const Mesh& b);

}  // namespace redist::synth_detail
