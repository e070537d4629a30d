// Placement of the atoms a plan slices in (tiled by the target, replicated in the source).

#include "synth_atoms.hpp"
#include "synth_builders.hpp"

namespace redist::synth_detail {

SliceIn slice_in(const Frame& frame, const Layout& src, const Layout& dst, SlicePlacement placement) {
  SliceIn out;
  Layout& at = out.at;
  at = src;
  const int rank = static_cast<int>(dst.dims.size());
  boost::container::small_vector<Factors, 6> slices(dst.dims.size());
  for (int t = 0; t < rank; ++t) {
    const Factors& want = dst.dims[static_cast<std::size_t>(t)];
    for (std::size_t idx = 0; idx < want.size(); ++idx) {
      const Factor& atom = want[idx];
      if (contains(src, atom)) continue;
      auto fits = [&](int d) { return d >= 0 && room(frame, at, static_cast<std::size_t>(d)) % atom.size == 0; };
      // The dim whose top is the atom's predecessor in the target, if any.
      int pred = -1;
      for (int d = 0; d < rank && idx > 0; ++d) {
        const Factors& have = at.dims[static_cast<std::size_t>(d)];
        if (!have.empty() && have.back() == want[idx - 1]) pred = d;
      }
      const Factors& target_now = at.dims[static_cast<std::size_t>(t)];
      const bool exact_target = target_now.size() == idx && common_prefix(target_now, want) == idx;
      auto first_fit = [&] {
        for (int d = 0; d < rank; ++d)
          if (fits(d)) return d;
        return -1;
      };
      // A dim other than the target's holding a prefix of its own target: the staged
      // atom leaves it as the block on top, and what stays below is in place.
      auto staging = [&] {
        for (int d = 0; d < rank; ++d) {
          const Factors& have = at.dims[static_cast<std::size_t>(d)];
          if (d != t && fits(d) && common_prefix(have, dst.dims[static_cast<std::size_t>(d)]) == have.size())
            return d;
        }
        return -1;
      };
      int chosen = -1;
      switch (placement) {
        case SlicePlacement::exact:
          chosen = fits(pred) ? pred : (exact_target && fits(t) ? t : -1);
          break;
        case SlicePlacement::staged:
          chosen = fits(pred) ? pred : (exact_target && fits(t) ? t : staging());
          break;
        case SlicePlacement::target_first:
          chosen = fits(t) ? t : (fits(pred) ? pred : first_fit());
          break;
        case SlicePlacement::predecessor_first:
          chosen = fits(pred) ? pred : (fits(t) ? t : first_fit());
          break;
      }
      if (chosen < 0) {
        out.unplaced.push_back(atom);
        continue;
      }
      at.dims[static_cast<std::size_t>(chosen)].push_back(atom);
      slices[static_cast<std::size_t>(chosen)].push_back(atom);
    }
  }
  for (int d = 0; d < rank; ++d)
    if (!slices[static_cast<std::size_t>(d)].empty())
      out.moves.push_back(slice_move(d, slices[static_cast<std::size_t>(d)]));
  return out;
}

}  // namespace redist::synth_detail
