// Lowering of typed steps to explicit device groups and permute pairs.

#include "redist/synth/lowering.hpp"

#include "redist/core/semantics.hpp"

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
  DevicePairs pairs;
  const Mesh& src_mesh = before.mesh;
  const Mesh& dst_mesh = after.mesh;
  for (int64_t target = 0; target < dst_mesh.num_devices(); ++target) {
    const Coords target_coords = dst_mesh.coords_of_device(target);
    // Start from the target's own coordinates on the source mesh, so the free
    // (replicated) factors keep their values and data stays in place when it can.
    Coords source = src_mesh.coords_of_device(target);
    for (std::size_t d = 0; d < after.type.rank(); ++d) {
      int64_t block = block_index(dst_mesh, target_coords, after.type.dims[d]);
      const auto& axes = before.type.dims[d].axes;
      for (auto it = axes.rbegin(); it != axes.rend(); ++it) {
        set_axis_coordinate(src_mesh, source, *it, block % it->size);
        block /= it->size;
      }
    }
    for (const auto& r : before.type.reduce_axes)
      set_axis_coordinate(src_mesh, source, r, axis_coordinate(dst_mesh, target_coords, r));
    pairs.emplace_back(src_mesh.device_at_coords(source), target);
  }
  return pairs;
}

namespace {

/// The axes a step's groups run over; nullopt for a permute, which has no groups.
struct GroupAxes {
  std::optional<std::vector<AxisRef>> operator()(const CollectivePermute&) const { return std::nullopt; }
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
