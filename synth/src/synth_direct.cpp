// The direct plan: every all_to_all moves a block of atoms straight to its final place.

#include <algorithm>

#include "synth_atoms.hpp"
#include "synth_builders.hpp"

namespace redist::synth_detail {

namespace {

/// Slices each deferred atom whose target dim of `at` is ready for it (holds exactly the
/// target's atoms before it), applied to `at` and recorded in `moves`.
void slice_ready(const Frame& frame, const Layout& dst, Layout& at, Factors& deferred, Moves& moves) {
  for (std::size_t t = 0; t < at.dims.size(); ++t) {
    const Factors& want = dst.dims[t];
    Factors sliced;
    for (std::size_t k = common_prefix(at.dims[t], want); k == at.dims[t].size() && k < want.size();
         k = common_prefix(at.dims[t], want)) {
      auto it = std::find(deferred.begin(), deferred.end(), want[k]);
      if (it == deferred.end() || room(frame, at, t) % it->size != 0) break;
      at.dims[t].push_back(*it);
      sliced.push_back(*it);
      deferred.erase(it);
    }
    if (sliced.empty()) continue;
    if (!moves.empty() && moves.back().kind == Move::Kind::slice && moves.back().dim == static_cast<int>(t)) {
      moves.back().axes.insert(moves.back().axes.end(), sliced.begin(), sliced.end());
    } else {
      moves.push_back(slice_move(static_cast<int>(t), std::move(sliced)));
    }
  }
}

/// One all_to_all that extends the target prefix of some open dim of `at`, applied to
/// `at` and recorded in `moves`; false when there is none.
bool place_next_block(const Frame& frame, const Layout& dst, Layout& at, Moves& moves) {
  for (std::size_t t = 0; t < at.dims.size(); ++t) {
    const Factors& want = dst.dims[t];
    const std::size_t k = common_prefix(at.dims[t], want);
    if (k != at.dims[t].size() || k == want.size()) continue;  // not open, or complete
    const auto [s, q] = locate(at, want[k]);
    if (s < 0) continue;
    Factors& from = at.dims[static_cast<std::size_t>(s)];
    const std::size_t j = common_prefix(from, want, q, k);
    const std::size_t len = from.size() - q;
    // The block must be the next atoms of `want`, or complete it and carry only atoms
    // the target does not use (they stay on top and are gathered at the end).
    bool ok = j == len;
    if (!ok && k + j == want.size()) {
      ok = true;
      for (std::size_t i = q + j; i < from.size(); ++i) ok = ok && !contains(dst, from[i]);
    }
    if (!ok) continue;
    Factors block(from.begin() + static_cast<std::ptrdiff_t>(q), from.end());
    if (room(frame, at, t) % product(block) != 0) continue;
    from.erase(from.begin() + static_cast<std::ptrdiff_t>(q), from.end());
    at.dims[t].insert(at.dims[t].end(), block.begin(), block.end());
    moves.push_back(all_to_all_move(s, static_cast<int>(t), std::move(block)));
    return true;
  }
  return false;
}

}  // namespace

std::optional<Moves> direct_plan(const Problem& problem, const Layout& src, const Layout& dst,
                                 SlicePlacement placement) {
  SliceIn lo = slice_in(problem.frame, src, dst, placement);
  Layout at = std::move(lo.at);
  Moves moves = std::move(lo.moves);
  Factors deferred = std::move(lo.unplaced);
  // Each all_to_all completes at least one more atom of some dim: bounded by the atoms.
  std::size_t atoms = 0;
  for (const auto& d : dst.dims) atoms += d.size();
  for (std::size_t i = 0; i <= atoms; ++i) {
    slice_ready(problem.frame, dst, at, deferred, moves);
    if (!place_next_block(problem.frame, dst, at, moves)) break;
  }
  if (!deferred.empty()) return std::nullopt;
  for (std::size_t t = 0; t < at.dims.size(); ++t) {
    const Factors& have = at.dims[t];
    if (common_prefix(have, dst.dims[t]) != dst.dims[t].size()) return std::nullopt;
    for (std::size_t i = dst.dims[t].size(); i < have.size(); ++i)
      if (contains(dst, have[i])) return std::nullopt;
  }
  if (problem.mesh_change) moves.push_back(permute_move(merged(at)));
  append_gathers(at, dst, moves);
  return moves;
}

}  // namespace redist::synth_detail
