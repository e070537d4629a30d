#include "synth_layout.hpp"

#include <algorithm>

namespace redist::synth_detail {

int64_t total_devices(const Frame& frame) {
  int64_t n = 1;
  for (int64_t s : frame.axis_sizes) n *= s;
  return n;
}

boost::container::small_vector<int64_t, 6> counts(const Layout& layout) {
  boost::container::small_vector<int64_t, 6> out;
  for (const auto& d : layout.dims) out.push_back(product(d));
  return out;
}

int64_t room(const Frame& frame, const Layout& layout, std::size_t dim) {
  return frame.globals[dim] / product(layout.dims[dim]);
}

double local_elements(const Frame& frame, const Layout& layout) {
  double elements = 1;
  for (std::size_t d = 0; d < layout.dims.size(); ++d) elements *= static_cast<double>(room(frame, layout, d));
  return elements;
}

Layout merged(const Layout& layout) {
  Layout out;
  for (const auto& d : layout.dims) out.dims.push_back(merged(d));
  return out;
}

Layout layout_of(const DistType& type, const Mesh& mesh) {
  Layout out;
  for (const auto& dim : type.dims) out.dims.push_back(factors_of(dim.axes, mesh));
  return out;
}

DistType type_of(const Layout& layout, const DistType& like, const Mesh& mesh) {
  DistType out = like;
  for (std::size_t d = 0; d < layout.dims.size(); ++d) out.dims[d].axes = refs_of(layout.dims[d], mesh);
  return out;
}

Factors free_factors(const Frame& frame, const Layout& layout) {
  Factors used;
  for (const auto& d : layout.dims) used.insert(used.end(), d.begin(), d.end());
  return gaps({frame.axis_sizes.data(), frame.axis_sizes.size()}, std::move(used));
}

namespace {

/// True when `inner` lies inside `outer` with boundaries that keep a divisor chain.
bool nests_in(const Factor& inner, const Factor& outer) {
  return inner.axis == outer.axis && inner.pre % outer.pre == 0 && outer.end() % inner.end() == 0 &&
         inner.pre >= outer.pre && inner.end() <= outer.end();
}

}  // namespace

void take(Factors& pool, const Factor& piece) {
  for (auto it = pool.begin(); it != pool.end(); ++it) {
    if (!nests_in(piece, *it)) continue;
    const Factor whole = *it;
    it = pool.erase(it);
    if (piece.end() < whole.end()) it = pool.insert(it, Factor{whole.axis, piece.end(), whole.end() / piece.end()});
    if (piece.pre > whole.pre) pool.insert(it, Factor{whole.axis, whole.pre, piece.pre / whole.pre});
    return;
  }
}

bool overlap_in(const Factors& pool, const Factor& want, Factor& part) {
  for (const auto& g : pool) {
    if (g.axis != want.axis) continue;
    const int64_t lo = std::max(g.pre, want.pre);
    const int64_t hi = std::min(g.end(), want.end());
    if (lo >= hi || hi % lo != 0) continue;
    const Factor piece{g.axis, lo, hi / lo};
    if (nests_in(piece, g) && nests_in(piece, want)) {
      part = piece;
      return true;
    }
  }
  return false;
}

}  // namespace redist::synth_detail
