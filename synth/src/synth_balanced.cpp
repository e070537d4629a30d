// The balanced plan: all_to_alls that only fix per-dim tile counts, taken greedily from
// both ends of the valley until the counts meet, joined by one collective_permute.

#include <numeric>

#include "synth_builders.hpp"

namespace redist::synth_detail {

namespace {

/// Start of the longest run of minor atoms of `atoms` (never the first `fixed`) whose
/// product divides `limit`, and that product.
std::pair<std::size_t, int64_t> divisor_suffix(const Factors& atoms, std::size_t fixed, int64_t limit) {
  std::size_t q = atoms.size();
  int64_t prod = 1;
  while (q > fixed && limit % (prod * atoms[q - 1].size) == 0) prod *= atoms[--q].size;
  return {q, prod};
}

/// The all_to_all on `at` (tile counts `have`) that moves the largest block of minor
/// atoms from a dim with more tiles than `want` to a dim with fewer, within what both
/// lack; nullopt if none.
std::optional<Move> balancing_move(const Layout& at, const Counts& have, const Counts& want,
                                   const std::vector<std::size_t>& fixed) {
  std::size_t best_s = 0, best_t = 0, best_q = 0;
  int64_t best_size = 1;
  for (std::size_t s = 0; s < have.size(); ++s) {
    const int64_t excess = have[s] / std::gcd(have[s], want[s]);
    if (excess == 1) continue;
    for (std::size_t t = 0; t < have.size(); ++t) {
      if (t == s) continue;
      const int64_t deficit = want[t] / std::gcd(have[t], want[t]);
      const auto [q, size] = divisor_suffix(at.dims[s], fixed[s], std::gcd(excess, deficit));
      if (size > best_size) {
        best_size = size;
        best_s = s;
        best_t = t;
        best_q = q;
      }
    }
  }
  if (best_size == 1) return std::nullopt;
  const Factors& from = at.dims[best_s];
  return all_to_all_move(static_cast<int>(best_s), static_cast<int>(best_t),
                         Factors(from.begin() + static_cast<std::ptrdiff_t>(best_q), from.end()));
}

}  // namespace

std::optional<Moves> balanced_plan(const Problem& problem, const Atomized& primes, const Ends& ends) {
  std::vector<std::size_t> fixed;
  for (std::size_t d = 0; d < ends.lo.dims.size(); ++d) fixed.push_back(common_prefix(ends.lo.dims[d], ends.hi.dims[d]));
  // Moves from the source end (forward) and from the target end (recorded as the
  // forward all_to_alls that undo them), each shrinking the gap between the counts.
  Layout front = ends.lo, back = ends.hi;
  Counts front_counts = counts(front), back_counts = counts(back);
  Moves forward, backward;
  for (std::size_t i = 0; i <= primes.all.size() && front_counts != back_counts; ++i) {
    if (auto m = balancing_move(front, front_counts, back_counts, fixed)) {
      front = apply(front, *m);
      front_counts = counts(front);
      forward.push_back(std::move(*m));
    } else if (auto b = balancing_move(back, back_counts, front_counts, fixed)) {
      back = apply(back, *b);
      back_counts = counts(back);
      backward.push_back(all_to_all_move(b->dst, b->dim, b->axes));
    } else {
      return std::nullopt;
    }
  }
  if (front_counts != back_counts) return std::nullopt;
  Moves moves = ends.slices;
  moves.insert(moves.end(), forward.begin(), forward.end());
  if (problem.mesh_change || front != back) moves.push_back(permute_move(back));
  moves.insert(moves.end(), backward.rbegin(), backward.rend());
  append_gathers(ends.hi, primes.b, moves);
  return moves;
}

}  // namespace redist::synth_detail
