// The two ends of a valley over prime atoms: the source with atoms sliced in, and the
// target padded with replicated atoms to the same tile total.

#include <numeric>

#include "synth_builders.hpp"

namespace redist::synth_detail {

namespace {

int64_t smallest_prime_factor(int64_t n) {
  for (int64_t p = 2; p * p <= n; ++p)
    if (n % p == 0) return p;
  return n;
}

/// The first dim of `layout` with room for a factor of `size`, trying `preferred`
/// first; -1 when none.
int dim_with_room(const Frame& frame, const Layout& layout, int64_t size, std::size_t preferred) {
  if (preferred < layout.dims.size() && room(frame, layout, preferred) % size == 0) return static_cast<int>(preferred);
  for (std::size_t d = 0; d < layout.dims.size(); ++d)
    if (room(frame, layout, d) % size == 0) return static_cast<int>(d);
  return -1;
}

/// Slices free atoms (of `all`) into `lo` until its tile total is a multiple of
/// `dst`'s, so that the permute can swap them for target atoms left unsliced. False
/// when no free atom of a missing prime fits anywhere.
bool balance(const Frame& frame, const Layout& dst, const Factors& all, SliceIn& lo) {
  for (;;) {
    const int64_t have = total(lo.at), want = total(dst);
    const int64_t missing = want / std::gcd(have, want);
    if (missing == 1) return true;
    const int64_t p = smallest_prime_factor(missing);
    int where = -1;
    const Factor* pick = nullptr;
    for (const auto& atom : all) {
      if (atom.size != p || contains(lo.at, atom)) continue;
      where = dim_with_room(frame, lo.at, p, lo.at.dims.size());
      pick = &atom;
      break;
    }
    if (where < 0) return false;
    lo.at.dims[static_cast<std::size_t>(where)].push_back(*pick);
    lo.moves.push_back(slice_move(where, Factors{*pick}));
  }
}

/// `dst` plus, on top, atoms it does not use whose product is `lo`'s tile total over
/// `dst`'s: first atoms of `lo`, minor first, each in its dim in `lo` when that dim has
/// room (ordered there to keep their strides), then other free atoms. nullopt when
/// they cannot be found or placed.
std::optional<Layout> with_extras(const Frame& frame, const Layout& lo, const Layout& dst, const Factors& all) {
  Layout hi = dst;
  boost::container::small_vector<Factors, 6> extras(dst.dims.size());
  int64_t need = total(lo) / total(dst);
  auto add = [&](const Factor& atom, std::size_t preferred) {
    if (need % atom.size != 0 || contains(hi, atom)) return;
    const int where = dim_with_room(frame, hi, atom.size, preferred);
    if (where < 0) return;
    hi.dims[static_cast<std::size_t>(where)].push_back(atom);
    extras[static_cast<std::size_t>(where)].push_back(atom);
    need /= atom.size;
  };
  for (std::size_t d = 0; d < lo.dims.size(); ++d)
    for (auto it = lo.dims[d].rbegin(); it != lo.dims[d].rend(); ++it) add(*it, d);
  for (const auto& atom : all)
    if (atom.size > 1) add(atom, lo.dims.size());
  if (need != 1) return std::nullopt;
  for (std::size_t d = 0; d < hi.dims.size(); ++d) {
    hi.dims[d] = dst.dims[d];
    const Factors ordered = aligned_order(dst.dims[d], extras[d], lo.dims[d]);
    hi.dims[d].insert(hi.dims[d].end(), ordered.begin(), ordered.end());
  }
  return hi;
}

}  // namespace

std::optional<Ends> valley_ends(const Frame& frame, const Atomized& atoms, SlicePlacement placement) {
  SliceIn lo = slice_in(frame, atoms.a, atoms.b, placement);
  if (!balance(frame, atoms.b, atoms.all, lo)) return std::nullopt;
  auto hi = with_extras(frame, lo.at, atoms.b, atoms.all);
  if (!hi) return std::nullopt;
  return Ends{std::move(lo.at), std::move(lo.moves), std::move(*hi)};
}

}  // namespace redist::synth_detail
