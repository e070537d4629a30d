// The sorted plan: every block of atoms moves to its target dim in whatever order it
// arrives, then one collective_permute sorts each dim into the target's order.

#include <algorithm>
#include <optional>

#include "synth_atoms.hpp"
#include "synth_builders.hpp"

namespace redist::synth_detail {

namespace {

/// True when every atom of dim `d` of `at` belongs there or nowhere under `dst`: atoms
/// appended to it then never sit on one that must still leave.
bool settled(const Layout& at, const Layout& dst, std::size_t d) {
  return std::all_of(at.dims[d].begin(), at.dims[d].end(), [&](const Factor& f) {
    const int t = target_dim(dst, f);
    return t < 0 || t == static_cast<int>(d);
  });
}

/// One all_to_all moving the top block of some dim of `at` to the target dim of its
/// atoms (the longest suffix whose atoms go there or nowhere, from the first that goes
/// there), into a settled dim where there is one; applied to `at` and recorded in
/// `moves`. False when no dim's top atom must leave.
bool move_top_block(const Frame& frame, const Layout& dst, Layout& at, Moves& moves) {
  struct Candidate {
    std::size_t s, q;
    int t;
  };
  std::optional<Candidate> chosen;
  for (std::size_t s = 0; s < at.dims.size(); ++s) {
    const Factors& from = at.dims[s];
    int t = -1;
    std::size_t q = from.size();
    while (q > 0) {
      const int u = target_dim(dst, from[q - 1]);
      if (u == static_cast<int>(s) || (u >= 0 && t >= 0 && u != t)) break;
      if (u >= 0) t = u;
      --q;
    }
    if (t < 0) continue;
    // Replicated atoms below the block stay; those above it travel with it.
    while (target_dim(dst, from[q]) < 0) ++q;
    int64_t size = 1;
    for (std::size_t i = q; i < from.size(); ++i) size *= from[i].size;
    if (room(frame, at, static_cast<std::size_t>(t)) % size != 0) continue;
    const Candidate c{s, q, t};
    if (settled(at, dst, static_cast<std::size_t>(t))) {
      chosen = c;
      break;
    }
    if (!chosen) chosen = c;
  }
  if (!chosen) return false;
  Factors& from = at.dims[chosen->s];
  Factors block(from.begin() + static_cast<std::ptrdiff_t>(chosen->q), from.end());
  from.erase(from.begin() + static_cast<std::ptrdiff_t>(chosen->q), from.end());
  auto& into = at.dims[static_cast<std::size_t>(chosen->t)];
  into.insert(into.end(), block.begin(), block.end());
  moves.push_back(all_to_all_move(static_cast<int>(chosen->s), chosen->t, std::move(block)));
  return true;
}

}  // namespace

std::optional<Moves> sorted_plan(const Problem& problem, const Layout& src, const Layout& dst) {
  // Atoms the target tiles and the source replicates are sliced into their target dims.
  SliceIn lo = slice_in(problem.frame, src, dst, SlicePlacement::target_first);
  if (!lo.unplaced.empty()) return std::nullopt;
  Layout at = std::move(lo.at);
  Moves moves = std::move(lo.moves);
  // Each move leaves at least one atom in its target dim for good: at most one per atom.
  std::size_t atoms = 0;
  for (const auto& d : at.dims) atoms += d.size();
  for (std::size_t i = 0; i <= atoms; ++i)
    if (!move_top_block(problem.frame, dst, at, moves)) break;
  // Each dim must now hold its target's atoms (in any order) and replicated ones.
  Layout sorted;
  for (std::size_t d = 0; d < at.dims.size(); ++d) {
    if (!settled(at, dst, d)) return std::nullopt;
    Factors dim = dst.dims[d];
    for (const auto& f : at.dims[d])
      if (!contains(dst.dims[d], f)) dim.push_back(f);
    if (dim.size() != at.dims[d].size()) return std::nullopt;  // a target atom is missing
    sorted.dims.push_back(std::move(dim));
  }
  if (!(merged(sorted) == merged(at)) || problem.mesh_change) moves.push_back(permute_move(merged(sorted)));
  append_gathers(sorted, dst, moves);
  return moves;
}

}  // namespace redist::synth_detail
