// The count-matched plan: slice every dim to the lcm of its source and target tile
// counts, permute once to the target padded with replicated factors, then gather them.

#include <numeric>

#include "synth_atoms.hpp"
#include "synth_builders.hpp"

namespace redist::synth_detail {

namespace {

/// Moves factors out of `pool` into `into` until their product is `need`: first the
/// parts of `prefer` (in order) found in the pool, then any pool factor; from each the
/// major part sharing the most with what is still needed. False when the pool runs dry.
bool fill(Factors& pool, int64_t need, const Factors& prefer, Factors& into) {
  auto take_part = [&](Factor part) {
    const int64_t g = std::gcd(part.size, need);
    if (g == 1) return false;
    const Factor piece{part.axis, part.pre, g};
    take(pool, piece);
    into.push_back(piece);
    need /= g;
    return true;
  };
  for (const auto& f : prefer) {
    Factor part;
    if (need > 1 && overlap_in(pool, f, part)) take_part(part);
  }
  for (bool progress = true; need > 1 && progress;) {
    progress = false;
    for (const auto& f : pool)
      if (take_part(f)) {
        progress = true;
        break;
      }
  }
  return need == 1;
}

/// The count-matched plan at the factor level, for layouts without common atoms.
std::optional<Moves> matched_on_factors(const Problem& problem) {
  const Frame& frame = problem.frame;
  const std::size_t rank = problem.src.dims.size();
  const auto src_counts = counts(problem.src);
  const auto dst_counts = counts(problem.dst);
  Moves moves;
  Layout lo = problem.src;
  Factors pool = free_factors(frame, problem.src);
  for (std::size_t d = 0; d < rank; ++d) {
    const int64_t m = std::lcm(src_counts[d], dst_counts[d]);
    Factors slices;
    if (!fill(pool, m / src_counts[d], problem.dst.dims[d], slices)) return std::nullopt;
    if (slices.empty()) continue;
    lo.dims[d].insert(lo.dims[d].end(), slices.begin(), slices.end());
    moves.push_back(slice_move(static_cast<int>(d), std::move(slices)));
  }
  Layout hi = problem.dst;
  pool = free_factors(frame, problem.dst);
  for (std::size_t d = 0; d < rank; ++d) {
    Factors extras;
    if (!fill(pool, product(lo.dims[d]) / dst_counts[d], lo.dims[d], extras)) return std::nullopt;
    hi.dims[d].insert(hi.dims[d].end(), extras.begin(), extras.end());
  }
  if (problem.mesh_change || merged(lo) != merged(hi)) moves.push_back(permute_move(merged(hi)));
  append_gathers(hi, problem.dst, moves);
  return moves;
}

/// The count-matched plan over prime atoms: slices prefer the target's atoms of each
/// dim (major first, or minor first when `minor_first`: the last slice lands at the
/// minor end, where the target may keep that atom, so its devices stay in place); the
/// replicated atoms padding the target prefer the dim's own atoms, minor first, ordered
/// to keep their strides, so that the permute moves fewer devices.
std::optional<Moves> matched_on_atoms(const Problem& problem, const Atomized& atoms, bool minor_first) {
  const Layout& src = atoms.a;
  const Layout& dst = atoms.b;
  Layout lo = src;
  Moves moves;
  for (std::size_t d = 0; d < src.dims.size(); ++d) {
    const int64_t have = product(src.dims[d]);
    int64_t need = std::lcm(have, product(dst.dims[d])) / have;
    Factors slices;
    auto take = [&](const Factor& f) {
      if (need == 1 || f.size == 1 || need % f.size != 0 || contains(lo, f)) return;
      slices.push_back(f);
      lo.dims[d].push_back(f);
      need /= f.size;
    };
    if (minor_first) {
      Factors chosen;  // taken minor first, sliced major first
      for (auto it = dst.dims[d].rbegin(); it != dst.dims[d].rend(); ++it) {
        const std::size_t before = slices.size();
        take(*it);
        if (slices.size() > before) {
          chosen.insert(chosen.begin(), slices.back());
          slices.pop_back();
        }
      }
      slices.insert(slices.end(), chosen.begin(), chosen.end());
      lo.dims[d].resize(lo.dims[d].size() - chosen.size());
      lo.dims[d].insert(lo.dims[d].end(), chosen.begin(), chosen.end());
    } else {
      for (const auto& f : dst.dims[d]) take(f);
    }
    for (const auto& f : atoms.all) take(f);
    if (need != 1) return std::nullopt;
    if (!slices.empty()) moves.push_back(slice_move(static_cast<int>(d), std::move(slices)));
  }
  Layout hi = dst;
  for (std::size_t d = 0; d < dst.dims.size(); ++d) {
    int64_t need = product(lo.dims[d]) / product(dst.dims[d]);
    Factors extras;
    auto add = [&](const Factor& f) {
      if (need == 1 || f.size == 1 || need % f.size != 0 || contains(hi, f) || contains(extras, f)) return;
      extras.push_back(f);
      need /= f.size;
    };
    for (auto it = lo.dims[d].rbegin(); it != lo.dims[d].rend(); ++it) add(*it);
    for (const auto& f : atoms.all) add(f);
    if (need != 1) return std::nullopt;
    extras = aligned_order(dst.dims[d], std::move(extras), lo.dims[d]);
    hi.dims[d].insert(hi.dims[d].end(), extras.begin(), extras.end());
  }
  if (problem.mesh_change || merged(lo) != merged(hi))
    moves.push_back(permute_move(hi));
  append_gathers(hi, dst, moves);
  return moves;
}

}  // namespace

std::optional<Moves> matched_plan(const Problem& problem, const Atomized* primes, bool minor_first) {
  return primes ? matched_on_atoms(problem, *primes, minor_first) : matched_on_factors(problem);
}

}  // namespace redist::synth_detail
