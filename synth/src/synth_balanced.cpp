// The balanced plan: all_to_alls that only fix per-dim tile counts, taken from both ends
// of the valley (largest block first, trying others where that gets stuck) until the
// counts meet, joined by one collective_permute.

#include <algorithm>
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

/// The all_to_alls on `at` (tile counts `have`) that each move the largest block of
/// minor atoms from one dim with more tiles than `want` to one with fewer, within what
/// both lack: one per such pair of dims, largest first (the first is the greedy choice).
std::vector<Move> balancing_moves(const Layout& at, const Counts& have, const Counts& want,
                                  const std::vector<std::size_t>& fixed) {
  struct Option {
    std::size_t s, t, q;
    int64_t size;
  };
  std::vector<Option> options;
  for (std::size_t s = 0; s < have.size(); ++s) {
    const int64_t excess = have[s] / std::gcd(have[s], want[s]);
    if (excess == 1) continue;
    for (std::size_t t = 0; t < have.size(); ++t) {
      if (t == s) continue;
      const int64_t deficit = want[t] / std::gcd(have[t], want[t]);
      const auto [q, size] = divisor_suffix(at.dims[s], fixed[s], std::gcd(excess, deficit));
      if (size > 1) options.push_back({s, t, q, size});
    }
  }
  std::stable_sort(options.begin(), options.end(), [](const Option& a, const Option& b) { return a.size > b.size; });
  std::vector<Move> moves;
  for (const auto& o : options) {
    const Factors& from = at.dims[o.s];
    moves.push_back(all_to_all_move(static_cast<int>(o.s), static_cast<int>(o.t),
                                    Factors(from.begin() + static_cast<std::ptrdiff_t>(o.q), from.end())));
  }
  return moves;
}

/// Balancing moves tried per call beyond the greedy path, and plans returned from there:
/// where taking the largest block first gets stuck (an atom that would fit is not minor
/// yet), smaller blocks and other pairs of dims are tried depth-first, and the plans
/// found go to the engine to be priced, so a builder that fails costs a bounded number
/// of layouts.
constexpr int kMaxBalanceTries = 64;
constexpr std::size_t kMaxBalancedPlans = 4;

/// The all_to_alls from each end that make the two ends' tile counts meet.
struct Balanced {
  Moves forward, backward;  // backward: the forward all_to_alls that undo the target end's
  Layout front, back;       // the ends where the counts meet
};

/// Depth-first search for all_to_alls that make the tile counts of the two ends meet:
/// from the source end and, where that is stuck, from the target end. The first path it
/// walks is the greedy one; when that meets, it is the only plan.
struct Balancer {
  const std::vector<std::size_t>& fixed;
  bool greedy_only = false;
  int tries = kMaxBalanceTries;
  bool backtracked = false;
  Balanced path;
  std::vector<Balanced> found;

  // Returns true when the search is over.
  bool meet(const Layout& from, const Layout& to, std::size_t depth) {
    const Counts have = counts(from), want = counts(to);
    if (have == want) {
      // (Moves from both ends in another order give the same plan.)
      if (std::none_of(found.begin(), found.end(), [&](const Balanced& b) {
            return same_steps(b.forward, path.forward) && same_steps(b.backward, path.backward);
          })) {
        path.front = from;
        path.back = to;
        found.push_back(path);
      }
      return !backtracked || found.size() == kMaxBalancedPlans;
    }
    if (depth == 0) return false;
    for (auto& m : balancing_moves(from, have, want, fixed)) {
      if (tries-- <= 0) return true;
      Layout next = apply(from, m);
      path.forward.push_back(std::move(m));
      if (meet(next, to, depth - 1)) return true;
      path.forward.pop_back();
      backtracked = true;
      if (greedy_only) return true;
    }
    for (auto& b : balancing_moves(to, want, have, fixed)) {
      if (tries-- <= 0) return true;
      Layout next = apply(to, b);
      path.backward.push_back(all_to_all_move(b.dst, b.dim, b.axes));
      if (meet(from, next, depth - 1)) return true;
      path.backward.pop_back();
      backtracked = true;
      if (greedy_only) return true;
    }
    return false;
  }
};

}  // namespace

std::vector<Moves> balanced_plans(const Problem& problem, const Atomized& primes, const Ends& ends, bool greedy_only) {
  std::vector<std::size_t> fixed;
  for (std::size_t d = 0; d < ends.lo.dims.size(); ++d) fixed.push_back(common_prefix(ends.lo.dims[d], ends.hi.dims[d]));
  Balancer balancer{fixed, greedy_only};
  balancer.meet(ends.lo, ends.hi, primes.all.size() + 1);
  std::vector<Moves> plans;
  for (const auto& b : balancer.found) {
    Moves moves = ends.slices;
    moves.insert(moves.end(), b.forward.begin(), b.forward.end());
    if (problem.mesh_change || b.front != b.back) moves.push_back(permute_move(b.back));
    moves.insert(moves.end(), b.backward.rbegin(), b.backward.rend());
    append_gathers(ends.hi, primes.b, moves);
    plans.push_back(std::move(moves));
  }
  return plans;
}

}  // namespace redist::synth_detail
