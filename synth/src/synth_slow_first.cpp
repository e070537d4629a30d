// The slow-first plan: slices, then one collective_permute that puts every atom of a
// slow (inter-node) axis where the target has it, then all_to_alls and all_gathers on
// fast axes only. Under two link speeds the slow link is then crossed once, by the
// permute, where the other builders' exchanges cross it before their permute does.
//
// The permute's target ("middle") keeps, per target dim, a prefix of the target's atoms
// that holds all of its slow ones, then the source's atoms the target leaves replicated
// (gathered later), then atoms of other dims' target suffixes parked there for a later
// all_to_all. The per-dim tile counts of the middle must be those of the source with
// its free atoms sliced in, so the prefixes are cut back and atoms parked, fewest first,
// until the slices can make up each dim's count. Two variants widen the layouts: an
// intra-node all_to_all before the permute (a minor block of fast source atoms moved to
// another dim, where slices alone cannot make up the counts), and the dropped atoms all
// in one dim of the middle (each in turn), to be gathered there.
//
// Example (`{x:8 inter, y:4, z:4, w:3}`, `f32[{w}96, 8, {z:(2)2,x:(1)2}16, 3] ->
// f32[{x,y}96, {z:(1)2,z:(2)2}8, 16, 3]`): with the target in place dim 2 would need
// fewer tiles than its source's 4; y is parked there, the middle is `[{x,w}, {z}, {y},
// -]`, made from the source by slices of x:(2)4 and z:(1)2 (dim 0) and y (dim 1) and
// one permute across x; then all_gather w and all_to_all y into dim 0, both intra-node:
// 11.03 -> 7.02 us. Over prime atoms the builder parks z in dim 2 instead: 7.019 us,
// the optimum.
//
// Without slow axes every prefix may be cut: the exchange-last plans of the default
// call's fallback (synth_builders.hpp), which fit max(source, target) by construction.

#include <algorithm>
#include <numeric>
#include <optional>

#include "synth_atoms.hpp"
#include "synth_builders.hpp"

namespace redist::synth_detail {

namespace {

/// Exchanges before the permute tried at most, over all layouts, per layout a variant
/// may try (512 in the default call's 256 layouts).
constexpr int kExchangesPerTry = 2;
/// Atoms parked at most.
constexpr std::size_t kMaxParked = 4;

/// True when mesh axis `axis` is slow under `slow` (none is where it is empty).
bool is_slow(const std::vector<bool>& slow, int axis) {
  return !slow.empty() && slow[static_cast<std::size_t>(axis)];
}

/// Assigns each atom of `pool` (from `next` on) to a dim whose remaining ratio its size
/// divides, the dim it has in `middle` first; true when every ratio ends at 1.
bool assign_slices(const Factors& pool, std::size_t next, Counts& ratio, const Layout& middle,
                   std::vector<Factors>& into, int& budget) {
  if (next == pool.size())
    return std::all_of(ratio.begin(), ratio.end(), [](int64_t r) { return r == 1; });
  if (--budget < 0) return false;
  const Factor& f = pool[next];
  const int home = target_dim(middle, f);
  for (int pass = 0; pass < 2; ++pass)
    for (std::size_t d = 0; d < ratio.size(); ++d) {
      if ((pass == 0) != (static_cast<int>(d) == home) || ratio[d] % f.size != 0) continue;
      ratio[d] /= f.size;
      into[d].push_back(f);
      if (assign_slices(pool, next + 1, ratio, middle, into, budget)) return true;
      into[d].pop_back();
      ratio[d] *= f.size;
    }
  return false;
}

/// The fast phase from `at` to `dst`: while they differ, an all_to_all of the top block
/// of some dim that continues its atoms' target dim (which holds a prefix of its
/// target), else an all_gather of the top run of atoms the target leaves replicated;
/// false when neither applies.
bool finish(const Layout& dst, Layout at, Moves& moves) {
  for (std::size_t guard = 0; guard < 64 && !(at == dst); ++guard) {
    bool moved = false;
    for (std::size_t s = 0; s < at.dims.size() && !moved; ++s) {
      const Factors& from = at.dims[s];
      if (from.empty()) continue;
      const int t = target_dim(dst, from.back());
      if (t < 0 || t == static_cast<int>(s)) continue;
      const Factors& into = at.dims[static_cast<std::size_t>(t)];
      const Factors& want = dst.dims[static_cast<std::size_t>(t)];
      const std::size_t n = into.size();
      if (n >= want.size() || common_prefix(into, want) != n) continue;
      const auto k = static_cast<std::size_t>(std::find(from.begin(), from.end(), want[n]) - from.begin());
      if (k == from.size() || common_prefix(from, want, k, n) != from.size() - k) continue;
      moves.push_back(all_to_all_move(static_cast<int>(s), t, Factors(from.begin() + static_cast<std::ptrdiff_t>(k), from.end())));
      at = apply(at, moves.back());
      moved = true;
    }
    for (std::size_t s = 0; s < at.dims.size() && !moved; ++s) {
      const Factors& from = at.dims[s];
      std::size_t q = from.size();
      while (q > 0 && target_dim(dst, from[q - 1]) < 0) --q;
      if (q == from.size()) continue;
      moves.push_back(gather_move(static_cast<int>(s), Factors(from.begin() + static_cast<std::ptrdiff_t>(q), from.end())));
      at = apply(at, moves.back());
      moved = true;
    }
    if (!moved) return false;
  }
  return at == dst;
}

/// Appends to `out` every vector `take` (take[d] <= room[d]) whose sum is at most
/// `left`, from dim `d` on.
void splits(const std::vector<std::size_t>& room, std::size_t d, std::size_t left, std::vector<std::size_t>& take,
            std::vector<std::vector<std::size_t>>& out) {
  if (d == room.size()) {
    out.push_back(take);
    return;
  }
  for (std::size_t t = 0; t <= std::min(room[d], left); ++t) {
    take[d] = t;
    splits(room, d + 1, left - t, take, out);
  }
  take[d] = 0;
}

/// The slices that make up `want` from `have` (per dim, pool atoms whose sizes multiply
/// to the ratio), none into dim `keep` (-1: any dim may take some); nullopt where the
/// counts do not divide or the pool cannot make them up.
std::optional<std::vector<Factors>> slices_for(const Problem& problem, const Counts& have, const Counts& want,
                                               const Factors& pool, const Layout& middle, int keep) {
  const std::size_t rank = want.size();
  Counts ratio(rank);
  for (std::size_t d = 0; d < rank; ++d) {
    if (want[d] % have[d] != 0 || problem.frame.globals[d] % want[d] != 0) return std::nullopt;
    ratio[d] = want[d] / have[d];
    if (static_cast<int>(d) == keep && ratio[d] != 1) return std::nullopt;
  }
  std::vector<Factors> slices(rank);
  int budget = 256;
  if (!assign_slices(pool, 0, ratio, middle, slices, budget)) return std::nullopt;
  return slices;
}

/// The all_slices, the all_to_all `exchange` (if any), the permute to `middle` and the
/// fast phase after it, or nullopt where the fast phase is stuck.
std::optional<Moves> plan_through(const Problem& problem, const Layout& src, const Layout& dst,
                                  const std::vector<Factors>& slices, const std::optional<Move>& exchange,
                                  const Layout& middle) {
  Moves moves;
  Layout at = src;
  for (std::size_t d = 0; d < slices.size(); ++d)
    if (!slices[d].empty()) {
      moves.push_back(slice_move(static_cast<int>(d), slices[d]));
      at = apply(at, moves.back());
    }
  if (exchange) {
    moves.push_back(*exchange);
    at = apply(at, moves.back());
  }
  if (!(merged(at) == merged(middle)) || problem.mesh_change) moves.push_back(permute_move(merged(middle)));
  if (!finish(dst, middle, moves)) return std::nullopt;
  return moves;
}

/// A plan from `src` to `dst` through the permute to `middle`: slices that make up its
/// tile counts, or with `exchange` slices and then one intra-node all_to_all that moves a
/// minor block of fast atoms of one source dim to another dim (none sliced into the
/// block's dim), the first block and dims that meet them. `budget` counts the exchanges
/// tried.
std::optional<Moves> through(const Problem& problem, const Layout& src, const Layout& dst, const Factors& pool,
                             const Layout& middle, const std::vector<bool>& slow, bool exchange, int& budget) {
  const std::size_t rank = dst.dims.size();
  const Counts have = counts(src), want = counts(middle);
  if (!exchange) {
    if (auto slices = slices_for(problem, have, want, pool, middle, -1))
      return plan_through(problem, src, dst, *slices, std::nullopt, middle);
    return std::nullopt;
  }
  for (std::size_t a = 0; a < rank; ++a) {
    const Factors& from = src.dims[a];
    int64_t size = 1;
    for (std::size_t q = from.size(); q > 0 && !is_slow(slow, from[q - 1].axis); --q) {
      size *= from[q - 1].size;
      for (std::size_t b = 0; b < rank; ++b) {
        if (b == a) continue;
        if (--budget < 0) return std::nullopt;
        Counts moved = have;
        moved[a] /= size;
        moved[b] *= size;
        if (auto slices = slices_for(problem, moved, want, pool, middle, static_cast<int>(a)))
          if (auto plan = plan_through(problem, src, dst, *slices,
                                       all_to_all_move(static_cast<int>(a), static_cast<int>(b),
                                                       Factors(from.begin() + static_cast<std::ptrdiff_t>(q - 1), from.end())),
                                       middle))
            return plan;
      }
    }
  }
  return std::nullopt;
}

}  // namespace

SlowFirstPlans slow_first_plans(const Problem& problem, const Layout& src, const Layout& dst,
                                const std::vector<bool>& slow, int max_tries) {
  SlowFirstPlans out;
  const std::size_t rank = dst.dims.size();
  // Per target dim, the shortest prefix that holds all its slow atoms (none without
  // slow axes: every cut).
  std::vector<std::size_t> least(rank, 0);
  for (std::size_t d = 0; d < rank; ++d)
    for (std::size_t i = 0; i < dst.dims[d].size(); ++i)
      if (is_slow(slow, dst.dims[d][i].axis)) least[d] = i + 1;
  if (!slow.empty() && std::all_of(least.begin(), least.end(), [](std::size_t n) { return n == 0; })) return out;
  // The source's atoms the target leaves replicated stay in their dim, to be gathered.
  Layout gone;
  gone.dims.resize(rank);
  for (std::size_t d = 0; d < rank; ++d)
    for (const auto& f : src.dims[d])
      if (!contains(dst, f)) gone.dims[d].push_back(f);
  Factors pool;  // the target's atoms the source does not use: sliced in
  for (const auto& d : dst.dims)
    for (const auto& f : d)
      if (!contains(src, f)) pool.push_back(f);
  // Cuts, fewest parked atoms first: dim d keeps dst.dims[d].size() - take[d] of its
  // target atoms in place and parks the rest, each on another dim (an odometer).
  std::vector<std::size_t> room(rank), take(rank, 0);
  for (std::size_t d = 0; d < rank; ++d) room[d] = dst.dims[d].size() - least[d];
  std::vector<std::vector<std::size_t>> cuts;
  splits(room, 0, kMaxParked, take, cuts);
  std::stable_sort(cuts.begin(), cuts.end(), [](const auto& a, const auto& b) {
    return std::accumulate(a.begin(), a.end(), std::size_t{0}) < std::accumulate(b.begin(), b.end(), std::size_t{0});
  });
  // The three variants walk the same layouts, each with its own budgets, until each has
  // its first plan. `together`: the dim all dropped atoms go to, -1 for their own dims.
  struct Variant {
    std::optional<Moves>* plan;
    bool exchange, together;
    bool done;
    int tries, exchanges;
  };
  const bool any_gone = std::any_of(gone.dims.begin(), gone.dims.end(), [](const Factors& f) { return !f.empty(); });
  const int exchanges = kExchangesPerTry * max_tries;
  Variant variants[] = {{&out.slices_only, false, false, false, max_tries, exchanges},
                        {&out.exchange_first, true, false, false, max_tries, exchanges},
                        {&out.gathered_together, true, true, !any_gone, max_tries, exchanges}};
  auto middle_of = [&](const std::vector<std::size_t>& parked_from, const Factors& parked,
                       const std::vector<std::size_t>& where, int together) {
    Layout middle;
    middle.dims.resize(rank);
    for (std::size_t d = 0; d < rank; ++d) {
      Factors& m = middle.dims[d];
      m.assign(dst.dims[d].begin(), dst.dims[d].end() - static_cast<std::ptrdiff_t>(parked_from[d]));
      for (std::size_t e = 0; e < rank; ++e)
        if (together < 0 ? e == d : static_cast<int>(d) == together)
          m.insert(m.end(), gone.dims[e].begin(), gone.dims[e].end());
      for (std::size_t i = 0; i < parked.size(); ++i)
        if (where[i] == d) m.push_back(parked[i]);
    }
    return middle;
  };
  for (const auto& parked_from : cuts) {
    Factors parked;
    for (std::size_t d = 0; d < rank; ++d)
      parked.insert(parked.end(), dst.dims[d].end() - static_cast<std::ptrdiff_t>(parked_from[d]), dst.dims[d].end());
    std::vector<std::size_t> where(parked.size(), 0);
    for (;;) {
      bool elsewhere = true;
      for (std::size_t i = 0; i < parked.size() && elsewhere; ++i)
        elsewhere = static_cast<int>(where[i]) != target_dim(dst, parked[i]);
      for (auto& v : variants) {
        const int first = v.together ? 0 : -1, last = v.together ? static_cast<int>(rank) : 0;
        for (int together = first; elsewhere && !v.done && together < last; ++together) {
          if (--v.tries < 0) {
            v.done = true;
            break;
          }
          const Layout middle = middle_of(parked_from, parked, where, together);
          if ((*v.plan = through(problem, src, dst, pool, middle, slow, v.exchange, v.exchanges))) v.done = true;
        }
      }
      if (std::all_of(std::begin(variants), std::end(variants), [](const Variant& v) { return v.done; })) return out;
      std::size_t i = 0;
      while (i < where.size() && where[i] + 1 == rank) where[i++] = 0;
      if (i == where.size()) break;
      ++where[i];
    }
  }
  return out;
}

std::vector<Moves> found_plans(SlowFirstPlans plans) {
  std::vector<Moves> out;
  for (auto* plan : {&plans.slices_only, &plans.exchange_first, &plans.gathered_together})
    if (*plan) out.push_back(std::move(**plan));
  return out;
}

}  // namespace redist::synth_detail
