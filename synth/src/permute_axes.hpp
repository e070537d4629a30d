#pragma once
// The mesh axes along which a collective_permute's pairs differ, from its lowered moves
// (plan/lowered.hpp, PermuteMove) at the factor level: the cost model charges a permute
// at the slowest link class of these axes, and the search engine prices its permute
// edges with the same function, so the two always agree.
//
// A move sets the source coordinates of factors S (major to minor) to the mixed-radix
// index of the target's coordinates of factors T (equal products). Cut both chains at
// every boundary of either (cumulative sizes from the minor end); where those
// boundaries nest, each piece is one sub-axis of S receiving one sub-axis of T, and the
// pairs differ along the S piece's axis exactly when the two pieces differ. Where they
// do not nest (x:2·y:3 against y:3·x:2), every S axis counts (a mixed digit differs from
// any single one).

#include <span>
#include <utility>
#include <vector>

#include "factors.hpp"

namespace redist::synth_detail {

/// One lowered permute move: source factors take the target factors' index.
struct FactorMove {
  Factors source;
  Factors target;
};

/// Sets `moved[a]` for every mesh axis a along which some pair of the permute made of
/// `moves` differs; `moved` has one entry per mesh axis.
void mark_moved_axes(std::span<const FactorMove> moves, std::span<bool> moved);

}  // namespace redist::synth_detail
