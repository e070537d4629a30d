#pragma once
// Whether a change of device order can keep any tiled block in place. A permute that
// moves nothing (same_blocks.hpp) from a tiling u on one order to a tiling t on the
// other gives every device the same block index in every dim, so each dim's partition
// of the devices (those holding the same index) is a partition by sub-axes on both
// orders. Where no partition by a proper, non-empty set of sub-axes of the first order
// is one by sub-axes of the second (a random device list has none), only the replicated
// tiling and one that gives all devices distinct blocks in one dim can stay, the latter
// only where the two orders share a digit; the search bound (engine_bound.cpp) charges
// the permute of such a change where none of them fits.

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

/// Returns false only when every axis size is a power of two and no binary digit of the
/// devices' positions on `a` is one of their positions on `b` (same value on every
/// device). A tiling that gives every device its own block in one dim, on both orders,
/// needs one: the block index's lowest bit is a digit of each order's last factor.
bool carries_a_bit(const Mesh& a, const Mesh& b);

}  // namespace redist::synth_detail
