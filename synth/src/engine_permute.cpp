// The permute edges of the search engine: the target, or intermediates with the
// current per-dim tile counts built from prefixes of the target's dims. A state's
// permutes are the compatible combinations of per-dim options, enumerated depth-first
// over bit masks of which option goes with which (one mask row per option, so a choice
// that leaves a later dim no option is cut at once), and priced by the classes of their
// dims' moves, computed once per state and option.

#include <algorithm>
#include <bit>
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

/// True when `link` settles a permute's price: some pair differs, and along the slow
/// class where the classes differ (a further move can only make it dearer).
bool settled(const Frame& frame, std::optional<LinkClass> link) {
  return link && (!frame.slow_class || *link == *frame.slow_class);
}

/// The modeled time of a permute of `s`'s buffer at class `link`.
double moving_time_us(const Frame& frame, const State& s, LinkClass link) {
  return collective_time_us(*frame.model, CollectiveKind::permute, 2, static_cast<double>(local_bytes(frame, s)), link);
}

/// Returns the modeled time of the permute from `s` (free regions `s_free`) to `x` on
/// one mesh whose dims' moves make pairs differ along classes up to `link`: unless that
/// settles it, the factors free only in the source take the target's factors free only
/// in it, charged on the axes where pairs differ; 0 where no pair differs.
double permute_price_us(const Frame& frame, const State& s, const Factors& s_free, const State& x,
                        std::optional<LinkClass> link) {
  if (!settled(frame, link)) {
    const Factors dst_free = free_regions(frame, x);
    synth_detail::FactorMove rest;
    for (const auto& f : s_free)
      if (std::find(dst_free.begin(), dst_free.end(), f) == dst_free.end()) rest.source.push_back(f);
    for (const auto& f : dst_free)
      if (std::find(s_free.begin(), s_free.end(), f) == s_free.end()) rest.target.push_back(f);
    link = slower_of(link, moved_link(frame, {&rest, 1}));
  }
  return link ? moving_time_us(frame, s, *link) : 0;
}

/// True when every factor of `a` may appear in one type with every factor of `b`.
bool compatible_lists(const Factors& a, const Factors& b) {
  return std::all_of(a.begin(), a.end(), [&](const Factor& f) {
    return std::all_of(b.begin(), b.end(), [&](const Factor& g) { return compatible(f, g); });
  });
}

/// A set of one dim's permute options: bit 0 the state's own factors, bit i + 1 the
/// i-th target option (target_options()).
using OptionMask = uint32_t;
static_assert(kMaxDimOptions + 1 <= 32, "a dim's options are bits of an OptionMask");

/// Returns, per target option of (dim, tile count) `from_key`, the target options of
/// `to_key` compatible with it, as masks (memoized in `frame`: they do not depend on the
/// state). Example: options [{x}], [{y}] of one dim against [{x}], [{y,z}] of another:
/// {x} excludes {x} (bit 1) and keeps {y,z} (bit 2): 0b100; {y}: 0b010.
const std::vector<OptionMask>& target_masks(const Frame& frame, uint64_t from_key, const std::vector<Factors>& from,
                                            uint64_t to_key, const std::vector<Factors>& to) {
  auto [it, fresh] = frame.permute_masks.try_emplace({from_key, to_key});
  if (fresh)
    for (const auto& a : from) {
      OptionMask mask = 0;
      for (std::size_t i = 0; i < to.size(); ++i)
        if (compatible_lists(a, to[i])) mask |= OptionMask{2} << i;
      it->second.push_back(mask);
    }
  return it->second;
}

/// The permute options of one state's dims and which combine with which, for
/// combine(). `own[d][e]`: the options of dim e compatible with `s`'s own factors of
/// dim d (its own among them: `s` is one type).
struct PermuteOptions {
  std::vector<const std::vector<Factors>*> targets;
  std::vector<std::vector<OptionMask>> own;
  std::vector<std::vector<const std::vector<OptionMask>*>> between;  // target_masks(d, e)

  PermuteOptions(const Frame& frame, const State& s) {
    const std::size_t rank = s.dims.size();
    std::vector<uint64_t> keys;  // target_options()'s
    for (std::size_t d = 0; d < rank; ++d) {
      const int64_t tiles = product(s.dims[d]);
      keys.push_back((static_cast<uint64_t>(d) << 56) ^ static_cast<uint64_t>(tiles));
      targets.push_back(&target_options(frame, d, tiles));
    }
    own.assign(rank, std::vector<OptionMask>(rank, 0));
    between.assign(rank, std::vector<const std::vector<OptionMask>*>(rank, nullptr));
    for (std::size_t d = 0; d < rank; ++d)
      for (std::size_t e = 0; e < rank; ++e) {
        if (d == e) continue;
        OptionMask mask = 1;
        for (std::size_t i = 0; i < targets[e]->size(); ++i)
          if (compatible_lists(s.dims[d], (*targets[e])[i])) mask |= OptionMask{2} << i;
        own[d][e] = mask;
        between[d][e] = &target_masks(frame, keys[d], *targets[d], keys[e], *targets[e]);
      }
  }

  /// Returns the options of dim e compatible with option `i` (a bit of OptionMask) of
  /// dim d.
  OptionMask row(std::size_t d, int i, std::size_t e) const {
    if (i == 0) return own[d][e];
    return (*between[d][e])[static_cast<std::size_t>(i - 1)] | ((own[e][d] >> i) & 1);
  }
};

using Masks = boost::container::small_vector<OptionMask, 6>;

/// The prices of one state's permutes by their dims' moves: per dim and option, the
/// slowest class along which the move from `s`'s own factors to the option makes pairs
/// differ (computed on first use: most options recur in many combinations). Per state,
/// not per search: a search-wide memo keyed by the two factor lists cost more in hashing
/// than it saved, and on one-dim arrays every edge was a new entry.
class DimLinks {
 public:
  DimLinks(const Frame& frame, const State& s, const PermuteOptions& options)
      : frame_(&frame), s_(&s), options_(&options), codes_(s.dims.size() * kMaxDimOptions, kUnknown) {}
  /// Returns the class of the move of dim `d` to its target option `i` (1-based), none
  /// where it makes no pair differ.
  std::optional<LinkClass> of(std::size_t d, int i) {
    int8_t& c = codes_[d * kMaxDimOptions + static_cast<std::size_t>(i - 1)];
    if (c == kUnknown) {
      const synth_detail::FactorMove move{s_->dims[d], (*options_->targets[d])[static_cast<std::size_t>(i - 1)]};
      const auto link = moved_link(*frame_, {&move, 1});
      c = link ? static_cast<int8_t>(*link) : kNone;
    }
    return c == kNone ? std::nullopt : std::optional<LinkClass>(static_cast<LinkClass>(c));
  }

 private:
  static constexpr int8_t kNone = -1, kUnknown = -2;  // else the LinkClass
  const Frame* frame_;
  const State* s_;
  const PermuteOptions* options_;
  boost::container::small_vector<int8_t, 4 * kMaxDimOptions> codes_;
};

/// Depth-first over dims: appends to `out` an edge to each combination of `s`'s own
/// dim or one of the target options whose factors are pairwise compatible (and with the
/// pending reductions), up to kPermuteTargets from `out[first]` on; only the edges'
/// states are set, and to `links` the slowest class the edge's dims' moves make pairs
/// differ along (on one mesh: a change of device order is priced as a whole).
/// `allowed[e]`: the options of dim e (e >= d) compatible with the choices made for the
/// dims before d; a choice that leaves a later dim none is not followed. `link`: the
/// class of the dims before d.
void combine(const Frame& frame, const PermuteOptions& options, DimLinks& dim_links, const State& s, std::size_t d,
             const Masks& allowed, std::optional<LinkClass> link, State& x, std::size_t first, std::vector<Edge>& out,
             std::vector<std::optional<LinkClass>>& links) {
  if (out.size() - first >= kPermuteTargets) return;
  if (d == s.dims.size()) {
    out.emplace_back().to = x;
    links.push_back(link);
    return;
  }
  for (OptionMask left = allowed[d]; left != 0; left &= left - 1) {
    const int i = std::countr_zero(left);
    Masks next = allowed;
    bool open = true;
    for (std::size_t e = d + 1; e < s.dims.size() && open; ++e) open = (next[e] &= options.row(d, i, e)) != 0;
    if (!open) continue;
    x.dims[d] = i == 0 ? s.dims[d] : (*options.targets[d])[static_cast<std::size_t>(i - 1)];
    const bool moved = i > 0 && !s.dims[d].empty() && !frame.mesh_change;
    combine(frame, options, dim_links, s, d + 1, next, moved ? slower_of(link, dim_links.of(d, i)) : link, x, first,
            out, links);
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

/// Keeps, of the edges from `out[first]` on (and their `links`), the
/// frame.max_permute_targets whose states agree most with the target (in their order
/// where they agree as much). The combinations come depth-first, the first dims' own
/// factors before their options: cut at the cap in that order, they would vary the last
/// dims only.
void keep_nearest(const Frame& frame, std::size_t first, std::vector<Edge>& out,
                  std::vector<std::optional<LinkClass>>& links) {
  if (out.size() - first <= frame.max_permute_targets) return;
  std::vector<std::pair<int, std::size_t>> order;  // (-agreement, index)
  for (std::size_t i = first; i < out.size(); ++i) order.emplace_back(-agreement(frame, out[i].to), i);
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  order.resize(frame.max_permute_targets);
  std::sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  std::size_t kept = first;
  for (const auto& [unused, i] : order) {
    if (kept != i) {
      out[kept] = std::move(out[i]);
      links[kept - first] = links[i - first];
    }
    ++kept;
  }
  out.resize(kept, Edge{});
  links.resize(kept - first);
}

}  // namespace

double permute_time_us(const Frame& frame, const State& s, const Factors& s_free, const State& x) {
  if (frame.mesh_change) return moving_time_us(frame, s, frame.order_change_link);
  // The lowering's moves (plan/lowered.hpp, permute_moves): each tiled dim's source
  // factors take the target's block index of that dim, then the free factors' move
  // (permute_price_us()).
  std::optional<LinkClass> link;
  for (std::size_t d = 0; d < s.dims.size() && !settled(frame, link); ++d) {
    if (s.dims[d].empty() || s.dims[d] == x.dims[d]) continue;
    const synth_detail::FactorMove move{s.dims[d], x.dims[d]};
    link = slower_of(link, moved_link(frame, {&move, 1}));
  }
  return permute_price_us(frame, s, s_free, x, link);
}

void append_permutes(const Frame& frame, const State& s, std::vector<Edge>& out) {
  if (s.permuted) return;
  // The targets are built in place in `out` (a state is large: each copy counts).
  const std::size_t first = out.size();
  State x = s;
  x.permuted = true;
  const PermuteOptions options(frame, s);
  // Each dim: its own factors, and the target options other than those, compatible with
  // the pending reductions.
  Masks allowed(s.dims.size(), 0);
  for (std::size_t d = 0; d < s.dims.size(); ++d) {
    allowed[d] = 1;
    const auto& targets = *options.targets[d];
    for (std::size_t i = 0; i < targets.size(); ++i)
      if (!(targets[i] == s.dims[d]) && compatible_lists(targets[i], s.reduce)) allowed[d] |= OptionMask{2} << i;
  }
  DimLinks dim_links(frame, s, options);
  std::vector<std::optional<LinkClass>> links;  // per combined edge, its dims' moves' class
  combine(frame, options, dim_links, s, 0, allowed, std::nullopt, x, first, out, links);
  keep_nearest(frame, first, out, links);
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
    const bool combined = i - first < links.size();
    const double time = stays                                ? 0
                        : frame.mesh_change || !combined     ? permute_time_us(frame, s, s_free, t)
                                                             : permute_price_us(frame, s, s_free, t, links[i - first]);
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
