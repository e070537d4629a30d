// optimal_plan() against an exhaustive search on small cases. The oracle shares no code
// with the search but the public typing rules and cost model: it enumerates every
// valid type of the array (the universe), tries every step on every type with
// apply_step (slices of any axis or sub-axis, gathers and all_to_alls of any one to three
// references or of any suffix of a dim's tiling, fused all_to_alls of any two of those,
// one permute to ANY type with the same tile counts), and relaxes costs to
// a fixed point. Like the search it slices only before anything is received (a slice
// after that would drop received elements: G3a), and only when no such plan exists does
// it allow slices after receiving (a fully used mesh whose order must change). The
// search must find the same least cost.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <numeric>
#include <tuple>

#include "redist/synth/cost_model.hpp"
#include "redist/synth/optimal.hpp"
#include "redist/plan/plan_text.hpp"
#include "synth/synthesis_cases.hpp"

namespace redist::testing {
namespace {

/// Every axis reference valid on `mesh`: whole axes and proper sub-axes.
std::vector<AxisRef> all_refs(const Mesh& mesh) {
  std::vector<AxisRef> refs;
  for (const auto& a : mesh.axes())
    for (int64_t pre = 1; pre <= a.size; ++pre)
      for (int64_t size = 1; pre * size <= a.size; ++size) {
        AxisRef r = make_axis_ref(a.name, pre, size, a.size);
        if ((size >= 2 || !r.sub) && validate_axis_ref(r, mesh).ok()) refs.push_back(r);
      }
  return refs;
}

/// Every ordered list of one to three references.
std::vector<std::vector<AxisRef>> lists(const std::vector<AxisRef>& refs) {
  std::vector<std::vector<AxisRef>> out;
  for (const auto& a : refs) {
    out.push_back({a});
    for (const auto& b : refs) {
      out.push_back({a, b});
      for (const auto& c : refs) out.push_back({a, b, c});
    }
  }
  return out;
}

struct Oracle {
  Mesh mesh;
  CostModel model;
  BigInt budget;
  std::vector<AxisRef> refs;
  std::vector<std::vector<AxisRef>> suffixes;
  std::map<std::string, DistType> universe;  // canonical text -> type
  // Padded types are states only of problems with padding: the search never pads a
  // divisible pair (docs/synthesis.md), so neither does the oracle.
  bool padded = false;

  /// True when `t` is a state of this problem.
  bool admits(const DistType& t) const { return padded || !has_padding(t); }

  /// Every type reachable from `replicated` by slices, whatever its size.
  void build_universe(const DistType& replicated) {
    std::vector<DistType> todo{replicated};
    universe.emplace(to_string(replicated), replicated);
    while (!todo.empty()) {
      const DistType t = todo.back();
      todo.pop_back();
      for (std::size_t d = 0; d < t.rank(); ++d)
        for (const auto& r : refs)
          if (auto next = apply_step({mesh, t}, Step(AllSlice{static_cast<int>(d), {r}})); next && admits(next->type))
            if (universe.emplace(to_string(next->type), next->type).second) todo.push_back(next->type);
    }
  }

  /// A step from a state: where it leads, its cost, whether it is a slice, its text.
  struct Move {
    DistType next;
    double cost;
    bool slice;
    std::string text;
  };

  /// Every state one step (other than a permute) from `t`.
  std::vector<Move> collectives(const DistType& t) const {
    std::vector<Step> steps;
    for (std::size_t d = 0; d < t.rank(); ++d) {
      const int di = static_cast<int>(d);
      for (const auto& r : refs) steps.emplace_back(AllSlice{di, {r}});
      // Lists of up to three references, and every suffix of the dim's tiling (a tiling
      // may hold more than three).
      std::vector<std::vector<AxisRef>> moved = suffixes;
      const auto& axes = t.dims[d].axes;
      for (std::size_t from = 0; from + 3 < axes.size(); ++from) moved.emplace_back(axes.begin() + from, axes.end());
      for (const auto& s : moved) {
        steps.emplace_back(AllGather{di, s});
        for (std::size_t d2 = 0; d2 < t.rank(); ++d2)
          if (d2 != d) steps.emplace_back(AllToAll{di, static_cast<int>(d2), s});
      }
    }
    // Fused all_to_alls: every ordered pair of the all_to_alls above as one step (the
    // typing rule keeps those one exchange can do), the first one valid on `t` alone.
    const TypedState before{mesh, t};
    std::vector<AllToAllMove> singles;
    for (const auto& step : steps)
      if (const auto* a2a = std::get_if<AllToAll>(&step.op)) singles.push_back(a2a->moves[0]);
    for (const auto& a : singles) {
      if (!apply_step(before, Step(AllToAll{a.src_dim, a.dst_dim, a.axes}))) continue;
      for (const auto& b : singles)
        if (a.src_dim != b.dst_dim && b.src_dim != a.dst_dim && !(a == b))
          steps.emplace_back(AllToAll{std::vector<AllToAllMove>{a, b}});
    }
    // Fused all_gathers: every ordered pair of the gathers above as one step (the typing
    // rule keeps those of two dims), the first one valid on `t` alone.
    std::vector<AllGatherPart> gathers;
    for (const auto& step : steps)
      if (const auto* g = std::get_if<AllGather>(&step.op)) gathers.push_back(g->parts[0]);
    for (const auto& a : gathers) {
      if (!apply_step(before, Step(AllGather{a.dim, a.axes}))) continue;
      for (const auto& b : gathers)
        if (a.dim != b.dim) steps.emplace_back(AllGather{std::vector<AllGatherPart>{a, b}});
    }
    std::vector<Move> out;
    for (const auto& step : steps) {
      auto next = apply_step(before, step);
      if (!next || !admits(next->type) || local_bytes(next->type) > budget) continue;
      out.push_back({next->type, step_cost(model, before, *next, step).time_us,
                     std::holds_alternative<AllSlice>(step.op), to_string(step)});
    }
    return out;
  }

  /// Every type one permute from `t` within the budget.
  std::vector<Move> permutes(const DistType& t) const {
    std::vector<Move> out;
    const TypedState before{mesh, t};
    for (const auto& [text, x] : universe) {
      if (x == t || local_bytes(x) > budget) continue;
      const Step permute(CollectivePermute{x, std::nullopt});
      if (auto after = apply_step(before, permute))
        out.push_back({after->type, step_cost(model, before, *after, permute).time_us, false, to_string(permute)});
    }
    return out;
  }

  /// The least cost of a plan and its steps (cost -1 when there is none).
  struct Least {
    double cost = -1;
    std::vector<std::string> steps;
  };

  /// The least cost from `src` to `dst` with at most one permute, by relaxing every
  /// edge until nothing changes.
  Least least_cost(const DistType& src, const DistType& dst, bool slice_after_receive) const {
    using Key = std::tuple<std::string, bool, bool>;  // (canonical text, permuted, received)
    struct Edge {
      Key next;
      double cost;
      std::string text;
    };
    std::map<Key, std::vector<Edge>> edges;
    for (const auto& [text, t] : universe) {
      if (local_bytes(t) > budget) continue;
      const auto steps = collectives(t);
      for (bool permuted : {false, true})
        for (bool received : {false, true})
          for (const auto& m : steps)
            if (!(m.slice && received) || slice_after_receive)
              edges[{text, permuted, received}].push_back(
                  {{to_string(m.next), permuted, received || !m.slice}, m.cost, m.text});
      for (const auto& m : permutes(t))
        for (bool received : {false, true})
          edges[{text, false, received}].push_back({{to_string(m.next), true, received || m.cost > 0}, m.cost, m.text});
    }
    struct Reached {
      double cost;
      Key from;
      std::string step;
    };
    const Key start{to_string(src), false, false};
    std::map<Key, Reached> reached{{start, {0, start, ""}}};
    for (bool changed = true; changed;) {
      changed = false;
      for (const auto& [key, r] : std::map(reached))
        for (const auto& e : edges[key]) {
          auto [it, fresh] = reached.emplace(e.next, Reached{r.cost + e.cost, key, e.text});
          if (fresh || r.cost + e.cost < it->second.cost - 1e-12) {
            it->second = {r.cost + e.cost, key, e.text};
            changed = true;
          }
        }
    }
    const Reached* best = nullptr;
    Key at;
    for (bool permuted : {false, true})
      for (bool received : {false, true})
        if (auto it = reached.find({to_string(dst), permuted, received}); it != reached.end())
          if (!best || it->second.cost < best->cost) best = &it->second, at = it->first;
    if (!best) return {};
    Least least{best->cost, {}};
    for (; at != start; at = reached.at(at).from) least.steps.insert(least.steps.begin(), reached.at(at).step);
    return least;
  }
};

/// A small case with no trivial axes: 2 or 3 axes of sizes 2 to 4 (at most 16
/// devices), rank 2 (or 3 on two axes), tilings with sub-axes, tiny or large arrays.
rc::Gen<ReshardCase> gen_small_case() {
  return rc::gen::exec([] {
    static const char* names[] = {"x", "y", "z"};
    const int axes = *rc::gen::inRange(2, 4);
    std::vector<MeshAxis> mesh_axes;
    int64_t devices = 1;
    for (int i = 0; i < axes; ++i) {
      const int64_t room = (16 / devices) >> (axes - i - 1);  // leaves 2 for each later axis
      const int64_t size = *rc::gen::inRange<int64_t>(2, std::min<int64_t>(4, room) + 1);
      devices *= size;
      mesh_axes.push_back({names[i], size});
    }
    ReshardCase c;
    c.mesh = c.target_mesh = Mesh::create(mesh_axes).value();
    const int rank = axes == 2 ? *rc::gen::inRange(2, 4) : 2;
    c.src.dims = *gen_tiling(c.mesh, rank);
    c.dst.dims = *gen_tiling(c.mesh, rank);
    for (std::size_t d = 0; d < c.src.dims.size(); ++d)
      c.src.dims[d].global = c.dst.dims[d].global =
          std::lcm(tile_count(c.src.dims[d]), tile_count(c.dst.dims[d])) * *rc::gen::inRange<int64_t>(1, 3);
    // Large arrays make bandwidth, not latency, decide.
    c.src.dims[0].global = c.dst.dims[0].global *= *rc::gen::element<int64_t>(1, 1 << 16);
    return c;
  });
}

RC_GTEST_PROP(OptimalExhaustive, SameLeastCostAsTheExhaustiveSearch, ()) {
  const ReshardCase c = *gen_small_case();
  RC_LOG() << c << "\n";
  Oracle oracle{c.mesh, {}, std::max(local_bytes(c.src), local_bytes(c.dst)), all_refs(c.mesh), {}, {}};
  for (const auto& axis : c.mesh.axes())
    if (*rc::gen::inRange(0, 2)) oracle.model.axis_class[axis.name] = LinkClass::inter;
  oracle.suffixes = lists(oracle.refs);
  oracle.padded = has_padding(c.src) || has_padding(c.dst);
  DistType replicated = c.src;
  for (auto& d : replicated.dims) d.axes.clear();
  oracle.build_universe(replicated);
  const DistType src = canonical(c.src, c.mesh), dst = canonical(c.dst, c.mesh);
  auto expected = oracle.least_cost(src, dst, false);
  if (expected.cost < 0) {
    RC_CLASSIFY(true, "slices after receiving");
    expected = oracle.least_cost(src, dst, true);
  }
  auto best = optimal_plan(oracle.model, c.mesh, c.src, c.mesh, c.dst);
  if (expected.cost < 0) {
    RC_ASSERT(!best.ok());
    return;
  }
  if (!best) RC_FAIL("no optimal plan: " + best.error().to_string());
  RC_CLASSIFY(best->plan.steps.size() >= 2, "two steps or more");
  RC_CLASSIFY(oracle.universe.size() >= 50, "50 types or more");
  if (std::abs(best->time_us - expected.cost) > 1e-9 * std::max(1.0, expected.cost)) {
    std::string oracle_plan;
    for (const auto& step : expected.steps) oracle_plan += step + "\n";
    RC_FAIL(fmt::format("optimal {} us, exhaustive {} us; optimal plan:\n{}\nexhaustive plan:\n{}", best->time_us,
                        expected.cost, to_string(best->plan), oracle_plan));
  }
}

}  // namespace
}  // namespace redist::testing
