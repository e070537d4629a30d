// find_tight_plan(): a breadth-first search over the types a plan can pass through,
// following only tight steps (tight_plans.hpp has why that is exact).
//
// Representation. Each axis is cut into its prime digits in one order (x:8 = three
// digits of 2, x:6 = 2 then 3, or 3 then 2); a type is, per dim, the list of digits that
// tile it (major first), plus the device order (the source's or the target's). A
// device's elements in a type are a box: per dim the real indices of its block. The
// checks below are on boxes; on `{x:4}`, f32[{x}8] -> f32[{x:(2)2}8] the device at x = 1
// holds [2, 4) and needs [4, 8): it may receive only from [4, 8) and may drop [2, 4).

#include "tight_plans.hpp"

#include "boxes.hpp"
#include "redist/core/semantics.hpp"
#include "relaxed_tightness.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <map>
#include <unordered_map>

#include <fmt/format.h>

namespace redist::tightness {

namespace {

struct Digit {
  int axis = 0;
  int64_t pre = 1;   // product of the axis's more major digits
  int64_t size = 1;  // a prime
};

using Digits = std::vector<int>;  // indices into Search::digits, major first

/// One part of an all_to_all: digits [from, to) of dim `src` to the minor end of `dst`.
struct Move {
  int src = 0, dst = 0;
  std::size_t from = 0, to = 0;
};

struct State {
  int order = 0;  // 0: the source mesh's device order, 1: the target's
  std::vector<Digits> dims;
  bool operator==(const State&) const = default;
};

std::string key_of(const State& s) {
  std::string key(1, static_cast<char>(s.order));
  for (const auto& dim : s.dims) {
    for (int d : dim) key.push_back(static_cast<char>(d));
    key.push_back('|');
  }
  return key;
}

struct Edge {
  std::string text;
  std::optional<Step> step;  // nullopt where the plan IR has no form for it
};

class Search {
 public:
  Search(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh, const DistType& dst,
         std::vector<std::vector<int64_t>> orders, const TightSearchOptions& options)
      : src_mesh_(src_mesh), dst_mesh_(dst_mesh), src_(src), options_(options) {
    for (std::size_t a = 0; a < src_mesh.rank(); ++a) {
      int64_t pre = 1;
      for (int64_t p : orders[a]) {
        digits_.push_back({static_cast<int>(a), pre, p});
        pre *= p;
      }
    }
    rank_ = static_cast<int>(src.rank());
    for (const auto& dim : src.dims) global_.push_back(dim.global);
    devices_ = src_mesh.num_devices();
    two_orders_ = !(src_mesh == dst_mesh);
    for (int o = 0; o < (two_orders_ ? 2 : 1); ++o) {
      std::vector<int> values;
      for (int64_t p = 0; p < devices_; ++p) {
        const Coords c = o == 0 ? src_mesh.coords_of_position(p) : dst_mesh.coords_of_device(src_mesh.device_at(p));
        for (const auto& d : digits_)
          values.push_back(static_cast<int>(axis_coordinate(src_mesh, c, {axis_name(d), d.pre, d.size})));
      }
      values_.push_back(std::move(values));
    }
    elem_bound_ = std::max(tightness::local_elements(src), tightness::local_elements(dst));
  }

  /// The state of `type` in order `order`, or nullopt where its factors do not fall on
  /// digit boundaries.
  std::optional<State> state_of(const DistType& type, int order) const {
    State s{order, {}};
    for (const auto& dim : type.dims) {
      Digits list;
      for (const auto& ref : dim.axes) {
        const auto axis = src_mesh_.axis_index(ref.name);
        int64_t covered = 1;
        bool started = false;
        for (std::size_t g = 0; g < digits_.size(); ++g) {
          const Digit& d = digits_[g];
          if (d.axis != static_cast<int>(*axis) || d.pre < ref.pre || d.pre >= ref.pre * ref.size) continue;
          if (!started && d.pre != ref.pre) return std::nullopt;
          started = true;
          covered *= d.size;
          list.push_back(static_cast<int>(g));
        }
        if (covered != ref.size) return std::nullopt;
      }
      s.dims.push_back(std::move(list));
    }
    return s;
  }

  /// Returns the breadth-first search's verdict from `source` to `target` (the fewest
  /// steps' tight plan in path() where found).
  TightSearchResult run(const State& source, const State& target) {
    TightSearchResult result;
    target_ = boxes(target);
    std::unordered_map<std::string, int64_t> seen;  // key -> index in `states`
    std::vector<State> states{source};
    std::vector<std::pair<int64_t, Edge>> parent{{-1, {}}};
    seen.emplace(key_of(source), 0);
    std::deque<int64_t> queue{0};
    while (!queue.empty()) {
      const int64_t at = queue.front();
      queue.pop_front();
      if (states[static_cast<std::size_t>(at)] == target) {
        result.verdict = TightVerdict::found;
        for (int64_t i = at; parent[static_cast<std::size_t>(i)].first >= 0; i = parent[static_cast<std::size_t>(i)].first)
          path_.push_back(parent[static_cast<std::size_t>(i)].second);
        std::reverse(path_.begin(), path_.end());
        break;
      }
      if (static_cast<int64_t>(states.size()) > options_.max_states) {
        result.verdict = TightVerdict::gave_up;
        break;
      }
      const State from = states[static_cast<std::size_t>(at)];
      const Boxes old = boxes(from);
      successors(from, old, [&](State next, Edge edge) {
        auto [it, inserted] = seen.emplace(key_of(next), static_cast<int64_t>(states.size()));
        if (!inserted) return;
        states.push_back(std::move(next));
        parent.emplace_back(at, std::move(edge));
        queue.push_back(it->second);
      });
    }
    if (result.verdict != TightVerdict::found && result.verdict != TightVerdict::gave_up)
      result.verdict = TightVerdict::none;
    result.states = static_cast<int64_t>(states.size());
    return result;
  }

  const std::vector<Edge>& path() const { return path_; }

  /// Returns the type `s` spells, adjacent digits of an axis merged into one factor.
  DistType type_of(const State& s) const {
    DistType t = src_;
    for (std::size_t i = 0; i < s.dims.size(); ++i) t.dims[i].axes = refs(s.dims[i], 0, s.dims[i].size());
    return t;
  }

 private:
  int64_t tiles(const Digits& list) const {
    int64_t t = 1;
    for (int g : list) t *= digits_[static_cast<std::size_t>(g)].size;
    return t;
  }
  const std::string& axis_name(const Digit& d) const {
    return src_mesh_.axes()[static_cast<std::size_t>(d.axis)].name;
  }
  int64_t local_elements(const State& s) const {
    int64_t n = 1;
    for (int i = 0; i < rank_; ++i) n *= ceil_div(global_[static_cast<std::size_t>(i)], tiles(s.dims[static_cast<std::size_t>(i)]));
    return n;
  }

  /// Returns the interval of dim `i` tiled by `list` on the device at source position
  /// `p`, in order `order`.
  Interval interval(int i, const Digits& list, int order, int64_t p) const {
    const int* values = &values_[static_cast<std::size_t>(order)][static_cast<std::size_t>(p) * digits_.size()];
    int64_t block = 0, tiles = 1;
    for (int d : list) {
      block = block * digits_[static_cast<std::size_t>(d)].size + values[d];
      tiles *= digits_[static_cast<std::size_t>(d)].size;
    }
    return block_interval(global_[static_cast<std::size_t>(i)], tiles, block);
  }

  /// Returns the interval of dim `i` tiled by `list` on each device, in order `order`
  /// (cached: a search meets the same dims in many types).
  const std::vector<Interval>& intervals(int i, const Digits& list, int order) const {
    std::string key{static_cast<char>(order), static_cast<char>(i)};
    for (int d : list) key.push_back(static_cast<char>(d));
    auto [it, inserted] = columns_.try_emplace(std::move(key));
    if (inserted)
      for (int64_t p = 0; p < devices_; ++p) it->second.push_back(interval(i, list, order, p));
    return it->second;
  }

  Boxes boxes(const State& s) const {
    Boxes b{rank_, std::vector<Interval>(static_cast<std::size_t>(devices_ * rank_))};
    for (int i = 0; i < rank_; ++i) {
      const auto& column = intervals(i, s.dims[static_cast<std::size_t>(i)], s.order);
      for (int64_t p = 0; p < devices_; ++p)
        b.at[static_cast<std::size_t>(p * rank_ + i)] = column[static_cast<std::size_t>(p)];
    }
    return b;
  }

  /// (R) and (L) of every device for a collective from `old` to `next`. Starts at the
  /// device the last refused candidate failed on: most candidates fail on a few devices.
  bool tight_collective(const Boxes& old, const State& next) const {
    Interval n[kMaxRank];
    for (int64_t k = 0; k < devices_; ++k) {
      const int64_t p = (k + first_failing_) % devices_;
      for (int i = 0; i < rank_; ++i) n[i] = interval(i, next.dims[static_cast<std::size_t>(i)], next.order, p);
      const Interval *o = old.box(p), *t = target_.box(p);
      if (!difference_within(n, o, t, rank_) || !meet_within(o, t, n, rank_)) {
        first_failing_ = p;
        return false;
      }
    }
    return true;
  }

  std::vector<bool> used(const State& s) const {
    std::vector<bool> u(digits_.size(), false);
    for (const auto& dim : s.dims)
      for (int g : dim) u[static_cast<std::size_t>(g)] = true;
    return u;
  }

  /// Returns the factors of `list`'s digits [from, to), adjacent digits of an axis merged.
  std::vector<AxisRef> refs(const Digits& list, std::size_t from, std::size_t to) const {
    std::vector<AxisRef> out;
    for (std::size_t k = from; k < to; ++k) {
      const Digit& d = digits_[static_cast<std::size_t>(list[k])];
      out.push_back(make_axis_ref(axis_name(d), d.pre, d.size, src_mesh_.axis_size(static_cast<std::size_t>(d.axis))));
    }
    return merge_adjacent(std::move(out),
                          [&](const std::string& name) { return src_mesh_.axis_size(*src_mesh_.axis_index(name)); });
  }

  /// Emits `next` with the edge `make_edge` names where the step to it is tight (the
  /// edge is made only then: most candidates are not).
  void offer(const State& next, const Boxes& old, const std::function<Edge()>& make_edge, bool permute,
             const std::function<void(State, Edge)>& emit) const {
    if (local_elements(next) > elem_bound_ && options_.within_bound) return;
    std::optional<DevicePairs> pairs;
    if (!permute) {
      if (!tight_collective(old, next)) return;
    } else {
      pairs = tight_pairs(old, boxes(next));
      if (!pairs) return;
    }
    Edge edge = make_edge();
    if (pairs && edge.step) edge.step->pairs = std::move(*pairs);
    emit(next, std::move(edge));
  }

  /// The (source, target) physical device pairs of a tight permute from `old` to `now`
  /// (a device keeping its block pairs with itself; every other one receives its whole
  /// new block from a device whose old block it is), or nullopt where it is not tight.
  std::optional<DevicePairs> tight_pairs(const Boxes& old, const Boxes& now) const {
    DevicePairs pairs;
    std::map<std::vector<Interval>, std::vector<int64_t>> senders;  // old block -> moving devices
    std::vector<int64_t> receivers;
    for (int64_t p = 0; p < devices_; ++p) {
      const Interval *o = old.box(p), *n = now.box(p), *t = target_.box(p);
      if (equal(o, n, rank_)) {
        pairs.emplace_back(p, p);
        continue;
      }
      if (!disjoint(n, o, rank_) || !subset(n, t, rank_) || !disjoint(o, t, rank_)) return std::nullopt;
      senders[std::vector<Interval>(o, o + rank_)].push_back(p);
      receivers.push_back(p);
    }
    for (int64_t p : receivers) {
      const Interval* n = now.box(p);
      auto it = senders.find(std::vector<Interval>(n, n + rank_));
      if (it == senders.end() || it->second.empty()) return std::nullopt;
      pairs.emplace_back(it->second.back(), p);
      it->second.pop_back();
    }
    for (auto& [source, target] : pairs) source = src_mesh_.device_at(source), target = src_mesh_.device_at(target);
    std::sort(pairs.begin(), pairs.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
    return pairs;
  }

  void successors(const State& s, const Boxes& old, const std::function<void(State, Edge)>& emit) {
    const std::vector<bool> u = used(s);
    // all_slice of one free digit.
    for (int i = 0; i < rank_; ++i)
      for (std::size_t g = 0; g < digits_.size(); ++g) {
        if (u[g]) continue;
        State next = s;
        next.dims[static_cast<std::size_t>(i)].push_back(static_cast<int>(g));
        Digits one{static_cast<int>(g)};
        offer(
            next, old,
            [&] {
              return Edge{fmt::format("all_slice(dim={}, axes={})", i, to_string(refs(one, 0, 1))),
                          Step{AllSlice{i, refs(one, 0, 1)}}};
            },
            false, emit);
      }
    // all_gather of a suffix of each dim of a nonempty set.
    std::vector<std::size_t> cut(static_cast<std::size_t>(rank_), 0);
    std::function<void(int)> gathers = [&](int i) {
      if (i == rank_) {
        State next = s;
        bool any = false;
        for (int j = 0; j < rank_; ++j) {
          auto& dim = next.dims[static_cast<std::size_t>(j)];
          any = any || cut[static_cast<std::size_t>(j)] > 0;
          dim.resize(dim.size() - cut[static_cast<std::size_t>(j)]);
        }
        if (!any) return;
        offer(
            next, old,
            [&] {
              AllGather op;
              std::string text;
              for (int j = 0; j < rank_; ++j) {
                const auto& dim = s.dims[static_cast<std::size_t>(j)];
                const std::size_t k = cut[static_cast<std::size_t>(j)];
                if (k == 0) continue;
                auto axes = refs(dim, dim.size() - k, dim.size());
                text += fmt::format("{}{}:{}", text.empty() ? "" : ", ", j, to_string(axes));
                op.parts.push_back({j, std::move(axes)});
              }
              return Edge{fmt::format("all_gather({})", text), Step{std::move(op)}};
            },
            false, emit);
        return;
      }
      for (std::size_t k = 0; k <= s.dims[static_cast<std::size_t>(i)].size(); ++k) {
        cut[static_cast<std::size_t>(i)] = k;
        gathers(i + 1);
      }
      cut[static_cast<std::size_t>(i)] = 0;
    };
    gathers(0);
    // all_to_all: from each dim of a nonempty set, its suffix in consecutive parts, each
    // to another dim (the minor-most part first).
    std::vector<Move> moves;
    std::function<void(int, std::size_t)> exchanges = [&](int i, std::size_t left) {
      if (i == rank_) {
        if (!moves.empty()) emit_exchanges(s, old, moves, emit);
        return;
      }
      exchanges(i + 1, i + 1 < rank_ ? s.dims[static_cast<std::size_t>(i + 1)].size() : 0);
      // Longest parts first: the first form found of a type is then, where one is, the
      // one the plan IR can write (one part, not its digits sent one by one).
      for (std::size_t k = left; k >= 1; --k)
        for (int j = 0; j < rank_; ++j) {
          if (j == i) continue;
          moves.push_back({i, j, left - k, left});
          exchanges(i, left - k);
          moves.pop_back();
        }
    };
    exchanges(0, rank_ > 0 ? s.dims[0].size() : 0);
    // collective_permute to any type of the same local sizes, in either order.
    for (int order = 0; order < (two_orders_ ? 2 : 1); ++order) permutes(s, old, order, emit);
  }

  /// Emits the all_to_all of `moves` (per source dim, minor-most part first) with the
  /// parts a dim receives appended in every order.
  void emit_exchanges(const State& s, const Boxes& old, const std::vector<Move>& moves,
                      const std::function<void(State, Edge)>& emit) {
    std::vector<std::vector<std::size_t>> into(static_cast<std::size_t>(rank_));  // move indices per destination
    std::vector<char> gives(static_cast<std::size_t>(rank_), 0);
    State kept = s;
    for (std::size_t m = 0; m < moves.size(); ++m) {
      into[static_cast<std::size_t>(moves[m].dst)].push_back(m);
      gives[static_cast<std::size_t>(moves[m].src)] = 1;
      auto& dim = kept.dims[static_cast<std::size_t>(moves[m].src)];
      dim.resize(std::min(dim.size(), moves[m].from));
    }
    std::function<void(int, State&)> append = [&](int j, State& next) {
      if (j == rank_) {
        offer(
            next, old,
            [&] {
              std::string text;
              for (const auto& m : moves)
                text += fmt::format("{}{}->{}:{}", text.empty() ? "" : ", ", m.src, m.dst,
                                    to_string(refs(s.dims[static_cast<std::size_t>(m.src)], m.from, m.to)));
              Edge edge{fmt::format("all_to_all({})", text), std::nullopt};
              if (auto op = ir_all_to_all(s, moves, into, gives)) edge.step = Step{std::move(*op)};
              return edge;
            },
            false, emit);
        return;
      }
      auto& order = into[static_cast<std::size_t>(j)];
      auto& dim = next.dims[static_cast<std::size_t>(j)];
      const std::size_t prefix = dim.size();
      std::sort(order.begin(), order.end());
      do {
        dim.resize(prefix);
        for (std::size_t m : order) {
          const auto& from = s.dims[static_cast<std::size_t>(moves[m].src)];
          dim.insert(dim.end(), from.begin() + static_cast<std::ptrdiff_t>(moves[m].from),
                     from.begin() + static_cast<std::ptrdiff_t>(moves[m].to));
        }
        append(j + 1, next);
      } while (std::next_permutation(order.begin(), order.end()));
      dim.resize(prefix);
    };
    append(0, kept);
  }

  /// The plan IR's all_to_all for `moves` with `into`'s append orders: its moves in an
  /// order that takes each source dim's parts minor-most first and appends each
  /// destination's in its order; nullopt where no order does, or a dim both gives and
  /// receives (the IR's fused form forbids it).
  std::optional<AllToAll> ir_all_to_all(const State& s, const std::vector<Move>& moves,
                                        const std::vector<std::vector<std::size_t>>& into,
                                        const std::vector<char>& gives) const {
    for (int j = 0; j < rank_; ++j)
      if (gives[static_cast<std::size_t>(j)] && !into[static_cast<std::size_t>(j)].empty()) return std::nullopt;
    std::vector<std::size_t> next_in(static_cast<std::size_t>(rank_), 0);  // position in into[dst]
    std::vector<char> done(moves.size(), 0);
    AllToAll op;
    for (std::size_t placed = 0; placed < moves.size();) {
      bool progress = false;
      for (std::size_t m = 0; m < moves.size(); ++m) {
        if (done[m]) continue;
        const Move& mv = moves[m];
        // Its source's more minor parts (listed before it) are placed...
        bool ready = true;
        for (std::size_t e = 0; e < m; ++e)
          if (!done[e] && moves[e].src == mv.src) ready = false;
        // ...and it is next in its destination's order.
        const auto& order = into[static_cast<std::size_t>(mv.dst)];
        if (!ready || order[next_in[static_cast<std::size_t>(mv.dst)]] != m) continue;
        op.moves.push_back({mv.src, mv.dst, refs(s.dims[static_cast<std::size_t>(mv.src)], mv.from, mv.to)});
        done[m] = 1;
        ++next_in[static_cast<std::size_t>(mv.dst)];
        ++placed;
        progress = true;
      }
      if (!progress) return std::nullopt;
    }
    return op;
  }

  /// Every type in `order` whose dims keep their local sizes and whose intervals so far
  /// leave each device kept in place or moved tightly, dim by dim.
  void permutes(const State& s, const Boxes& old, int order, const std::function<void(State, Edge)>& emit) {
    const std::vector<Interval>& o = old.at;
    const std::vector<Interval>& t = target_.at;
    // A device may move only where it holds nothing of its target.
    std::vector<char> may_move(static_cast<std::size_t>(devices_));
    for (int64_t p = 0; p < devices_; ++p) may_move[static_cast<std::size_t>(p)] = disjoint(old.box(p), target_.box(p), rank_);
    std::vector<int64_t> local(static_cast<std::size_t>(rank_));
    for (int i = 0; i < rank_; ++i)
      local[static_cast<std::size_t>(i)] = ceil_div(global_[static_cast<std::size_t>(i)], tiles(s.dims[static_cast<std::size_t>(i)]));
    State next{order, std::vector<Digits>(static_cast<std::size_t>(rank_))};
    std::vector<bool> taken(digits_.size(), false);
    // stay[p] / move[p]: the dims so far keep p's interval / fit in p's target.
    std::vector<std::vector<char>> stay{std::vector<char>(static_cast<std::size_t>(devices_), 1)};
    std::vector<std::vector<char>> move{may_move};
    std::function<void(int)> dim_at = [&](int i) {
      if (i == rank_) {
        if (next == s) return;
        offer(
            next, old,
            [&] {
              const DistType to = type_of(next);
              return Edge{fmt::format("collective_permute(to={}{})", to_string(to), order == 1 ? " on the target's order" : ""),
                          Step{CollectivePermute{to, two_orders_ ? std::optional<Mesh>(order == 1 ? dst_mesh_ : src_mesh_)
                                                                 : std::nullopt}}};
            },
            true, emit);
        return;
      }
      std::function<void()> extend = [&]() {
        Digits& list = next.dims[static_cast<std::size_t>(i)];
        const int64_t here = ceil_div(global_[static_cast<std::size_t>(i)], tiles(list));
        if (here == local[static_cast<std::size_t>(i)]) {
          const auto& column = intervals(i, list, order);
          std::vector<char> st = stay.back(), mv = move.back();
          bool viable = true;
          for (int64_t p = 0; p < devices_ && viable; ++p) {
            const std::size_t at = static_cast<std::size_t>(p * rank_ + i), q = static_cast<std::size_t>(p);
            st[q] = st[q] && column[q] == o[at];
            mv[q] = mv[q] && within(column[q], t[at]);
            viable = st[q] || mv[q];
          }
          if (viable) {
            stay.push_back(std::move(st));
            move.push_back(std::move(mv));
            dim_at(i + 1);
            stay.pop_back();
            move.pop_back();
          }
        }
        // More digits never grow the local size; past the dim's length they keep it at 1
        // (a padded type, some blocks empty).
        if (here < local[static_cast<std::size_t>(i)] || (here == local[static_cast<std::size_t>(i)] && here > 1)) return;
        for (std::size_t g = 0; g < digits_.size(); ++g) {
          if (taken[g]) continue;
          taken[g] = true;
          list.push_back(static_cast<int>(g));
          extend();
          list.pop_back();
          taken[g] = false;
        }
      };
      extend();
    };
    dim_at(0);
  }

  const Mesh& src_mesh_;
  const Mesh& dst_mesh_;
  const DistType& src_;
  TightSearchOptions options_;
  std::vector<Digit> digits_;
  int rank_ = 0;
  std::vector<int64_t> global_;
  int64_t devices_ = 0;
  bool two_orders_ = false;
  std::vector<std::vector<int>> values_;  // [order][position * digits + digit]
  mutable std::unordered_map<std::string, std::vector<Interval>> columns_;
  mutable int64_t first_failing_ = 0;
  int64_t elem_bound_ = 0;  // max(source, target) local elements
  Boxes target_;
  std::vector<Edge> path_;
};

}  // namespace

std::string_view verdict_name(TightVerdict verdict) {
  switch (verdict) {
    case TightVerdict::found: return "found";
    case TightVerdict::none: return "none";
    case TightVerdict::none_per_digit_order: return "none_per_digit_order";
    case TightVerdict::gave_up: return "gave_up";
    case TightVerdict::skipped: return "skipped";
  }
  return "?";
}

TightSearchResult find_tight_plan(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                                  const DistType& dst, const TightSearchOptions& options) {
  TightSearchResult result;
  if (!src.reduce_axes.empty() || !dst.reduce_axes.empty()) {
    result.reason = "pending reductions";
    return result;
  }
  if (src.rank() > static_cast<std::size_t>(kMaxRank)) {
    result.reason = fmt::format("more than {} dims", kMaxRank);
    return result;
  }
  if (!src_mesh.same_axes(dst_mesh) || !src_mesh.same_devices(dst_mesh)) {
    result.reason = "other mesh axes or devices";
    return result;
  }
  // Every order of each axis's prime digits.
  std::vector<std::vector<std::vector<int64_t>>> per_axis;
  for (const auto& axis : src_mesh.axes()) {
    auto primes = prime_factors(axis.size);
    std::vector<std::vector<int64_t>> orders;
    do orders.push_back(primes);
    while (std::next_permutation(primes.begin(), primes.end()));
    per_axis.push_back(std::move(orders));
  }
  std::size_t combinations = 1;
  for (const auto& orders : per_axis) combinations *= orders.size();
  bool gave_up = false;
  std::size_t tried = 0;
  for (std::size_t c = 0; c < combinations; ++c) {
    std::vector<std::vector<int64_t>> orders;
    std::size_t rest = c;
    for (const auto& axis_orders : per_axis) {
      orders.push_back(axis_orders[rest % axis_orders.size()]);
      rest /= axis_orders.size();
    }
    Search search(src_mesh, src, dst_mesh, dst, orders, options);
    const auto source = search.state_of(src, 0);
    const auto target = search.state_of(dst, src_mesh == dst_mesh ? 0 : 1);
    if (!source || !target) continue;  // the types split an axis another way
    ++tried;
    TightSearchResult run = search.run(*source, *target);
    result.states += run.states;
    if (run.verdict == TightVerdict::gave_up) gave_up = true;
    if (run.verdict != TightVerdict::found) continue;
    result.verdict = TightVerdict::found;
    Plan plan{src_mesh, src, {}, dst};
    bool expressible = true;
    for (const auto& edge : search.path()) {
      result.steps.push_back(edge.text);
      if (edge.step) plan.steps.push_back(*edge.step);
      else expressible = false;
    }
    if (expressible) result.plan = std::move(plan);
    return result;
  }
  if (tried == 0) {
    result.reason = "a factor does not fall on prime digits";
    return result;
  }
  result.verdict = gave_up ? TightVerdict::gave_up
                   : combinations > 1 ? TightVerdict::none_per_digit_order
                                      : TightVerdict::none;
  if (!gave_up)
    result.in_every_order =
        none_in_any_order(src_mesh, src, dst_mesh, dst, options.max_states, options.within_bound).value_or(false);
  return result;
}

}  // namespace redist::tightness
