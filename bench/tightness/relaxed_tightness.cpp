// none_in_any_order() (relaxed_tightness.hpp): breadth-first over tilings, each device
// with the set of blocks it may hold. Block ids are row-major over the tiling; a dim
// tiled t ways with block b holds [b * L, (b + 1) * L) cut at the dim's end, L the ceil of
// its size over t. On `{x:4}`, bf16[27, 72, {x}144] -> bf16[27, {x:(1)2}72, 144] the
// source tiling is (1, 1, 4) and each device one block; no step keeps every device
// tight, so the search ends at once: no plan is tight (tight_plans_test.cpp).

#include "relaxed_tightness.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <set>
#include <string>
#include <unordered_set>

#include "boxes.hpp"
#include "redist/core/semantics.hpp"

namespace redist::tightness {

namespace {

using Shape = std::vector<int64_t>;  // tiles per dim
using Blocks = std::vector<int64_t>;  // block ids a device may hold, sorted

/// One part of an all_to_all: `size` minor tiles of dim `src` to the minor end of `dst`.
struct Part {
  int src = 0, dst = 0;
  int64_t size = 1;
};

struct State {
  Shape shape;
  std::vector<Blocks> blocks;  // per device (source-mesh position)
};

std::string key_of(const State& s) {
  std::string key;
  auto put = [&](int64_t v) { key.append(reinterpret_cast<const char*>(&v), sizeof v); };
  for (int64_t t : s.shape) put(t);
  for (const auto& b : s.blocks) {
    put(-1);
    for (int64_t id : b) put(id);
  }
  return key;
}

/// Each device's block of each dim of `type` on `mesh`'s order, for the device at source
/// position p.
std::vector<std::vector<int64_t>> blocks_of(const DistType& type, const Mesh& mesh, const Mesh& src_mesh) {
  std::vector<std::vector<int64_t>> out;
  for (int64_t p = 0; p < src_mesh.num_devices(); ++p) {
    const Coords c = mesh.coords_of_device(src_mesh.device_at(p));
    std::vector<int64_t> b;
    for (const auto& dim : type.dims) b.push_back(block_index(mesh, c, dim));
    out.push_back(std::move(b));
  }
  return out;
}

Shape shape_of(const DistType& type) {
  Shape s;
  for (const auto& dim : type.dims) s.push_back(tile_count(dim));
  return s;
}

class Relaxed {
 public:
  Relaxed(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh, const DistType& dst, bool within_bound)
      : rank_(static_cast<int>(src.rank())), devices_(src_mesh.num_devices()) {
    for (const auto& dim : src.dims) global_.push_back(dim.global);
    bound_ = within_bound ? std::max(tightness::local_elements(src), tightness::local_elements(dst)) : INT64_MAX;
    source_.shape = shape_of(src);
    for (const auto& b : blocks_of(src, src_mesh, src_mesh)) source_.blocks.push_back({id_of(source_.shape, b.data())});
    target_shape_ = shape_of(dst);
    target_.rank = rank_;
    for (const auto& b : blocks_of(dst, dst_mesh, src_mesh)) {
      target_ids_.push_back(id_of(target_shape_, b.data()));
      for (int i = 0; i < rank_; ++i) target_.at.push_back(interval(i, target_shape_[static_cast<std::size_t>(i)], b[static_cast<std::size_t>(i)]));
    }
  }

  std::optional<bool> run(int64_t max_states) {
    std::unordered_set<std::string> seen{key_of(source_)};
    std::deque<State> queue{source_};
    while (!queue.empty()) {
      const State s = std::move(queue.front());
      queue.pop_front();
      if (reached(s)) return false;
      if (static_cast<int64_t>(seen.size()) > max_states) return std::nullopt;
      successors(s, [&](State next) {
        if (seen.insert(key_of(next)).second) queue.push_back(std::move(next));
      });
    }
    return true;
  }

 private:
  int64_t local_elements(const Shape& s) const {
    int64_t n = 1;
    for (int i = 0; i < rank_; ++i) n *= ceil_div(global_[static_cast<std::size_t>(i)], s[static_cast<std::size_t>(i)]);
    return n;
  }
  Interval interval(int i, int64_t tiles, int64_t block) const {
    return block_interval(global_[static_cast<std::size_t>(i)], tiles, block);
  }
  int64_t id_of(const Shape& s, const int64_t* b) const {
    int64_t id = 0;
    for (int i = 0; i < rank_; ++i) id = id * s[static_cast<std::size_t>(i)] + b[i];
    return id;
  }
  void blocks_at(const Shape& s, int64_t id, int64_t* b) const {
    for (int i = rank_ - 1; i >= 0; --i) {
      b[i] = id % s[static_cast<std::size_t>(i)];
      id /= s[static_cast<std::size_t>(i)];
    }
  }
  void box_of(const Shape& s, const int64_t* b, Interval* out) const {
    for (int i = 0; i < rank_; ++i) out[i] = interval(i, s[static_cast<std::size_t>(i)], b[i]);
  }
  /// Returns the devices over the tiles: each type's tiles are digits of the mesh, so
  /// they divide the device count, and the quotient is the replication.
  int64_t replication(const Shape& s) const {
    int64_t tiles = 1;
    for (int64_t t : s) tiles *= t;
    return devices_ % tiles == 0 ? devices_ / tiles : 0;
  }
  /// A tiling some type can have (its primes among the mesh's), within the bound.
  bool fits(const Shape& s) const { return replication(s) > 0 && local_elements(s) <= bound_; }
  bool reached(const State& s) const {
    if (s.shape != target_shape_) return false;
    for (int64_t p = 0; p < devices_; ++p)
      if (!std::binary_search(s.blocks[static_cast<std::size_t>(p)].begin(), s.blocks[static_cast<std::size_t>(p)].end(),
                              target_ids_[static_cast<std::size_t>(p)]))
        return false;
    return true;
  }

  /// Emits the state a collective to `shape` leads to, where `move` maps a device's block
  /// (per dim) to the blocks it may hold after (all of them for a slice): each device
  /// keeps the results that are tight on it; none where some device has none.
  void collective(const State& s, const Shape& shape,
                  const std::function<void(const int64_t*, const std::function<void(const int64_t*)>&)>& move,
                  const std::function<void(State)>& emit) const {
    if (!fits(shape)) return;
    State next{shape, {}};
    int64_t b[kMaxRank];
    Interval old_box[kMaxRank], new_box[kMaxRank];
    for (int64_t p = 0; p < devices_; ++p) {
      const Interval* t = target_.box(p);
      Blocks out;
      for (int64_t id : s.blocks[static_cast<std::size_t>(p)]) {
        blocks_at(s.shape, id, b);
        box_of(s.shape, b, old_box);
        move(b, [&](const int64_t* moved) {
          box_of(shape, moved, new_box);
          if (difference_within(new_box, old_box, t, rank_) && meet_within(old_box, t, new_box, rank_))
            out.push_back(id_of(shape, moved));
        });
      }
      if (out.empty()) return;
      std::sort(out.begin(), out.end());
      out.erase(std::unique(out.begin(), out.end()), out.end());
      next.blocks.push_back(std::move(out));
    }
    emit(std::move(next));
  }

  void successors(const State& s, const std::function<void(State)>& emit) const {
    std::vector<int64_t> free = prime_factors(replication(s.shape));
    free.erase(std::unique(free.begin(), free.end()), free.end());
    for (int i = 0; i < rank_; ++i) {
      const std::size_t ui = static_cast<std::size_t>(i);
      // all_slice by a prime the tiling leaves free: any of the p parts.
      for (int64_t p : free) {
        Shape shape = s.shape;
        shape[ui] *= p;
        collective(
            s, shape,
            [&, p](const int64_t* b, const std::function<void(const int64_t*)>& to) {
              int64_t m[kMaxRank];
              std::copy(b, b + rank_, m);
              for (int64_t v = 0; v < p; ++v) {
                m[i] = b[i] * p + v;
                to(m);
              }
            },
            emit);
      }
      // all_gather of any divisor's worth of minor tiles.
      for (int64_t d = 2; d <= s.shape[ui]; ++d) {
        if (s.shape[ui] % d != 0) continue;
        Shape shape = s.shape;
        shape[ui] /= d;
        collective(
            s, shape,
            [&, d](const int64_t* b, const std::function<void(const int64_t*)>& to) {
              int64_t m[kMaxRank];
              std::copy(b, b + rank_, m);
              m[i] = b[i] / d;
              to(m);
            },
            emit);
      }
    }
    exchanges(s, emit);
    permutes(s, emit);
  }

  /// all_to_all: from each dim of a nonempty set, consecutive minor parts (divisors of
  /// its tiles), each to another dim, appended in every order.
  void exchanges(const State& s, const std::function<void(State)>& emit) const {
    std::vector<Part> parts;  // per source dim, minor-most first
    std::function<void(int, int64_t)> choose = [&](int i, int64_t left) {
      if (i == rank_) {
        if (!parts.empty()) exchange(s, parts, emit);
        return;
      }
      choose(i + 1, i + 1 < rank_ ? s.shape[static_cast<std::size_t>(i + 1)] : 1);
      for (int64_t d = 2; d <= left; ++d) {
        if (left % d != 0) continue;
        for (int j = 0; j < rank_; ++j) {
          if (j == i) continue;
          parts.push_back({i, j, d});
          choose(i, left / d);
          parts.pop_back();
        }
      }
    };
    choose(0, rank_ > 0 ? s.shape[0] : 1);
  }

  /// The all_to_all of `parts`, each destination's parts appended in every order.
  void exchange(const State& s, const std::vector<Part>& parts, const std::function<void(State)>& emit) const {
    Shape shape = s.shape;
    std::vector<std::vector<std::size_t>> into(static_cast<std::size_t>(rank_));
    for (std::size_t k = 0; k < parts.size(); ++k) {
      shape[static_cast<std::size_t>(parts[k].src)] /= parts[k].size;
      shape[static_cast<std::size_t>(parts[k].dst)] *= parts[k].size;
      into[static_cast<std::size_t>(parts[k].dst)].push_back(k);
    }
    std::function<void(int)> orders = [&](int j) {
      if (j == rank_) {
        collective(
            s, shape,
            [&](const int64_t* b, const std::function<void(const int64_t*)>& to) {
              int64_t m[kMaxRank];
              std::copy(b, b + rank_, m);
              std::vector<int64_t> value(parts.size());
              for (std::size_t k = 0; k < parts.size(); ++k) {  // minor-most part of a source first
                value[k] = m[parts[k].src] % parts[k].size;
                m[parts[k].src] /= parts[k].size;
              }
              for (const auto& list : into)
                for (std::size_t k : list) m[parts[k].dst] = m[parts[k].dst] * parts[k].size + value[k];
              to(m);
            },
            emit);
        return;
      }
      auto& list = into[static_cast<std::size_t>(j)];
      std::sort(list.begin(), list.end());
      do orders(j + 1);
      while (std::next_permutation(list.begin(), list.end()));
    };
    orders(0);
  }

  /// collective_permute to a tiling of the same local sizes: a device keeps its block
  /// (same tiling) or, holding none of its target, takes any block of its target
  /// disjoint from the one it held.
  void permutes(const State& s, const std::function<void(State)>& emit) const {
    std::vector<std::vector<int64_t>> options(static_cast<std::size_t>(rank_));
    for (int i = 0; i < rank_; ++i) {
      const int64_t g = global_[static_cast<std::size_t>(i)], local = ceil_div(g, s.shape[static_cast<std::size_t>(i)]);
      for (int64_t t = 1; t <= devices_; ++t)
        if (devices_ % t == 0 && ceil_div(g, t) == local) options[static_cast<std::size_t>(i)].push_back(t);
    }
    Shape shape(static_cast<std::size_t>(rank_));
    std::function<void(int)> pick = [&](int i) {
      if (i == rank_) {
        if (fits(shape)) permute_to(s, shape, emit);
        return;
      }
      for (int64_t t : options[static_cast<std::size_t>(i)]) {
        shape[static_cast<std::size_t>(i)] = t;
        pick(i + 1);
      }
    };
    pick(0);
  }

  void permute_to(const State& s, const Shape& shape, const std::function<void(State)>& emit) const {
    int64_t total = 1;
    for (int64_t t : shape) total *= t;
    State next{shape, {}};
    int64_t b[kMaxRank];
    Interval old_box[kMaxRank], new_box[kMaxRank];
    bool moves = false;
    for (int64_t p = 0; p < devices_; ++p) {
      const Interval* t = target_.box(p);
      const auto& held = s.blocks[static_cast<std::size_t>(p)];
      Blocks out;
      if (shape == s.shape) out = held;
      std::vector<std::vector<Interval>> kept, free;  // held blocks; those holding none of the target
      for (int64_t id : held) {
        blocks_at(s.shape, id, b);
        box_of(s.shape, b, old_box);
        kept.emplace_back(old_box, old_box + rank_);
        if (disjoint(old_box, t, rank_)) free.emplace_back(old_box, old_box + rank_);
      }
      for (int64_t id = 0; id < total; ++id) {
        blocks_at(shape, id, b);
        box_of(shape, b, new_box);
        // Kept in place: the same elements in another tiling of the same local sizes.
        if (shape != s.shape &&
            std::any_of(kept.begin(), kept.end(), [&](const auto& o) { return equal(new_box, o.data(), rank_); }))
          out.push_back(id);
        // Moved: a whole block of its target, where it held one holding none of it.
        if (!free.empty() && !empty(new_box, rank_) && subset(new_box, t, rank_)) {
          out.push_back(id);
          moves = true;
        }
      }
      if (out.empty()) return;
      std::sort(out.begin(), out.end());
      out.erase(std::unique(out.begin(), out.end()), out.end());
      next.blocks.push_back(std::move(out));
    }
    if (moves || shape != s.shape) emit(std::move(next));
  }

  int rank_ = 0;
  int64_t devices_ = 0;
  std::vector<int64_t> global_;
  int64_t bound_ = 0;
  State source_;
  Shape target_shape_;
  Boxes target_;
  std::vector<int64_t> target_ids_;
};

}  // namespace

std::optional<bool> none_in_any_order(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                                      const DistType& dst, int64_t max_states, bool within_bound) {
  if (src.rank() > static_cast<std::size_t>(kMaxRank)) return std::nullopt;
  return Relaxed(src_mesh, src, dst_mesh, dst, within_bound).run(max_states);
}

}  // namespace redist::tightness
