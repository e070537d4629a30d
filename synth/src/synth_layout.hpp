#pragma once
// Factor-level layouts, the working representation of greedy synthesis: a type as, per
// dim, a sequence of factors (factors.hpp), cheap to copy and compare and free of
// strings. Converted from and to DistType at the edges only.

#include <boost/container/small_vector.hpp>

#include <cstdint>
#include <vector>

#include "factors.hpp"
#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"

namespace redist::synth_detail {

/// Per dim, the factors it is tiled over, major to minor.
struct Layout {
  boost::container::small_vector<Factors, 4> dims;
  bool operator==(const Layout&) const = default;
};

/// The fixed facts of one problem: mesh axis sizes and global dim sizes.
struct Frame {
  boost::container::small_vector<int64_t, 6> axis_sizes;
  boost::container::small_vector<int64_t, 6> globals;
  int64_t elem_bytes = 4;
};

/// Tile counts per dim.
using Counts = boost::container::small_vector<int64_t, 6>;

/// Devices of the mesh: the product of its axis sizes.
int64_t total_devices(const Frame& frame);
/// Tile count of each dim.
Counts counts(const Layout& layout);
/// Product of the tile counts of every dim.
inline int64_t total(const Layout& layout) {
  int64_t n = 1;
  for (const auto& d : layout.dims) n *= product(d);
  return n;
}
/// Local size of `dim` under `layout` (globals are multiples of the tile counts).
int64_t room(const Frame& frame, const Layout& layout, std::size_t dim);
/// Elements one device holds under `layout`, as a double (for cost estimates).
double local_elements(const Frame& frame, const Layout& layout);

/// Every dim merged: two layouts with the same tiling become equal.
Layout merged(const Layout& layout);

/// The layout of a validated type (mesh axis indices looked up by name).
Layout layout_of(const DistType& type, const Mesh& mesh);
/// The type with `layout`'s tiling and `like`'s element type and global sizes.
DistType type_of(const Layout& layout, const DistType& like, const Mesh& mesh);

/// The factors of every axis that `layout` does not use (its replicated factors), in
/// axis order, each a maximal gap between used factors.
Factors free_factors(const Frame& frame, const Layout& layout);

/// Removes from `pool` the factor `piece`, which must lie inside one of its factors
/// with nesting boundaries; splits that factor into the parts around `piece`.
void take(Factors& pool, const Factor& piece);

/// The part of `want` (a factor of the same axis) that lies inside some factor of
/// `pool` with nesting boundaries, if any: the intersection of the two ranges.
bool overlap_in(const Factors& pool, const Factor& want, Factor& part);

}  // namespace redist::synth_detail
