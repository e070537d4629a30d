// Where a mesh axis's digits sit, and which must move (engine_spots.hpp).

#include "engine_spots.hpp"

#include <algorithm>

#include <boost/container/small_vector.hpp>

namespace redist::engine_detail {

namespace {

/// A digit's place: its dim (-1: free, the state does not tile by it) and the tiles
/// above it in that dim.
struct Spot {
  int dim = -1;
  int64_t above = 1;
  bool operator==(const Spot&) const = default;
};

/// Returns the spot of the digits of `axis` from `at` on (its multiplicative scale) in
/// `s`: in the factor covering `at`, below that factor's digits above `at`.
Spot spot_of(const State& s, int axis, int64_t at) {
  for (std::size_t d = 0; d < s.dims.size(); ++d) {
    int64_t above = 1;
    for (const Factor& f : s.dims[d]) {
      if (f.axis == axis && f.pre <= at && at < f.end()) return {static_cast<int>(d), above * (at / f.pre)};
      above *= f.size;
    }
  }
  return {};
}

using Cuts = boost::container::small_vector<int64_t, 16>;

/// Adds the ends of the factors of `axis` in `s` to `cuts`.
void add_cuts(const State& s, int axis, Cuts& cuts) {
  for (const auto& dim : s.dims)
    for (const Factor& f : dim)
      if (f.axis == axis && f.size > 1) {
        cuts.push_back(f.pre);
        cuts.push_back(f.end());
      }
}

/// True when some digit of `axis` must leave its spot in `s` by a step on `axis`.
bool must_move(const Frame& frame, const State& s, const Tiles& tiles, int axis) {
  const State& t = frame.target;
  Cuts cuts{1, frame.axis_sizes[static_cast<std::size_t>(axis)]};
  add_cuts(s, axis, cuts);
  add_cuts(t, axis, cuts);
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  // Factors of the two states that do not nest (x:(1)2 against x:(1)3 on x:6) have no
  // common digits: no claim.
  for (std::size_t i = 1; i < cuts.size(); ++i)
    if (cuts[i] % cuts[i - 1] != 0) return false;
  const bool slices_open = !s.received;
  for (std::size_t i = 0; i + 1 < cuts.size(); ++i) {
    const Spot have = spot_of(s, axis, cuts[i]), want = spot_of(t, axis, cuts[i]);
    if (have == want) continue;
    const bool sliced = slices_open && have.dim < 0 && want.dim >= 0 &&
                        want.above % tiles[static_cast<std::size_t>(want.dim)] == 0;
    if (!sliced) return true;
  }
  return false;
}

/// True when `reduce` has a factor of `axis`.
bool pending_on(const Factors& reduce, int axis) {
  return std::any_of(reduce.begin(), reduce.end(), [axis](const Factor& f) { return f.axis == axis; });
}

}  // namespace

bool slow_axis_must_move(const Frame& frame, const State& s) {
  if (!frame.slow_class || frame.slice_after_receive || (frame.mesh_change && !s.permuted)) return false;
  const Tiles tiles = tiles_of(s);
  for (int a = 0; a < static_cast<int>(frame.axis_sizes.size()); ++a) {
    const auto i = static_cast<std::size_t>(a);
    if (frame.classes[i] != *frame.slow_class || frame.axis_sizes[i] < 2) continue;
    if (pending_on(s.reduce, a) || pending_on(frame.target.reduce, a)) continue;
    if (must_move(frame, s, tiles, a)) return true;
  }
  return false;
}

}  // namespace redist::engine_detail
