// Lowering of typed steps to explicit device groups and permute pairs.

#include "redist/plan/lowering.hpp"

#include "redist/core/semantics.hpp"
#include "redist/plan/lowered.hpp"

namespace redist {

DeviceGroups device_groups(const Mesh& mesh, std::span<const AxisRef> axes) {
  DeviceGroups groups;
  for (int64_t position = 0; position < mesh.num_devices(); ++position) {
    const Coords coords = mesh.coords_of_position(position);
    // The member with index 0 has the group's smallest position: it starts the group.
    if (mixed_radix_index(mesh, coords, axes) != 0) continue;
    std::vector<int64_t> group;
    for (int64_t member : group_positions(mesh, coords, axes)) group.push_back(mesh.device_at(member));
    groups.push_back(std::move(group));
  }
  return groups;
}

DevicePairs permute_pairs(const TypedState& before, const TypedState& after) {
  return pair_table(LoweredPermute{permute_moves(before, after), std::nullopt}, before.mesh, after.mesh);
}

namespace {

/// The axes a step's groups run over; nullopt for a permute or a transfer, which have
/// no groups.
struct GroupAxes {
  std::optional<std::vector<AxisRef>> operator()(const CollectivePermute&) const { return std::nullopt; }
  std::optional<std::vector<AxisRef>> operator()(const Transfer&) const { return std::nullopt; }
  std::optional<std::vector<AxisRef>> operator()(const AllToAll& op) const { return op.axes(); }
  std::optional<std::vector<AxisRef>> operator()(const AllGather& op) const { return op.axes(); }
  template <class Op>
  std::optional<std::vector<AxisRef>> operator()(const Op& op) const {
    return op.axes;
  }
};

}  // namespace

DeviceGroups step_groups(const TypedState& before, const Step& step) {
  if (step.groups) return *step.groups;
  const auto axes = std::visit(GroupAxes{}, step.op);
  if (!axes) return {};
  return device_groups(before.mesh, *axes);
}

}  // namespace redist
