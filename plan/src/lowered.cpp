// The lowered form of typed steps and its materialization as explicit tables.

#include "redist/plan/lowered.hpp"

#include <algorithm>

#include "redist/core/semantics.hpp"
#include "redist/plan/lowering.hpp"

namespace redist {

namespace {

/// Returns `groups` with its groups in order of their first member.
DeviceGroups by_first_member(DeviceGroups groups) {
  std::sort(groups.begin(), groups.end());
  return groups;
}

/// The group spec over `axes`, with the step's explicit groups when they are not the
/// groups `axes` define. A regular table (XLA's iota replica groups: the same groups,
/// members in the same order, groups listed in any order) is the symbolic form, which
/// the checker encodes without a table at any device count; the comparison here is the
/// one trusted step of that (docs/checker.md "Explicit tables").
GroupSpec group_spec(const Mesh& mesh, const std::vector<AxisRef>& axes, const Step& step) {
  std::optional<DeviceGroups> table = step.groups;
  if (table && by_first_member(*table) == by_first_member(device_groups(mesh, axes))) table.reset();
  return GroupSpec{axes, std::move(table), product_of_sizes(axes)};
}

/// The step's explicit pairs unless they are the ones the types define (in any order).
std::optional<DevicePairs> irregular_pairs(const LoweredPermute& symbolic, const TypedState& before,
                                           const TypedState& after, const Step& step) {
  if (!step.pairs) return std::nullopt;
  DevicePairs given = *step.pairs, regular = pair_table(symbolic, before.mesh, after.mesh);
  std::sort(given.begin(), given.end());
  std::sort(regular.begin(), regular.end());
  if (given == regular) return std::nullopt;
  return step.pairs;
}


/// Lowers each step kind given the states around it.
struct Lowerer {
  const TypedState& before;
  const TypedState& after;
  const Step& step;

  LoweredOp operator()(const AllSlice& s) const {
    const int64_t chunk = local_size(after.type.dims[static_cast<std::size_t>(s.dim)]);
    return LoweredSlice{s.dim, group_spec(before.mesh, s.axes, step), chunk, std::nullopt};
  }
  LoweredOp operator()(const AllGather& s) const {
    LoweredGather gather{{}, group_spec(before.mesh, s.axes(), step)};
    for (const auto& p : s.parts) gather.parts.push_back({p.dim, product_of_sizes(p.axes), p.axes});
    return gather;
  }
  LoweredOp operator()(const AllToAll& s) const {
    LoweredAllToAll a2a{{}, group_spec(before.mesh, s.axes(), step)};
    for (const auto& m : s.moves) a2a.parts.push_back({m.dst_dim, m.src_dim, product_of_sizes(m.axes), m.axes});
    return a2a;
  }
  LoweredOp operator()(const CollectivePermute&) const {
    LoweredPermute symbolic{permute_moves(before, after), std::nullopt};
    symbolic.table = irregular_pairs(symbolic, before, after, step);
    return symbolic;
  }
  LoweredOp operator()(const ReduceScatter& s) const {
    return LoweredReduceScatter{s.dim, group_spec(before.mesh, s.axes, step), before.type.reduce_op};
  }
  LoweredOp operator()(const AllReduce& s) const {
    return LoweredAllReduce{group_spec(before.mesh, s.axes, step), before.type.reduce_op};
  }
  LoweredOp operator()(const AddPending& s) const {
    return LoweredAddPending{GroupSpec{s.axes, std::nullopt, product_of_sizes(s.axes)}, s.op};
  }
  LoweredOp operator()(const Transfer& s) const {
    if (s.table) return LoweredTransfer{*s.table, false};
    const bool one_holder = free_axes(before.mesh, before.type).empty() && before.type.reduce_axes.empty() &&
                            !has_padding(before.type) && !has_padding(after.type);
    return LoweredTransfer{transfer_table(before, after), one_holder};
  }
};

/// The moves of the permute from `before` to `after`, as permute_pairs() chooses its
/// bijection: each dim's source axes take the target's block index of that dim, and
/// the factors free only in the source take the target's factors free only in it.
}  // namespace

std::vector<PermuteMove> permute_moves(const TypedState& before, const TypedState& after) {
  std::vector<PermuteMove> moves;
  for (std::size_t d = 0; d < before.type.rank(); ++d)
    if (!before.type.dims[d].axes.empty()) moves.push_back({before.type.dims[d].axes, after.type.dims[d].axes});
  const auto src_free = free_axes(before.mesh, before.type);
  const auto dst_free = free_axes(after.mesh, after.type);
  if (auto src_other = axes_minus(src_free, dst_free); !src_other.empty())
    moves.push_back({std::move(src_other), axes_minus(dst_free, src_free)});
  return moves;
}

LoweredStep lower_step(const TypedState& before, const TypedState& after, const Step& step) {
  return LoweredStep{std::visit(Lowerer{before, after, step}, step.op), before, after};
}

Result<LoweredPlan> lower(const Plan& plan) {
  auto states = type_plan(plan);
  if (!states) return states.error();
  LoweredPlan lowered{TypedState{plan.mesh, plan.source}, {}};
  const TypedState* before = &lowered.source;
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    lowered.steps.push_back(lower_step(*before, (*states)[k], plan.steps[k]));
    before = &(*states)[k];
  }
  return lowered;
}

DeviceGroups group_table(const GroupSpec& spec, const Mesh& mesh) {
  if (spec.table) return *spec.table;
  return device_groups(mesh, spec.axes);
}

std::vector<int64_t> slice_offsets(const LoweredSlice& slice, const Mesh& mesh) {
  if (slice.offsets) return *slice.offsets;
  std::vector<int64_t> offsets(static_cast<std::size_t>(mesh.id_bound()), 0);  // by physical id
  for (const auto& group : group_table(slice.group, mesh))
    for (std::size_t i = 0; i < group.size(); ++i)
      offsets[static_cast<std::size_t>(group[i])] = static_cast<int64_t>(i) * slice.chunk;
  return offsets;
}

DevicePairs pair_table(const LoweredPermute& permute, const Mesh& source_mesh, const Mesh& target_mesh) {
  if (permute.table) return *permute.table;
  DevicePairs pairs;
  for (int64_t target = 0; target < target_mesh.num_devices(); ++target) {
    const Coords target_coords = target_mesh.coords_of_device(target);
    Coords source = target_coords;
    for (const auto& move : permute.moves) {
      int64_t value = mixed_radix_index(target_mesh, target_coords, move.target_axes);
      for (auto it = move.source_axes.rbegin(); it != move.source_axes.rend(); ++it) {
        set_axis_coordinate(source_mesh, source, *it, value % it->size);
        value /= it->size;
      }
    }
    pairs.emplace_back(source_mesh.device_at_coords(source), target);
  }
  return pairs;
}

std::string_view lowered_name(const LoweredOp& op) {
  static constexpr std::string_view names[] = {"all_slice",         "all_gather",     "all_to_all",
                                               "collective_permute", "reduce_scatter", "all_reduce",
                                               "add_pending",       "transfer"};
  return names[op.index()];
}

}  // namespace redist
