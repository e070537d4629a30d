#pragma once
// Pieces shared by the plan searches: hashing of layouts and tile counts, totals.

#include <cstdint>

#include "synth_layout.hpp"

namespace redist::synth_detail {

inline void hash_mix(std::size_t& h, uint64_t v) { h = (h ^ v) * 1099511628211ull; }

struct LayoutHash {
  std::size_t operator()(const Layout& l) const {
    std::size_t h = 1469598103934665603ull;
    for (const auto& d : l.dims) {
      hash_mix(h, d.size());
      for (const auto& f : d) {
        hash_mix(h, static_cast<uint64_t>(f.axis));
        hash_mix(h, static_cast<uint64_t>(f.pre));
        hash_mix(h, static_cast<uint64_t>(f.size));
      }
    }
    return h;
  }
};

using Counts = boost::container::small_vector<int64_t, 6>;

struct CountsHash {
  std::size_t operator()(const Counts& c) const {
    std::size_t h = 1469598103934665603ull;
    for (int64_t v : c) hash_mix(h, static_cast<uint64_t>(v));
    return h;
  }
};

/// Product of the tile counts of every dim.
inline int64_t total(const Layout& layout) {
  int64_t n = 1;
  for (const auto& d : layout.dims) n *= product(d);
  return n;
}

}  // namespace redist::synth_detail
