// The bounded plan: a bidirectional search over every move kind within the memory bound.

#include <limits>
#include <unordered_map>

#include "synth_atoms.hpp"
#include "synth_bfs.hpp"
#include "synth_builders.hpp"

namespace redist::synth_detail {

namespace {

constexpr std::size_t kMaxNodes = std::size_t{1} << 15;

struct Node {
  Layout layout;
  int parent = -1;
  Move move;         // in forward direction: from the parent (forward side) or to it (backward side)
  double local = 0;  // elements per device in this state
  double cost = 0;   // elements received per device along the path
  int depth = 0;
};

struct Side {
  std::vector<Node> nodes;
  std::unordered_map<Layout, int, LayoutHash> seen;

  void add(Node node) {
    if (seen.emplace(node.layout, static_cast<int>(nodes.size())).second) nodes.push_back(std::move(node));
  }
};

/// What the search works with: atomized source and target, untouchable prefixes, bound.
struct Rules {
  const Frame& frame;
  const Layout& src;
  const Layout& dst;
  std::vector<std::size_t> fixed;
  double bound;
};

/// Adds the successors of node `i` of `side`: all_to_alls, and forward all_slices of
/// target atoms and all_gathers of others; backward, the moves whose forward versions
/// lead into the node.
void expand(const Rules& r, Side& side, std::size_t i, bool backward) {
  const Node node = side.nodes[i];
  const Layout& at = node.layout;
  const std::size_t rank = at.dims.size();
  auto push = [&](Layout next, Move move, double local, double cost) {
    if (local > r.bound * (1 + 1e-12)) return;
    side.add(Node{std::move(next), static_cast<int>(i), std::move(move), local, node.cost + cost, node.depth + 1});
  };
  for (std::size_t s = 0; s < rank; ++s) {
    for (std::size_t q = r.fixed[s]; q < at.dims[s].size(); ++q) {
      const Factors block(at.dims[s].begin() + static_cast<std::ptrdiff_t>(q), at.dims[s].end());
      const auto g = product(block);
      for (std::size_t t = 0; t < rank; ++t) {
        if (t == s || room(r.frame, at, t) % g != 0) continue;
        Layout next = at;
        next.dims[s].erase(next.dims[s].begin() + static_cast<std::ptrdiff_t>(q), next.dims[s].end());
        next.dims[t].insert(next.dims[t].end(), block.begin(), block.end());
        Move m = backward ? all_to_all_move(static_cast<int>(t), static_cast<int>(s), block)
                          : all_to_all_move(static_cast<int>(s), static_cast<int>(t), block);
        push(std::move(next), std::move(m), node.local, (1.0 - 1.0 / static_cast<double>(g)) * node.local);
      }
    }
  }
  // Atoms that arrive (forward slice, backward ungather) go on top of a dim with room;
  // atoms that leave (forward gather, backward unslice) come off the top of a dim.
  const Layout& arriving = backward ? r.src : r.dst;
  for (const auto& d : arriving.dims) {
    for (const auto& atom : d) {
      if (contains(at, atom)) continue;
      const auto g = static_cast<double>(atom.size);
      for (std::size_t t = 0; t < rank; ++t) {
        if (room(r.frame, at, t) % atom.size != 0) continue;
        Layout next = at;
        next.dims[t].push_back(atom);
        if (backward) {
          push(std::move(next), gather_move(static_cast<int>(t), Factors{atom}), node.local / g,
               (g - 1.0) * node.local / g);
        } else {
          push(std::move(next), slice_move(static_cast<int>(t), Factors{atom}), node.local / g, 0);
        }
      }
    }
  }
  const Layout& staying = backward ? r.src : r.dst;
  for (std::size_t t = 0; t < rank; ++t) {
    if (at.dims[t].size() <= r.fixed[t] || contains(staying, at.dims[t].back())) continue;
    const Factor atom = at.dims[t].back();
    const auto g = static_cast<double>(atom.size);
    Layout next = at;
    next.dims[t].pop_back();
    if (backward) {
      push(std::move(next), slice_move(static_cast<int>(t), Factors{atom}), node.local * g, 0);
    } else {
      push(std::move(next), gather_move(static_cast<int>(t), Factors{atom}), node.local * g, (g - 1.0) * node.local);
    }
  }
}

Side explore(const Rules& r, const Layout& start, double local, int depth, bool backward) {
  Side side;
  side.add(Node{start, -1, Move{}, local, 0, 0});
  for (std::size_t i = 0; i < side.nodes.size() && side.nodes.size() < kMaxNodes; ++i)
    if (side.nodes[i].depth < depth) expand(r, side, i, backward);
  return side;
}

}  // namespace

std::optional<Moves> bounded_plan(const Problem& problem, const Atomized& primes, double bound, int depth) {
  const Frame& frame = problem.frame;
  Rules rules{frame, primes.a, primes.b, {}, bound};
  for (std::size_t d = 0; d < primes.a.dims.size(); ++d)
    rules.fixed.push_back(common_prefix(primes.a.dims[d], primes.b.dims[d]));
  const Side forward = explore(rules, primes.a, local_elements(frame, primes.a), depth, false);
  const Side backward = explore(rules, primes.b, local_elements(frame, primes.b), depth, true);

  std::unordered_map<Counts, int, CountsHash> by_counts;
  for (int b = 0; b < static_cast<int>(backward.nodes.size()); ++b) {
    auto [it, fresh] = by_counts.emplace(counts(backward.nodes[static_cast<std::size_t>(b)].layout), b);
    if (!fresh && backward.nodes[static_cast<std::size_t>(it->second)].cost > backward.nodes[static_cast<std::size_t>(b)].cost)
      it->second = b;
  }
  double best = std::numeric_limits<double>::infinity();
  int best_steps = 0, best_f = -1, best_b = -1;
  bool best_permute = false;
  auto consider = [&](int f, int b, bool permute) {
    const Node& nf = forward.nodes[static_cast<std::size_t>(f)];
    const Node& nb = backward.nodes[static_cast<std::size_t>(b)];
    const double cost = nf.cost + nb.cost + (permute ? nf.local : 0.0);
    const int steps = nf.depth + nb.depth + (permute ? 1 : 0);
    if (cost < best * (1 - 1e-12) || (cost <= best * (1 + 1e-12) && steps < best_steps)) {
      best = cost;
      best_steps = steps;
      best_f = f;
      best_b = b;
      best_permute = permute;
    }
  };
  for (int f = 0; f < static_cast<int>(forward.nodes.size()); ++f) {
    const Node& nf = forward.nodes[static_cast<std::size_t>(f)];
    if (!problem.mesh_change)
      if (auto it = backward.seen.find(nf.layout); it != backward.seen.end()) consider(f, it->second, false);
    if (auto it = by_counts.find(counts(nf.layout)); it != by_counts.end()) consider(f, it->second, true);
  }
  if (best_f < 0) return std::nullopt;
  Moves moves;
  for (int f = best_f; forward.nodes[static_cast<std::size_t>(f)].parent >= 0;
       f = forward.nodes[static_cast<std::size_t>(f)].parent)
    moves.insert(moves.begin(), forward.nodes[static_cast<std::size_t>(f)].move);
  if (best_permute) {
    const Layout& from = forward.nodes[static_cast<std::size_t>(best_f)].layout;
    const Layout& to = backward.nodes[static_cast<std::size_t>(best_b)].layout;
    moves.push_back(permute_move(to, from));
  }
  for (int b = best_b; backward.nodes[static_cast<std::size_t>(b)].parent >= 0;
       b = backward.nodes[static_cast<std::size_t>(b)].parent)
    moves.push_back(backward.nodes[static_cast<std::size_t>(b)].move);
  return moves;
}

}  // namespace redist::synth_detail
