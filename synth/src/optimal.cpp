// optimal_plan(): A* over canonical types under the cost model, with the lower bound of
// optimal_bound.cpp (admissible; nodes are reopened when a cheaper path turns up, so
// the first time the target is taken from the queue its cost is the least).

#include "redist/synth/optimal.hpp"

#include <algorithm>
#include <cmath>
#include <queue>
#include <unordered_map>

#include "optimal_moves.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/synthesize.hpp"
#include "redist/plan/typing.hpp"

namespace redist {

namespace {

using namespace optimal_detail;

/// Arrays this large (2^62 bytes) are refused: byte counts stay exact in int64.
const BigInt kMaxArrayBytes = BigInt(1) << 62;

/// Why `src` and `dst` cannot be planned for at all, if they cannot.
std::optional<Error> input_problem(const CostModel& model, const Mesh& src_mesh, const DistType& src,
                                   const Mesh& dst_mesh, const DistType& dst) {
  if (auto s = validate(src, src_mesh); !s) return invalid_error("source: " + s.error().message);
  if (auto s = validate(dst, dst_mesh); !s) return invalid_error("target: " + s.error().message);
  if (!src_mesh.same_axes(dst_mesh))
    return unsupported_error("the source mesh " + to_string(src_mesh) + " and the target mesh " +
                             to_string(dst_mesh) + " have different axes");
  if (auto s = validate(model, src_mesh); !s) return s.error();
  bool same = src.elem == dst.elem && src.rank() == dst.rank();
  for (std::size_t d = 0; same && d < src.rank(); ++d) same = src.dims[d].global == dst.dims[d].global;
  if (!same) return invalid_error(to_string(src) + " and " + to_string(dst) + " describe different arrays");
  if (!src.reduce_axes.empty() && !dst.reduce_axes.empty() && src.reduce_op != dst.reduce_op)
    return invalid_error("the reduction op changes from " + std::string(reduce_op_name(src.reduce_op)) + " to " +
                         std::string(reduce_op_name(dst.reduce_op)));
  if (global_elements(src) * elem_bytes(src.elem) >= kMaxArrayBytes)
    return unsupported_error("arrays of 2^62 bytes or more are not searched");
  return std::nullopt;
}

Frame make_frame(const CostModel& model, const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                 const DistType& dst, int64_t budget) {
  Frame f;
  for (const auto& axis : src_mesh.axes()) {
    f.axis_sizes.push_back(axis.size);
    f.classes.push_back(model.class_of(axis.name));
  }
  for (const auto& d : src.dims) f.globals.push_back(d.global);
  f.elem_bytes = elem_bytes(src.elem);
  f.budget_bytes = budget;
  f.model = &model;
  f.src_mesh = src_mesh;
  f.dst_mesh = dst_mesh;
  f.mesh_change = !(src_mesh == dst_mesh);
  f.like = src;
  if (!src.reduce_axes.empty()) f.like.reduce_op = src.reduce_op;
  else f.like.reduce_op = dst.reduce_op;
  f.target = state_of(canonical(dst, dst_mesh), dst_mesh, false);
  for (const auto& region : free_regions(f, f.target)) append_sub_factors(region, f.pool);
  for (int axis = 0; axis < static_cast<int>(f.axis_sizes.size()); ++axis) {
    Factors all;
    append_sub_factors(Factor{axis, 1, f.axis_sizes[static_cast<std::size_t>(axis)]}, all);
    for (const auto& x : all)
      if (std::find(f.pool.begin(), f.pool.end(), x) == f.pool.end()) f.pool.push_back(x);
  }
  for (const auto& d : f.target.dims)
    for (const auto& x : d)
      if (x.size == 1) f.size_one_axes.push_back(x.axis);
  f.min_latency_us = std::min(model.intra.latency_us, model.inter.latency_us);
  f.max_bandwidth_gbps = std::max(model.intra.bandwidth_gbps, model.inter.bandwidth_gbps);
  return f;
}

/// The permutes of the greedy synthesizer's plan, as (state before, state after).
std::vector<std::pair<State, State>> greedy_permutes(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                                                     const DistType& dst, std::optional<uint64_t> budget) {
  std::vector<std::pair<State, State>> out;
  auto plan = synthesize(src_mesh, src, dst_mesh, dst, SynthOptions{budget});
  if (!plan) return out;
  auto states = type_plan(*plan);
  if (!states) return out;
  TypedState before{src_mesh, src};
  for (std::size_t k = 0; k < plan->steps.size(); ++k) {
    const TypedState& after = (*states)[k];
    if (std::holds_alternative<CollectivePermute>(plan->steps[k].op))
      out.emplace_back(state_of(canonical(before.type, before.mesh), before.mesh, false),
                       state_of(canonical(after.type, after.mesh), after.mesh, true));
    before = after;
  }
  return out;
}

struct Node {
  State state;
  double cost = 0;   // least modeled time found from the source
  double bound = 0;  // lower_bound_us() of the state
  int parent = -1;
  Move move;
};

struct Entry {
  double priority;  // cost + lower bound
  int64_t order;    // insertion order
  int node;
  double cost;
  /// Least priority first; on ties the costlier (nearer the target) first, then the
  /// later inserted (deterministic), which walks plateaus of free slices depth first.
  bool operator>(const Entry& o) const {
    if (priority != o.priority) return priority > o.priority;
    if (cost != o.cost) return cost < o.cost;
    return order < o.order;
  }
};

/// The step of `move` into `to` (a permute's target state).
Step step_of(const Frame& frame, const Move& move, const State& to) {
  switch (move.kind) {
    case Move::Kind::slice: return Step(AllSlice{move.dim, refs_of(move.axes, frame.src_mesh)});
    case Move::Kind::gather: return Step(AllGather{move.dim, refs_of(move.axes, frame.src_mesh)});
    case Move::Kind::all_to_all: return Step(AllToAll{move.dim, move.dst, refs_of(move.axes, frame.src_mesh)});
    case Move::Kind::reduce_scatter: return Step(ReduceScatter{move.dim, refs_of(move.axes, frame.src_mesh)});
    case Move::Kind::all_reduce: return Step(AllReduce{refs_of(move.axes, frame.src_mesh)});
    case Move::Kind::permute: break;
  }
  CollectivePermute p{type_of(frame, to), std::nullopt};
  if (frame.mesh_change) p.to_mesh = frame.dst_mesh;
  return Step(std::move(p));
}

/// The steps from the source to node `goal`, consecutive slices of one dim fused.
std::vector<Step> steps_to(const Frame& frame, const std::vector<Node>& nodes, int goal) {
  std::vector<int> path;
  for (int n = goal; nodes[static_cast<std::size_t>(n)].parent >= 0; n = nodes[static_cast<std::size_t>(n)].parent)
    path.push_back(n);
  std::reverse(path.begin(), path.end());
  std::vector<Step> steps;
  for (std::size_t i = 0; i < path.size(); ++i) {
    const Node& node = nodes[static_cast<std::size_t>(path[i])];
    Move move = node.move;
    while (move.kind == Move::Kind::slice && i + 1 < path.size()) {
      const Move& next = nodes[static_cast<std::size_t>(path[i + 1])].move;
      if (next.kind != Move::Kind::slice || next.dim != move.dim) break;
      move.axes.insert(move.axes.end(), next.axes.begin(), next.axes.end());
      ++i;
    }
    steps.push_back(step_of(frame, move, nodes[static_cast<std::size_t>(path[i])].state));
  }
  return steps;
}

}  // namespace

Result<OptimalPlan> optimal_plan(const CostModel& model, const Mesh& src_mesh, const DistType& src,
                                 const Mesh& dst_mesh, const DistType& dst, const OptimalOptions& options) {
  if (auto problem = input_problem(model, src_mesh, src, dst_mesh, dst)) return *problem;
  const BigInt src_bytes = local_bytes(src), dst_bytes = local_bytes(dst);
  const BigInt bound = options.budget_bytes ? BigInt(*options.budget_bytes) : std::max(src_bytes, dst_bytes);
  if (bound < std::max(src_bytes, dst_bytes))
    return Error{Error::Kind::no_plan,
                 "no plan within the budget of " + to_decimal(bound) + " bytes per device: the source holds " +
                     to_decimal(src_bytes) + " and the target " + to_decimal(dst_bytes) + " bytes per device",
                 Error::npos};
  const int64_t budget = bound >= kMaxArrayBytes ? INT64_MAX : bound.convert_to<int64_t>();
  Frame frame = make_frame(model, src_mesh, src, dst_mesh, dst, budget);
  frame.permute_hints = greedy_permutes(src_mesh, src, dst_mesh, dst, options.budget_bytes);

  std::vector<Node> nodes;
  std::unordered_map<State, int, StateHash> index;
  std::priority_queue<Entry, std::vector<Entry>, std::greater<>> open;
  int64_t order = 0, expanded = 0;
  nodes.push_back(Node{state_of(canonical(src, src_mesh), src_mesh, false), 0, 0, -1, {}});
  nodes[0].bound = lower_bound_us(frame, nodes[0].state);
  index.emplace(nodes[0].state, 0);
  open.push(Entry{nodes[0].bound, order++, 0, 0});
  std::vector<Edge> edges;
  while (!open.empty()) {
    const Entry top = open.top();
    open.pop();
    const auto at = static_cast<std::size_t>(top.node);
    if (top.cost > nodes[at].cost) continue;  // a cheaper path reached it since
    const State& s = nodes[at].state;
    const bool done = s.dims == frame.target.dims && s.reduce == frame.target.reduce &&
                      (s.permuted || !frame.mesh_change);
    if (done) {
      Plan plan{src_mesh, src, steps_to(frame, nodes, top.node), dst};
      auto cost = plan_cost(model, plan);
      if (!cost) return Error{Error::Kind::runtime, "internal: the optimal plan does not type-check: " +
                                                        cost.error().to_string(), Error::npos};
      // The search prices states its own way; the plan's price must agree.
      if (std::abs(cost->time_us - top.cost) > 1e-9 * std::max(1.0, top.cost))
        return Error{Error::Kind::runtime,
                     "internal: the search priced the plan at " + std::to_string(top.cost) + " us, the model at " +
                         std::to_string(cost->time_us) + " us",
                     Error::npos};
      return OptimalPlan{std::move(plan), cost->time_us, expanded, static_cast<int64_t>(nodes.size())};
    }
    if (++expanded > options.max_expanded)
      return Error{Error::Kind::runtime,
                   "the optimal search stopped after expanding " + std::to_string(options.max_expanded) + " states",
                   Error::npos};
    edges.clear();
    append_collectives(frame, s, edges);
    append_permutes(frame, s, edges);
    const double base = nodes[at].cost;
    for (auto& e : edges) {
      const double cost = base + e.time_us;
      auto [it, fresh] = index.try_emplace(e.to, static_cast<int>(nodes.size()));
      if (fresh) {
        const double bound = lower_bound_us(frame, e.to);
        nodes.push_back(Node{std::move(e.to), cost, bound, top.node, std::move(e.move)});
      } else {
        Node& old = nodes[static_cast<std::size_t>(it->second)];
        if (!(cost < old.cost - 1e-12 * std::max(1.0, old.cost))) continue;
        old.cost = cost;
        old.parent = top.node;
        old.move = std::move(e.move);
      }
      open.push(Entry{cost + nodes[static_cast<std::size_t>(it->second)].bound, order++, it->second, cost});
    }
  }
  return Error{Error::Kind::no_plan,
               "no plan from " + to_string(src) + " to " + to_string(dst) + " fits the budget of " +
                   to_decimal(bound) + " bytes per device in the step set",
               Error::npos};
}

}  // namespace redist
