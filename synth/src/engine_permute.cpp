// The permute edges of the search engine: the target, or intermediates with the
// current per-dim tile counts built from prefixes of the target's dims.

#include <algorithm>
#include <optional>
#include <span>

#include "engine_moves.hpp"
#include "permute_axes.hpp"

namespace redist::engine_detail {

namespace {

/// Options considered per dim (the targets per state are EngineLimits::max_permute_targets).
constexpr std::size_t kMaxDimOptions = 24;

/// Every prefix of `dim`, factor by factor (the major part of a factor included),
/// longest first, the empty one last.
std::vector<Factors> prefixes(const Factors& dim) {
  std::vector<Factors> out;
  for (std::size_t j = dim.size(); j-- > 0;) {
    out.emplace_back(dim.begin(), dim.begin() + static_cast<std::ptrdiff_t>(j) + 1);
    const Factor& f = dim[j];
    for (int64_t a = f.size - 1; a >= 2; --a) {
      if (f.size % a != 0) continue;
      Factors p(dim.begin(), dim.begin() + static_cast<std::ptrdiff_t>(j));
      p.push_back({f.axis, f.pre, a});
      out.push_back(std::move(p));
    }
  }
  out.emplace_back();
  return out;
}

/// Appends to `out` every sequence of up to three compatible factors of `pool` whose
/// sizes multiply to `rest`, each continuing `seq`, merged (y:(1)2 then y:(2)2 is y)
/// and each once, so that spellings of one tiling do not use up the options.
void extras(const Factors& pool, int64_t rest, Factors& seq, std::vector<Factors>& out) {
  if (rest == 1) {
    Factors merged = seq;
    merge(merged);
    if (std::find(out.begin(), out.end(), merged) == out.end()) out.push_back(std::move(merged));
    return;
  }
  if (seq.size() == 3 || out.size() >= kMaxDimOptions) return;
  for (const auto& f : pool) {
    if (f.size < 2 || rest % f.size != 0) continue;
    if (!std::all_of(seq.begin(), seq.end(), [&](const Factor& g) { return compatible(f, g); })) continue;
    seq.push_back(f);
    extras(pool, rest / f.size, seq, out);
    seq.pop_back();
  }
}

/// The dim lists with `t` tiles a permute may give dim `d` from the target: a prefix
/// of the target's continued by up to three factors of any axis (memoized in `frame`).
const std::vector<Factors>& target_options(const Frame& frame, std::size_t d, int64_t t) {
  const uint64_t key = (static_cast<uint64_t>(d) << 56) ^ static_cast<uint64_t>(t);
  if (auto it = frame.permute_options.find(key); it != frame.permute_options.end()) return it->second;
  std::vector<Factors> out;
  for (const auto& prefix : prefixes(frame.target.dims[d])) {
    const int64_t p = product(prefix);
    if (t % p != 0) continue;
    std::vector<Factors> tails;
    Factors seq;
    extras(frame.pool, t / p, seq, tails);
    for (const auto& tail : tails) {
      if (!std::all_of(tail.begin(), tail.end(), [&](const Factor& f) {
            return std::all_of(prefix.begin(), prefix.end(), [&](const Factor& g) { return compatible(f, g); });
          }))
        continue;
      Factors option = prefix;
      option.insert(option.end(), tail.begin(), tail.end());
      merge(option);
      if (std::find(out.begin(), out.end(), option) == out.end()) out.push_back(std::move(option));
      if (out.size() >= kMaxDimOptions) break;
    }
    if (out.size() >= kMaxDimOptions) break;
  }
  return frame.permute_options.emplace(key, std::move(out)).first->second;
}

/// Depth-first over dims: appends to `out` an edge to each combination of `s`'s own
/// dim or one of the target options whose factors are pairwise compatible (and with the
/// pending reductions), up to kPermuteTargets from `out[first]` on; only the edges'
/// states are set.
void combine(const Frame& frame, const State& s, std::size_t d, State& x, Factors& used, std::size_t first,
             std::vector<Edge>& out) {
  if (out.size() - first >= kPermuteTargets) return;
  if (d == s.dims.size()) {
    out.emplace_back().to = x;
    return;
  }
  const auto& options = target_options(frame, d, product(s.dims[d]));
  for (std::size_t i = 0; i <= options.size(); ++i) {
    const Factors& option = i == 0 ? s.dims[d] : options[i - 1];
    if (i > 0 && option == s.dims[d]) continue;
    const std::size_t mark = used.size();
    bool ok = true;
    for (const auto& f : option) {
      ok = std::all_of(used.begin(), used.end(), [&](const Factor& u) { return compatible(u, f); });
      if (!ok) break;
      used.push_back(f);
    }
    if (ok) {
      x.dims[d] = option;
      combine(frame, s, d + 1, x, used, first, out);
    }
    used.resize(mark);
  }
}

/// Returns how far `x` agrees with the target: per dim, the factors it shares with the
/// target's dim from the major end, one more where the dims are equal. Example: target
/// [{y,x}, {z}], x [{y}, {z}]: 1 + 2 = 3; [{x}, {z}]: 0 + 2 = 2.
int agreement(const Frame& frame, const State& x) {
  int out = 0;
  for (std::size_t d = 0; d < x.dims.size(); ++d) {
    const Factors &a = x.dims[d], &b = frame.target.dims[d];
    const auto [end, unused] = std::mismatch(a.begin(), a.end(), b.begin(), b.end());
    out += static_cast<int>(end - a.begin()) + (a == b ? 1 : 0);
  }
  return out;
}

/// Keeps, of the edges from `out[first]` on, the frame.max_permute_targets whose states
/// agree most with the target (in their order where they agree as much). The
/// combinations come depth-first, the first dims' own factors before their options: cut
/// at the cap in that order, they would vary the last dims only.
void keep_nearest(const Frame& frame, std::size_t first, std::vector<Edge>& out) {
  if (out.size() - first <= frame.max_permute_targets) return;
  std::vector<std::pair<int, std::size_t>> order;  // (-agreement, index)
  for (std::size_t i = first; i < out.size(); ++i) order.emplace_back(-agreement(frame, out[i].to), i);
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  order.resize(frame.max_permute_targets);
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  std::size_t kept = first;
  for (const auto& [unused, i] : order) {
    if (kept != i) out[kept] = std::move(out[i]);
    ++kept;
  }
  out.resize(kept, Edge{});
}

/// Returns the slowest class of the axes along which the pairs of `moves` differ, none
/// where they differ along none (mark_moved_axes()).
std::optional<LinkClass> moved_link(const Frame& frame, std::span<const synth_detail::FactorMove> moves) {
  boost::container::small_vector<bool, 8> moved(frame.axis_sizes.size(), false);
  synth_detail::mark_moved_axes(moves, {moved.data(), moved.size()});
  std::optional<LinkClass> link;
  for (std::size_t a = 0; a < moved.size(); ++a)
    if (moved[a]) link = slower(link.value_or(LinkClass::intra), frame.classes[a]);
  return link;
}

/// The slower of two optional classes (none: no axis).
std::optional<LinkClass> slower_of(std::optional<LinkClass> a, std::optional<LinkClass> b) {
  if (!a) return b;
  if (!b) return a;
  return slower(*a, *b);
}

}  // namespace

double permute_time_us(const Frame& frame, const State& s, const Factors& s_free, const State& x) {
  std::optional<LinkClass> link;
  if (frame.mesh_change) {
    link = frame.order_change_link;
  } else {
    // The lowering's moves (plan/lowered.hpp, permute_moves): each tiled dim's source
    // factors take the target's block index of that dim, the factors free only in the
    // source the target's factors free only in it; charged on the axes where pairs
    // differ. Each move can only make the price dearer: the rest are skipped once it is
    // settled (some pair differs, and along the slow class where the classes differ).
    // Computed afresh: a memo of the dims' moves cost more than it saved (a hash of two
    // factor lists per dim and edge, and on one-dim arrays every edge a new entry).
    const auto settled = [&] { return link && (!frame.slow_class || *link == *frame.slow_class); };
    for (std::size_t d = 0; d < s.dims.size() && !settled(); ++d) {
      if (s.dims[d].empty() || s.dims[d] == x.dims[d]) continue;
      const synth_detail::FactorMove move{s.dims[d], x.dims[d]};
      link = slower_of(link, moved_link(frame, {&move, 1}));
    }
    if (!settled()) {
      const Factors dst_free = free_regions(frame, x);
      synth_detail::FactorMove rest;
      for (const auto& f : s_free)
        if (std::find(dst_free.begin(), dst_free.end(), f) == dst_free.end()) rest.source.push_back(f);
      for (const auto& f : dst_free)
        if (std::find(s_free.begin(), s_free.end(), f) == s_free.end()) rest.target.push_back(f);
      link = slower_of(link, moved_link(frame, {&rest, 1}));
    }
    if (!link) return 0;
  }
  return collective_time_us(CollectiveKind::permute, 2, static_cast<double>(local_bytes(frame, s)),
                            frame.model->link(*link));
}

void append_permutes(const Frame& frame, const State& s, std::vector<Edge>& out) {
  if (s.permuted) return;
  // The targets are built in place in `out` (a state is large: each copy counts).
  const std::size_t first = out.size();
  State x = s;
  x.permuted = true;
  Factors used = s.reduce;
  combine(frame, s, 0, x, used, first, out);
  keep_nearest(frame, first, out);
  for (const auto& hint : frame.permute_hints) {
    const State& after = hint.second;  // a named reference: clang 14 cannot capture a binding
    if (hint.first == s && std::none_of(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                                        [&](const Edge& e) { return e.to == after; }))
      out.emplace_back().to = after;
  }
  const Factors s_free = free_regions(frame, s);
  std::size_t kept = first;
  for (std::size_t i = first; i < out.size(); ++i) {
    Edge& e = out[i];
    State& t = e.to;
    if (t.dims == s.dims && !frame.mesh_change) continue;
    const bool stays = frame.mesh_change && s.reduce.empty() && stays_in_place(frame, s, t);
    const double time = stays ? 0 : permute_time_us(frame, s, s_free, t);
    t.received = s.received || time > 0;
    e.move.kind = Move::Kind::permute;
    e.move.stays = stays;
    e.time_us = time;
    if (kept != i) out[kept] = std::move(e);
    ++kept;
  }
  out.resize(kept, Edge{});
}

}  // namespace redist::engine_detail
