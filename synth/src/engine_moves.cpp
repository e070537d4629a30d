// Edges of the search engine other than the permute: all_slice of free factors (only
// before anything is received), all_gather and all_to_all of suffixes, reduce_scatter
// and all_reduce.

#include <algorithm>

#include "engine_moves.hpp"

namespace redist::engine_detail {

namespace {

/// True when dim `d` of `s` has no padding.
bool unpadded(const Frame& frame, const State& s, std::size_t d) {
  return frame.globals[d] % product(s.dims[d]) == 0;
}

/// True when dim `d` may go from `coarse` to `fine` tiles (or back) by a local slice or
/// a gather: its padded blocks nest (tiles_nest), and a padded result only in a problem
/// with padding (a divisible pair never visits padded states).
bool may_retile(const Frame& frame, std::size_t d, int64_t coarse, int64_t fine) {
  if (!frame.padded) return frame.globals[d] % fine == 0;
  return tiles_nest(frame.globals[d], coarse, fine);
}

/// Modeled time of a collective of `kind` over `axes` whose larger buffer is `bytes`.
double time_of(const Frame& frame, CollectiveKind kind, const Factors& axes, int64_t bytes) {
  return collective_time_us(*frame.model, kind, product(axes), static_cast<double>(bytes), slowest(frame, axes));
}

/// The edge of a step of `kind` on `dim` (to `dst`) over `axes`, starting from `s`; the
/// caller changes its state and sets its time.
Edge edge_from(const State& s, Move::Kind kind, std::size_t dim, std::size_t dst, const Factors& axes) {
  Edge e;
  e.move.kind = kind;
  e.move.dim = static_cast<int>(dim);
  e.move.dst = static_cast<int>(dst);
  e.move.axes = axes;
  e.to = s;
  e.to.received = s.received || kind != Move::Kind::slice;
  return e;
}

/// Each way to split dim `dims` into (rest, suffix) with a non-empty suffix, factor by
/// factor: the suffix is the minor part of one factor and every factor after it.
template <class Visit>
void for_each_suffix(const Factors& dim, Visit visit) {
  for (std::size_t j = dim.size(); j-- > 0;) {
    const Factor& f = dim[j];
    for (int64_t b = std::min<int64_t>(2, f.size); b <= f.size; ++b) {
      if (f.size % b != 0) continue;
      Factors rest(dim.begin(), dim.begin() + static_cast<std::ptrdiff_t>(j));
      if (b < f.size) rest.push_back({f.axis, f.pre, f.size / b});
      Factors suffix{{f.axis, f.end() / b, b}};
      suffix.insert(suffix.end(), dim.begin() + static_cast<std::ptrdiff_t>(j) + 1, dim.end());
      visit(rest, suffix);
    }
  }
}

void append_slices(const Frame& frame, const State& s, std::vector<Edge>& out) {
  if (s.received && !frame.slice_after_receive) return;
  Factors pieces;
  for (const auto& region : free_regions(frame, s)) append_sub_factors(region, pieces);
  for (int axis : frame.size_one_axes)
    if (fits(s, Factor{axis, 1, 1})) pieces.push_back({axis, 1, 1});
  for (std::size_t d = 0; d < s.dims.size(); ++d) {
    const int64_t t = product(s.dims[d]);
    for (const auto& piece : pieces) {
      if (!may_retile(frame, d, t, t * piece.size)) continue;
      Edge e = edge_from(s, Move::Kind::slice, d, 0, Factors{piece});
      e.to.dims[d].push_back(piece);
      merge(e.to.dims[d]);
      out.push_back(std::move(e));
    }
    // A padded target dim continuing this one: the rest of its factors in one slice,
    // where slicing them one at a time would pass through tilings that do not nest
    // (`f32[5]` -> `f32[{x,y}5]` on 2x2 through {x}5: 0-2 / 3-4).
    const Factors& want = frame.target.dims[d];
    const std::size_t have = s.dims[d].size();
    if (!frame.padded || want.size() < have + 2 || frame.globals[d] % product(want) == 0) continue;
    if (!std::equal(s.dims[d].begin(), s.dims[d].end(), want.begin())) continue;
    const Factors rest(want.begin() + static_cast<std::ptrdiff_t>(have), want.end());
    if (!std::all_of(rest.begin(), rest.end(), [&](const Factor& f) { return fits(s, f); })) continue;
    if (!tiles_nest(frame.globals[d], t, product(want))) continue;
    Edge e = edge_from(s, Move::Kind::slice, d, 0, rest);
    e.to.dims[d] = want;
    out.push_back(std::move(e));
  }
}

/// Modeled time of a collective of `kind` over `axes` then `more` whose larger buffer is
/// `bytes` (as time_of() over the two lists joined).
double time_of(const Frame& frame, CollectiveKind kind, const Factors& axes, const Factors& more, int64_t bytes) {
  return collective_time_us(*frame.model, kind, product(axes) * product(more), static_cast<double>(bytes),
                            slower(slowest(frame, axes), slowest(frame, more)));
}

/// Appends the fused all_to_alls of two moves from `s`: first the all_to_all of `axes`
/// from dim `src` to dim `dst` that leads to `mid` (whose tile counts are `mid_tiles`),
/// then a move of a suffix of another dim (a later source dim, or the same target for
/// the order to matter) or of what the first leaves of its source dim, never out of
/// `dst` nor into `src`. Unpadded problems only (the typing rule).
void append_fused(const Frame& frame, const State& mid, const Tiles& mid_tiles, std::size_t src, std::size_t dst,
                  const Factors& axes, int64_t bytes, const EdgeLimit& limit, std::vector<Edge>& out) {
  for (std::size_t d = 0; d < mid.dims.size(); ++d) {
    if (d == dst || mid.dims[d].empty()) continue;
    for_each_suffix(mid.dims[d], [&](const Factors& rest, const Factors& suffix) {
      for (std::size_t d2 = 0; d2 < mid.dims.size(); ++d2) {
        // Moves of two source dims into two target dims give one state in either
        // order: only the lower source dim first.
        if (d2 == d || d2 == src || (d != src && d < src && d2 != dst)) continue;
        if (frame.globals[d2] % (mid_tiles[d2] * product(suffix)) != 0) continue;
        Tiles tiles = mid_tiles;
        tiles[d] = product(rest);
        tiles[d2] *= product(suffix);
        const int64_t after = local_bytes(frame, tiles);
        if (after > frame.budget_bytes) continue;
        const double time = time_of(frame, CollectiveKind::all_to_all, axes, suffix, std::max(bytes, after));
        if (!limit.admits(time)) continue;
        Edge& e = out.emplace_back(edge_from(mid, Move::Kind::all_to_all, src, dst, axes));
        e.move.fused.push_back({static_cast<int>(d), static_cast<int>(d2), suffix});
        e.to.dims[d] = rest;
        e.to.dims[d2].insert(e.to.dims[d2].end(), suffix.begin(), suffix.end());
        merge(e.to.dims[d2]);
        e.time_us = time;
      }
    });
  }
}

/// Appends the fused all_gathers of two parts from `s`: first the gather of `axes` out of
/// dim `dim`, which leaves it `rest` and the tile counts `mid_tiles`, then a suffix of a
/// later dim (the parts of two dims give one state in either order). Unpadded problems
/// only (the typing rule).
void append_fused_gathers(const Frame& frame, const State& s, const Tiles& mid_tiles, std::size_t dim,
                          const Factors& rest, const Factors& axes, const EdgeLimit& limit, std::vector<Edge>& out) {
  for (std::size_t d = dim + 1; d < s.dims.size(); ++d) {
    if (s.dims[d].empty()) continue;
    for_each_suffix(s.dims[d], [&](const Factors& rest2, const Factors& suffix) {
      Tiles tiles = mid_tiles;
      tiles[d] = product(rest2);
      const int64_t after = local_bytes(frame, tiles);
      if (after > frame.budget_bytes) return;
      const double time = time_of(frame, CollectiveKind::all_gather, axes, suffix, after);
      if (!limit.admits(time)) return;
      Edge& e = out.emplace_back(edge_from(s, Move::Kind::gather, dim, 0, axes));
      e.move.fused.push_back({static_cast<int>(d), 0, suffix});
      e.to.dims[dim] = rest;
      e.to.dims[d] = rest2;
      e.time_us = time;
    });
  }
}

void append_gathers_and_all_to_alls(const Frame& frame, const State& s, int64_t bytes, const EdgeLimit& limit,
                                    std::vector<Edge>& out) {
  const bool fuse = !frame.padded && frame.fused_steps;
  const Tiles tiles = tiles_of(s);
  for (std::size_t d = 0; d < s.dims.size(); ++d) {
    if (s.dims[d].empty()) continue;
    for_each_suffix(s.dims[d], [&](const Factors& rest, const Factors& suffix) {
      if (!may_retile(frame, d, product(rest), tiles[d])) return;
      Tiles gathered = tiles;
      gathered[d] = product(rest);
      const int64_t after = local_bytes(frame, gathered);
      if (after <= frame.budget_bytes) {
        const double time = time_of(frame, CollectiveKind::all_gather, suffix, after);
        if (fuse) append_fused_gathers(frame, s, gathered, d, rest, suffix, limit, out);
        if (limit.admits(time)) {
          Edge& gather = out.emplace_back(edge_from(s, Move::Kind::gather, d, 0, suffix));
          gather.to.dims[d] = rest;
          gather.time_us = time;
        }
      }
      for (std::size_t d2 = 0; d2 < s.dims.size(); ++d2) {
        if (d2 == d) continue;
        const int64_t t2 = tiles[d2];
        if (!may_retile(frame, d2, t2, t2 * product(suffix))) continue;
        Tiles moved_tiles = gathered;
        moved_tiles[d2] = t2 * product(suffix);
        const int64_t moved = local_bytes(frame, moved_tiles);
        if (moved > frame.budget_bytes) continue;
        const double time = time_of(frame, CollectiveKind::all_to_all, suffix, std::max(bytes, moved));
        const bool admitted = limit.admits(time);
        if (!admitted && !fuse) continue;
        Edge a2a = edge_from(s, Move::Kind::all_to_all, d, d2, suffix);
        a2a.to.dims[d] = rest;
        a2a.to.dims[d2].insert(a2a.to.dims[d2].end(), suffix.begin(), suffix.end());
        merge(a2a.to.dims[d2]);
        a2a.time_us = time;
        if (fuse) append_fused(frame, a2a.to, moved_tiles, d, d2, suffix, bytes, limit, out);
        if (admitted) out.push_back(std::move(a2a));
      }
    });
  }
}

/// The ordered selections of reduction factors a step may name: every non-empty
/// subset in every order for up to three factors; otherwise each one alone and all.
std::vector<Factors> reduction_selections(const Factors& reduce, bool ordered) {
  std::vector<Factors> out;
  const std::size_t n = reduce.size();
  if (n > 3) {
    for (const auto& f : reduce) out.push_back({f});
    out.push_back(reduce);
    return out;
  }
  for (unsigned mask = 1; mask < (1u << n); ++mask) {
    Factors pick;
    for (std::size_t i = 0; i < n; ++i)
      if (mask & (1u << i)) pick.push_back(reduce[i]);
    if (!ordered) {
      out.push_back(pick);
      continue;
    }
    std::vector<std::size_t> order(pick.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    do {
      Factors seq;
      for (auto i : order) seq.push_back(pick[i]);
      out.push_back(seq);
    } while (std::next_permutation(order.begin(), order.end()));
  }
  return out;
}

/// `reduce` without the members of `removed`.
Factors without(const Factors& reduce, const Factors& removed) {
  Factors out;
  for (const auto& f : reduce)
    if (std::find(removed.begin(), removed.end(), f) == removed.end()) out.push_back(f);
  return out;
}

void append_reductions(const Frame& frame, const State& s, int64_t bytes, const EdgeLimit& limit,
                       std::vector<Edge>& out) {
  if (s.reduce.empty()) return;
  for (const auto& pick : reduction_selections(s.reduce, false)) {
    const double time = time_of(frame, CollectiveKind::all_reduce, pick, bytes);
    if (!limit.admits(time)) continue;
    Edge e = edge_from(s, Move::Kind::all_reduce, 0, 0, pick);
    e.to.reduce = without(s.reduce, pick);
    e.time_us = time;
    out.push_back(std::move(e));
  }
  for (const auto& seq : reduction_selections(s.reduce, true)) {
    for (std::size_t d = 0; d < s.dims.size(); ++d) {
      if (!unpadded(frame, s, d) || frame.globals[d] % (product(s.dims[d]) * product(seq)) != 0) continue;
      const double time = time_of(frame, CollectiveKind::reduce_scatter, seq, bytes);
      if (!limit.admits(time)) continue;
      Edge e = edge_from(s, Move::Kind::reduce_scatter, d, 0, seq);
      e.to.reduce = without(s.reduce, seq);
      e.to.dims[d].insert(e.to.dims[d].end(), seq.begin(), seq.end());
      merge(e.to.dims[d]);
      e.time_us = time;
      out.push_back(std::move(e));
    }
  }
}

}  // namespace

void append_collectives(const Frame& frame, const State& s, const EdgeLimit& limit, std::vector<Edge>& out) {
  const int64_t bytes = local_bytes(frame, s);
  append_slices(frame, s, out);  // local: no time
  append_gathers_and_all_to_alls(frame, s, bytes, limit, out);
  append_reductions(frame, s, bytes, limit, out);
  append_add_pending(frame, s, out);
}

}  // namespace redist::engine_detail
