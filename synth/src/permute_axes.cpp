// The axes along which a permute's pairs differ (permute_axes.hpp).

#include "permute_axes.hpp"

#include <algorithm>

#include <boost/container/small_vector.hpp>

namespace redist::synth_detail {

namespace {

/// Cumulative sizes, on the stack (the search prices every permute edge with them).
using Cuts = boost::container::small_vector<int64_t, 16>;

/// The cumulative sizes of `chain` from its minor end: 1, then the product of the last
/// factor, of the last two, ... (size-1 factors skipped).
Cuts boundaries(const Factors& chain) {
  Cuts out{1};
  for (auto it = chain.rbegin(); it != chain.rend(); ++it)
    if (it->size > 1) out.push_back(out.back() * it->size);
  return out;
}

/// The sub-factor of `chain` at positions [lo, hi) of its mixed radix (cumulative sizes
/// from the minor end), which lie inside one factor.
Factor piece(const Factors& chain, int64_t lo, int64_t hi) {
  int64_t below = 1;  // cumulative size of the factors minor to the current one
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    if (it->size <= 1) continue;
    if (hi <= below * it->size) return Factor{it->axis, it->end() * below / hi, hi / lo};
    below *= it->size;
  }
  return Factor{};
}

/// Marks the axes of one move.
void mark(const FactorMove& move, std::span<bool> moved) {
  const auto bs = boundaries(move.source), bt = boundaries(move.target);
  Cuts cuts = bs;
  cuts.insert(cuts.end(), bt.begin(), bt.end());
  std::sort(cuts.begin(), cuts.end());
  cuts.erase(std::unique(cuts.begin(), cuts.end()), cuts.end());
  bool nested = bs.back() == bt.back();
  for (std::size_t i = 1; i < cuts.size(); ++i) nested = nested && cuts[i] % cuts[i - 1] == 0;
  if (!nested) {
    for (const auto& f : move.source)
      if (f.size > 1) moved[static_cast<std::size_t>(f.axis)] = true;
    return;
  }
  for (std::size_t i = 1; i < cuts.size(); ++i) {
    const Factor s = piece(move.source, cuts[i - 1], cuts[i]);
    if (!(s == piece(move.target, cuts[i - 1], cuts[i]))) moved[static_cast<std::size_t>(s.axis)] = true;
  }
}

}  // namespace

void mark_moved_axes(std::span<const FactorMove> moves, std::span<bool> moved) {
  for (const auto& move : moves) mark(move, moved);
}

}  // namespace redist::synth_detail
