// The balanced plan: all_to_alls that only fix per-dim tile counts, taken from both ends
// of the valley (largest block first, trying others where that gets stuck) until the
// counts meet, joined by one collective_permute.

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <numeric>
#include <utility>

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

/// One balancing all_to_all: the minor atoms of dim `s` from position `q` on (`size`
/// tiles) move to dim `t`.
struct Balancing {
  std::size_t s, t, q;
  int64_t size;
};

/// The all_to_alls on `at` (tile counts `have`) that each move the largest block of
/// minor atoms from one dim with more tiles than `want` to one with fewer, within what
/// both lack: one per such pair of dims, largest first (the first is the greedy choice).
boost::container::small_vector<Balancing, 8> balancing_moves(const Layout& at, const Counts& have, const Counts& want,
                                                             const std::vector<std::size_t>& fixed) {
  boost::container::small_vector<Balancing, 8> options;
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
  std::stable_sort(options.begin(), options.end(), [](const Balancing& a, const Balancing& b) { return a.size > b.size; });
  return options;
}

/// The move of `b` on `at`.
Move move_of(const Layout& at, const Balancing& b) {
  const Factors& from = at.dims[b.s];
  return all_to_all_move(static_cast<int>(b.s), static_cast<int>(b.t),
                         Factors(from.begin() + static_cast<std::ptrdiff_t>(b.q), from.end()));
}

/// Balancing moves tried per call beyond the greedy path, and plans returned from there:
/// where taking the largest block first gets stuck (an atom that would fit is not minor
/// yet), smaller blocks and other pairs of dims are tried depth-first, and the plans
/// found go to the engine to be priced, so a builder that fails costs a bounded number
/// of layouts.
constexpr int kMaxBalanceTries = 64;
constexpr std::size_t kMaxBalancedPlans = 4;

/// Depth-first search for all_to_alls that make the tile counts of the two ends meet:
/// from the source end and, where that is stuck, from the target end (recorded as the
/// forward all_to_alls that undo them). The first path it walks is the greedy one; when
/// that meets, it is the only plan.
struct Balancer {
  const Problem& problem;
  const Atomized& primes;
  const Ends& ends;
  const std::vector<std::size_t>& fixed;
  bool greedy_only = false;
  int tries = kMaxBalanceTries;
  bool backtracked = false;
  Moves forward{}, backward{};
  std::vector<Moves> plans{};

  // Records the plan through `front` and `back`, whose counts meet, unless another order
  // of the same moves gave it already.
  void record(const Layout& front, const Layout& back) {
    Moves moves = ends.slices;
    moves.insert(moves.end(), forward.begin(), forward.end());
    if (problem.mesh_change || front != back) moves.push_back(permute_move(back));
    moves.insert(moves.end(), backward.rbegin(), backward.rend());
    append_gathers(ends.hi, primes.b, moves);
    if (std::none_of(plans.begin(), plans.end(), [&](const Moves& p) { return same_steps(p, moves); }))
      plans.push_back(std::move(moves));
  }

  // Returns true when the search is over.
  bool meet(const Layout& from, const Layout& to, std::size_t depth) {
    const Counts have = counts(from), want = counts(to);
    if (have == want) {
      record(from, to);
      return !backtracked || plans.size() == kMaxBalancedPlans;
    }
    if (depth == 0) return false;
    for (const auto& option : balancing_moves(from, have, want, fixed)) {
      if (tries-- <= 0) return true;
      Move m = move_of(from, option);
      Layout next = apply(from, m);
      forward.push_back(std::move(m));
      if (meet(next, to, depth - 1)) return true;
      forward.pop_back();
      backtracked = true;
      if (greedy_only) return true;
    }
    for (const auto& option : balancing_moves(to, want, have, fixed)) {
      if (tries-- <= 0) return true;
      Move b = move_of(to, option);
      Layout next = apply(to, b);
      backward.push_back(all_to_all_move(b.dst, b.dim, std::move(b.axes)));  // the move that undoes b
      if (meet(from, next, depth - 1)) return true;
      backward.pop_back();
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
  Balancer balancer{problem, primes, ends, fixed, greedy_only};
  balancer.meet(ends.lo, ends.hi, primes.all.size() + 1);
  return std::move(balancer.plans);
}

}  // namespace redist::synth_detail
