#pragma once
// Counting devices by equivalence classes of mesh digits, never device by device
// (used by figures.cpp and lower_bound.cpp; docs/design.md §2, "exact figures").
//
// A device is the tuple of its mesh coordinates, and each coordinate is a mixed-radix
// number of the factors (sub-axes x:(m)k) the types and steps mention. Refining every
// axis at every factor boundary gives independent "digits". Many figures reduce to
// counting the devices on which two mixed-radix numbers over such factors are equal:
// "the source block of dim 0 nests in the target block", "the permute sends this device
// its own data". Walking two such numbers from the minor end and splitting digits where
// their sizes differ turns each equality into equalities of single digits; a union-find
// over digits then counts the solutions exactly: every merge of two classes of size s
// divides the count by s. The cost depends on the number of factors, not of devices.
//
// When the factor boundaries of an axis do not nest (x:(1)2 and x:(1)3 of x:6), or a
// split does not divide, the digits are not independent and count() says so (nullopt);
// callers then fall back to visiting coordinate tuples.

#include <cstdint>
#include <optional>
#include <vector>

#include "redist/core/axis.hpp"
#include "redist/core/mesh.hpp"

namespace redist::detail {

/// value(lhs) / lhs_drop == value(rhs) over mixed-radix factor lists (major first):
/// the number `lhs` spells, without its minor part of size `lhs_drop`, equals the
/// number `rhs` spells. Both sides then range over the same size.
struct FactorEquality {
  std::vector<AxisRef> lhs;
  std::vector<AxisRef> rhs;
  int64_t lhs_drop = 1;
};

/// The number of devices of `mesh` (positions, i.e. coordinate tuples) on which every
/// one of `equalities` holds, or nullopt when the factors do not refine into
/// independent digits.
std::optional<int64_t> count_devices(const Mesh& mesh, const std::vector<FactorEquality>& equalities);

}  // namespace redist::detail
