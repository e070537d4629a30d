#pragma once
// Factors: a mesh axis's piece as (axis index, major part, size), the string-free form
// in which greedy synthesis and the optimal search both work on tilings. Converted
// from and to AxisRef at the edges only.

#include <boost/container/small_vector.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "redist/core/axis.hpp"
#include "redist/core/mesh.hpp"

namespace redist::synth_detail {

/// The factor of size `size` of mesh axis `axis` whose major part has size `pre`,
/// i.e. the range [pre, pre*size) on the axis's multiplicative scale.
struct Factor {
  int axis = 0;
  int64_t pre = 1;
  int64_t size = 1;
  int64_t end() const { return pre * size; }
  bool operator==(const Factor&) const = default;
};

/// Four inline (a dim rarely has more): a search state holds one per dim, and a large
/// optimal search keeps its states (with six, 1.26x the memory, at the same speed).
using Factors = boost::container::small_vector<Factor, 4>;

/// Product of the factor sizes: the tile count of a dim tiled by `factors`.
int64_t product(const Factors& factors);

/// Merges, in place, neighbours that are consecutive factors of one axis.
void merge(Factors& factors);
/// `factors` with neighbours that are consecutive factors of one axis merged.
Factors merged(Factors factors);
/// Sorts `factors` by axis and position on it, then merges them: the one spelling of a
/// set of factors (pending reductions: {y, x:(2)2, x:(1)2} becomes {x, y}).
void sort_and_merge(Factors& factors);

/// The factors of `refs`, mesh axis indices looked up by name on `mesh`.
Factors factors_of(const std::vector<AxisRef>& refs, const Mesh& mesh);
/// The references of `factors`, merged, whole axes written as such.
std::vector<AxisRef> refs_of(const Factors& factors, const Mesh& mesh);

/// One mixed-radix digit of a device position: its axis, radix, the product of the
/// axis's digits above it, and its stride in the row-major position.
struct Digit {
  int axis = 0;
  int64_t radix = 1;
  int64_t pre = 1;
  int64_t stride = 1;
};

/// Returns the digits of `mesh`'s positions, major first: each axis split into its
/// prime factors, smaller primes major.
std::vector<Digit> digits_of(const Mesh& mesh);

/// Returns the indices into `digits` (digits_of(mesh)) of `factors`' digits, major
/// first; nullopt when a factor does not start and end on digit boundaries.
std::optional<std::vector<std::size_t>> digit_list(const Factors& factors, const std::vector<Digit>& digits);

/// Returns the factors of the digits `list` (indices into `digits`, major first),
/// neighbours that are consecutive digits of one axis merged.
Factors factors_of_digits(const std::vector<std::size_t>& list, const std::vector<Digit>& digits);

/// The parts of every axis (of sizes `axis_sizes`) that no factor of `used` covers,
/// each a maximal gap between used factors, in axis order.
Factors gaps(std::span<const int64_t> axis_sizes, Factors used);

}  // namespace redist::synth_detail
