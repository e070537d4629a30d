// Modeled time of steps and plans under the alpha-beta cost model (formulas in
// cost_model.hpp).

#include "redist/synth/cost_model.hpp"

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <functional>
#include <type_traits>

#include "permute_axes.hpp"
#include "redist/plan/figures.hpp"
#include "redist/plan/lowered.hpp"

namespace redist {

namespace {

CollectiveKind kind_of(const StepOp& op) {
  return std::visit(
      [](const auto& s) {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, AllGather>) return CollectiveKind::all_gather;
        else if constexpr (std::is_same_v<T, ReduceScatter>) return CollectiveKind::reduce_scatter;
        else if constexpr (std::is_same_v<T, AllToAll>) return CollectiveKind::all_to_all;
        else if constexpr (std::is_same_v<T, AllReduce>) return CollectiveKind::all_reduce;
        else if constexpr (std::is_same_v<T, CollectivePermute>) return CollectiveKind::permute;
        else if constexpr (std::is_same_v<T, Transfer>) return CollectiveKind::transfer;
        else return CollectiveKind::local;
      },
      op);
}

/// `names` in the mesh's axis order, each once.
std::vector<std::string> in_mesh_order(const Mesh& mesh, const std::vector<std::string>& names) {
  std::vector<std::string> out;
  for (const auto& axis : mesh.axes())
    if (std::find(names.begin(), names.end(), axis.name) != names.end()) out.push_back(axis.name);
  return out;
}

/// The axes on which the two ends of some explicit permute pair of two devices differ:
/// their coordinates on the mesh, or, on a change of device order, on either order (a
/// buffer that moves to another device crosses the links between the two on each order's
/// reading of the axes; comparing one end's old coordinates with the other's new ones
/// would call a move between two devices that trade places free).
std::vector<std::string> pair_axes(const Mesh& source_mesh, const Mesh& target_mesh, const DevicePairs& pairs) {
  const std::size_t rank = source_mesh.rank();
  std::vector<bool> differs(rank, false);
  // Marks the axes on which the row-major positions `s` and `t` differ (minor axis first).
  auto mark = [&](int64_t s, int64_t t) {
    for (std::size_t a = rank; a-- > 0;) {
      const int64_t size = source_mesh.axis_size(a);
      differs[a] = differs[a] || s % size != t % size;
      s /= size;
      t /= size;
    }
  };
  const bool reordered = !(source_mesh == target_mesh);
  for (const auto& [source, target] : pairs) {
    if (source == target) continue;  // the buffer stays on its device
    mark(source_mesh.position_of(source), source_mesh.position_of(target));
    if (reordered) mark(target_mesh.position_of(source), target_mesh.position_of(target));
  }
  std::vector<std::string> names;
  for (std::size_t a = 0; a < rank; ++a)
    if (differs[a]) names.push_back(source_mesh.axes()[a].name);
  return names;
}

/// The axes on which a permute's lowered source and target devices differ.
std::vector<std::string> permute_axes(const TypedState& before, const TypedState& after, const Step& step) {
  if (step.pairs) return pair_axes(before.mesh, after.mesh, *step.pairs);
  std::vector<std::string> names;
  if (!(before.mesh == after.mesh)) {
    // A change of device order runs on every axis (of size 2 or more), unless its lowered
    // pairs keep every buffer in place (same_blocks.hpp).
    if (all_in_place(pair_table(LoweredPermute{permute_moves(before, after), std::nullopt}, before.mesh, after.mesh)))
      return names;
    for (const auto& axis : before.mesh.axes())
      if (axis.size > 1) names.push_back(axis.name);  // no two devices differ on a size-1 axis
    return names;
  }
  // The lowering of the canonical types: a source written with split factors
  // (x:(1)2, x:(2)2) pairs devices as its merged form does. (Typed states are
  // canonical already; only a source as written may need a copy.)
  std::optional<TypedState> own_b, own_a;
  const TypedState& b = is_canonical(before.type, before.mesh)
                            ? before
                            : own_b.emplace(TypedState{before.mesh, canonical(before.type, before.mesh)});
  const TypedState& a = is_canonical(after.type, after.mesh)
                            ? after
                            : own_a.emplace(TypedState{after.mesh, canonical(after.type, after.mesh)});
  // (On the stack: a heap block this large costs the allocator a consolidation.)
  boost::container::small_vector<synth_detail::FactorMove, 4> moves;
  for (const auto& move : permute_moves(b, a))  // lower_step()'s moves (no pairs here)
    moves.push_back({synth_detail::factors_of(move.source_axes, before.mesh),
                     synth_detail::factors_of(move.target_axes, before.mesh)});
  boost::container::small_vector<bool, 8> moved(before.mesh.axes().size(), false);
  synth_detail::mark_moved_axes({moves.data(), moves.size()}, {moved.data(), moved.size()});
  for (std::size_t i = 0; i < moved.size(); ++i)
    if (moved[i]) names.push_back(before.mesh.axes()[i].name);
  return names;
}

/// Calls `f` on each axis a step other than a permute or transfer runs over, in the
/// step's order (without copying them: step_cost() runs on every candidate plan).
template <class F>
void for_each_group_axis(const StepOp& op, F f) {
  std::visit(
      [&](const auto& s) {
        using T = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<T, AllGather>) {
          for (const auto& part : s.parts)
            for (const auto& a : part.axes) f(a);
        } else if constexpr (std::is_same_v<T, AllToAll>) {
          for (const auto& move : s.moves)
            for (const auto& a : move.axes) f(a);
        } else if constexpr (!std::is_same_v<T, CollectivePermute> && !std::is_same_v<T, Transfer>) {
          for (const auto& a : s.axes) f(a);
        }
      },
      op);
}

/// Devices per group of a non-permute step: its first explicit group, else the product
/// of its axes.
int64_t group_size_of(const Step& step) {
  if (step.groups && !step.groups->empty()) return static_cast<int64_t>(step.groups->front().size());
  int64_t size = 1;
  for_each_group_axis(step.op, [&](const AxisRef& a) { size *= a.size; });
  return size;
}

/// fraction * buffer, rounded up, exactly.
BigInt wire_bytes_of(CollectiveKind kind, int64_t g, const BigInt& buffer) {
  if (g <= 1) return 0;
  switch (kind) {
    case CollectiveKind::all_gather:
    case CollectiveKind::reduce_scatter:
    case CollectiveKind::all_to_all: return (buffer * (g - 1) + g - 1) / g;
    case CollectiveKind::all_reduce: return (buffer * 2 * (g - 1) + g - 1) / g;
    case CollectiveKind::permute:
    case CollectiveKind::transfer: return buffer;
    case CollectiveKind::local: return 0;
  }
  return 0;
}

/// The most bytes one device sends or receives in transfer `t` over the sends `counted`
/// accepts.
BigInt busiest(const TypedState& before, const TypedState& after, const Transfer& t,
               const std::function<bool(const TransferBox&)>& counted) {
  const TransferBytes bytes = transfer_bytes(before, after, t, counted);
  BigInt most = 0;
  for (const auto* side : {&bytes.sent, &bytes.received})
    for (const auto& [device, b] : *side) most = std::max(most, b);
  return most;
}

/// A transfer's cost: the transfer.link term over the busiest device's bytes across
/// nodes plus the intra term over its bytes within one (transfer_time_us).
StepCost transfer_cost(const CostModel& model, const TypedState& before, const TypedState& after, const Step& step) {
  StepCost cost;
  cost.kind = CollectiveKind::transfer;
  // The lowering's table made once, not once per tally below.
  Transfer t = std::get<Transfer>(step.op);
  if (!t.table) t.table = transfer_table(before, after);
  auto within = [&model](const TransferBox& box) { return same_node(model, box.from, box.to); };
  cost.wire_bytes = busiest(before, after, t, nullptr);
  // Without nodes every send is across.
  const bool nodes = model.transfer_node_size > 0;
  const BigInt across =
      nodes ? busiest(before, after, t, [&](const TransferBox& box) { return !within(box); }) : cost.wire_bytes;
  const BigInt near = nodes ? busiest(before, after, t, within) : BigInt(0);
  cost.communicates = cost.wire_bytes > 0;
  cost.group_size = cost.communicates ? 2 : 1;
  cost.link = across > 0 ? model.transfer_link : LinkClass::intra;
  cost.time_us = transfer_time_us(model, across.convert_to<double>(), near.convert_to<double>());
  return cost;
}

}  // namespace

bool same_node(const CostModel& model, int64_t a, int64_t b) {
  const int64_t n = model.transfer_node_size;
  return n > 0 && a / n == b / n;
}

double transfer_time_us(const CostModel& model, double across, double within) {
  double time = 0;
  if (across > 0)
    time += collective_time_us(model, CollectiveKind::transfer, 2, across, model.transfer_link);
  if (within > 0) time += collective_time_us(model, CollectiveKind::transfer, 2, within, LinkClass::intra);
  return time;
}

CostModel bytes_model() {
  CostModel model;
  model.intra = model.inter = Link{1, 1e-6};
  return model;
}

double wire_fraction(CollectiveKind kind, int64_t group_size) {
  if (group_size <= 1) return 0;
  const double g = static_cast<double>(group_size);
  switch (kind) {
    case CollectiveKind::all_gather:
    case CollectiveKind::reduce_scatter:
    case CollectiveKind::all_to_all: return (g - 1) / g;
    case CollectiveKind::all_reduce: return 2 * (g - 1) / g;
    case CollectiveKind::permute:
    case CollectiveKind::transfer: return 1;
    case CollectiveKind::local: return 0;
  }
  return 0;
}

double collective_time_us(CollectiveKind kind, int64_t group_size, double buffer_bytes, const Link& link) {
  const double fraction = wire_fraction(kind, group_size);
  if (fraction == 0) return 0;
  // 1 GB/s moves 1e3 bytes per microsecond.
  return link.latency_us + fraction * buffer_bytes / (link.bandwidth_gbps * 1e3);
}

double collective_time_us(const CostModel& model, CollectiveKind kind, int64_t group_size, double buffer_bytes,
                          LinkClass link_class) {
  const Link& link = model.link(link_class);
  return collective_time_us(kind, group_size, buffer_bytes,
                            Link{link.bandwidth_gbps * model.efficiency.of(kind), link.latency_us});
}

double Efficiency::of(CollectiveKind kind) const {
  switch (kind) {
    case CollectiveKind::all_gather: return all_gather;
    case CollectiveKind::reduce_scatter: return reduce_scatter;
    case CollectiveKind::all_to_all: return all_to_all;
    case CollectiveKind::all_reduce: return all_reduce;
    case CollectiveKind::permute: return permute;
    case CollectiveKind::transfer: return transfer;
    case CollectiveKind::local: return 1;
  }
  return 1;
}

std::vector<std::string> step_link_axes(const TypedState& before, const TypedState& after, const Step& step) {
  if (std::holds_alternative<CollectivePermute>(step.op)) return permute_axes(before, after, step);
  if (std::holds_alternative<Transfer>(step.op)) return {};  // links between the meshes (transfer.link)
  std::vector<std::string> names;
  for_each_group_axis(step.op, [&](const AxisRef& a) {
    if (a.size > 1) names.push_back(a.name);
  });
  return in_mesh_order(before.mesh, names);
}

StepCost step_cost(const CostModel& model, const TypedState& before, const TypedState& after, const Step& step) {
  StepCost cost;
  cost.kind = kind_of(step.op);
  if (cost.kind == CollectiveKind::local) return cost;
  if (cost.kind == CollectiveKind::transfer) return transfer_cost(model, before, after, step);
  if (cost.kind == CollectiveKind::permute) {
    const auto axes = permute_axes(before, after, step);
    cost.group_size = axes.empty() ? 1 : 2;
    for (const auto& a : axes) cost.link = slower(cost.link, model.class_of(a));
  } else {
    cost.group_size = group_size_of(step);
    // Members of a group differ along its axes of size 2 or more only: one of size 1
    // (size_one_axes.hpp) carries no traffic, at any class.
    for_each_group_axis(step.op, [&](const AxisRef& a) {
      if (a.size > 1) cost.link = slower(cost.link, model.class_of(a.name));
    });
  }
  const BigInt buffer = std::max(local_bytes(before.type), local_bytes(after.type));
  cost.wire_bytes = wire_bytes_of(cost.kind, cost.group_size, buffer);
  cost.communicates = cost.wire_bytes > 0;
  cost.time_us = collective_time_us(model, cost.kind, cost.group_size, buffer.convert_to<double>(), cost.link);
  return cost;
}

Result<PlanCost> plan_cost(const CostModel& model, const Plan& plan) {
  auto states = type_plan(plan);
  if (!states) return states.error();
  PlanCost cost;
  TypedState before{plan.mesh, plan.source};
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    StepCost step = step_cost(model, before, (*states)[k], plan.steps[k]);
    cost.time_us += step.time_us;
    cost.wire_bytes += step.wire_bytes;
    cost.collectives += step.communicates;
    cost.steps.push_back(std::move(step));
    before = (*states)[k];
  }
  return cost;
}

}  // namespace redist
