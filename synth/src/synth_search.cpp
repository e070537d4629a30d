// The searched plan: all_to_alls before and after at most one collective_permute, found
// by a bounded breadth-first search from both ends that meets on equal layouts (no
// permute) or on equal per-dim tile counts (one permute).

#include <limits>
#include <numeric>
#include <unordered_map>

#include "synth_atoms.hpp"
#include "synth_bfs.hpp"
#include "synth_builders.hpp"

namespace redist::synth_detail {

namespace {

constexpr std::size_t kMaxNodes = 4096;

struct Node {
  Layout layout;
  int parent = -1;
  Move move;  // the all_to_all in forward direction (from this node's parent, or to it)
  double cost = 0;
  int depth = 0;
};

/// Breadth-first search over all_to_alls from `start` up to `depth` moves, never moving
/// the first `fixed[d]` atoms of dim d. Backward search (`reverse`) records each move
/// as the forward all_to_all that undoes it.
std::vector<Node> explore(const Frame& frame, const Layout& start, const std::vector<std::size_t>& fixed, int depth,
                          bool reverse) {
  std::vector<Node> nodes;
  std::unordered_map<Layout, int, LayoutHash> seen;
  nodes.push_back(Node{start, -1, Move{}, 0, 0});
  seen.emplace(start, 0);
  for (std::size_t i = 0; i < nodes.size() && nodes.size() < kMaxNodes; ++i) {
    if (nodes[i].depth >= depth) continue;
    const Layout at = nodes[i].layout;
    const std::size_t rank = at.dims.size();
    for (std::size_t s = 0; s < rank; ++s) {
      for (std::size_t q = fixed[s]; q < at.dims[s].size(); ++q) {
        const Factors block(at.dims[s].begin() + static_cast<std::ptrdiff_t>(q), at.dims[s].end());
        const int64_t g = product(block);
        for (std::size_t t = 0; t < rank; ++t) {
          if (t == s || room(frame, at, t) % g != 0) continue;
          Layout next = at;
          next.dims[s].erase(next.dims[s].begin() + static_cast<std::ptrdiff_t>(q), next.dims[s].end());
          next.dims[t].insert(next.dims[t].end(), block.begin(), block.end());
          if (!seen.emplace(next, static_cast<int>(nodes.size())).second) continue;
          Move move = reverse ? all_to_all_move(static_cast<int>(t), static_cast<int>(s), block)
                              : all_to_all_move(static_cast<int>(s), static_cast<int>(t), block);
          const double cost = nodes[i].cost + 1.0 - 1.0 / static_cast<double>(g);
          nodes.push_back(Node{std::move(next), static_cast<int>(i), std::move(move), cost, nodes[i].depth + 1});
        }
      }
    }
  }
  return nodes;
}

}  // namespace

std::optional<Moves> searched_plan(const Problem& problem, const Atomized& primes, const Ends& ends, int depth) {
  const Frame& frame = problem.frame;
  const Layout& plo = ends.lo;
  const Layout& phi = ends.hi;
  std::vector<std::size_t> fixed;
  for (std::size_t d = 0; d < plo.dims.size(); ++d) fixed.push_back(common_prefix(plo.dims[d], phi.dims[d]));

  const auto forward = explore(frame, plo, fixed, depth, false);
  const auto backward = explore(frame, phi, fixed, depth, true);
  std::unordered_map<Layout, int, LayoutHash> by_layout;
  std::unordered_map<Counts, int, CountsHash> by_counts;
  for (int b = 0; b < static_cast<int>(backward.size()); ++b) {
    by_layout.emplace(backward[static_cast<std::size_t>(b)].layout, b);
    auto [it, fresh] = by_counts.emplace(counts(backward[static_cast<std::size_t>(b)].layout), b);
    if (!fresh && backward[static_cast<std::size_t>(it->second)].cost > backward[static_cast<std::size_t>(b)].cost)
      it->second = b;
  }
  // Best meeting point: (cost, number of steps), earlier nodes first on ties.
  double best = std::numeric_limits<double>::infinity();
  int best_steps = 0, best_f = -1, best_b = -1;
  bool best_permute = false;
  auto consider = [&](int f, int b, bool permute) {
    const Node& nf = forward[static_cast<std::size_t>(f)];
    const Node& nb = backward[static_cast<std::size_t>(b)];
    const double cost = nf.cost + nb.cost + (permute ? 1.0 : 0.0);
    const int steps = nf.depth + nb.depth + (permute ? 1 : 0);
    if (cost < best - 1e-9 || (cost < best + 1e-9 && steps < best_steps)) {
      best = cost;
      best_steps = steps;
      best_f = f;
      best_b = b;
      best_permute = permute;
    }
  };
  for (int f = 0; f < static_cast<int>(forward.size()); ++f) {
    const Node& nf = forward[static_cast<std::size_t>(f)];
    if (!problem.mesh_change)
      if (auto it = by_layout.find(nf.layout); it != by_layout.end()) consider(f, it->second, false);
    if (auto it = by_counts.find(counts(nf.layout)); it != by_counts.end()) consider(f, it->second, true);
  }
  if (best_f < 0) return std::nullopt;

  Moves moves = ends.slices;
  Moves path;
  for (int f = best_f; forward[static_cast<std::size_t>(f)].parent >= 0; f = forward[static_cast<std::size_t>(f)].parent)
    path.push_back(forward[static_cast<std::size_t>(f)].move);
  moves.insert(moves.end(), path.rbegin(), path.rend());
  if (best_permute) {
    const Layout& from = forward[static_cast<std::size_t>(best_f)].layout;
    const Layout& to = backward[static_cast<std::size_t>(best_b)].layout;
    moves.push_back(permute_move(to, from));
  }
  for (int b = best_b; backward[static_cast<std::size_t>(b)].parent >= 0; b = backward[static_cast<std::size_t>(b)].parent)
    moves.push_back(backward[static_cast<std::size_t>(b)].move);
  append_gathers(phi, primes.b, moves);
  return moves;
}

}  // namespace redist::synth_detail
