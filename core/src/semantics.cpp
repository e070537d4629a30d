#include "redist/core/semantics.hpp"

#include <algorithm>

namespace redist {
namespace {

/// Size of the factors of the axis below `axis` (the stride of its coordinate).
int64_t minor_stride(const Mesh& mesh, std::size_t index, const AxisRef& axis) {
  return mesh.axis_size(index) / (axis.pre * axis.size);
}

}  // namespace

int64_t axis_coordinate(const Mesh& mesh, std::span<const int64_t> coords, const AxisRef& axis) {
  const std::size_t index = *mesh.axis_index(axis.name);
  return coords[index] / minor_stride(mesh, index, axis) % axis.size;
}

void set_axis_coordinate(const Mesh& mesh, Coords& coords, const AxisRef& axis, int64_t value) {
  const std::size_t index = *mesh.axis_index(axis.name);
  const int64_t stride = minor_stride(mesh, index, axis);
  const int64_t old = coords[index] / stride % axis.size;
  coords[index] += (value - old) * stride;
}

int64_t mixed_radix_index(const Mesh& mesh, std::span<const int64_t> coords,
                          std::span<const AxisRef> axes) {
  int64_t index = 0;
  for (const auto& a : axes) index = index * a.size + axis_coordinate(mesh, coords, a);
  return index;
}

int64_t block_index(const Mesh& mesh, std::span<const int64_t> coords, const Dim& dim) {
  return mixed_radix_index(mesh, coords, dim.axes);
}

std::vector<DimBox> shard_box(const Mesh& mesh, const DistType& type,
                              std::span<const int64_t> coords) {
  std::vector<DimBox> boxes;
  for (const auto& dim : type.dims) {
    const int64_t local = local_size(dim);
    // block * local cannot overflow: block < tiles and tiles * local < global + tiles.
    const int64_t start = block_index(mesh, coords, dim) * local;
    const int64_t size = start >= dim.global ? 0 : std::min(local, dim.global - start);
    boxes.push_back({std::min(start, dim.global), size, local - size});
  }
  return boxes;
}

std::optional<std::vector<int64_t>> local_to_global(const Mesh& mesh, const DistType& type,
                                                    std::span<const int64_t> coords,
                                                    std::span<const int64_t> local) {
  std::vector<int64_t> global;
  for (std::size_t i = 0; i < type.dims.size(); ++i) {
    const int64_t g = block_index(mesh, coords, type.dims[i]) * local_size(type.dims[i]) + local[i];
    if (g >= type.dims[i].global) return std::nullopt;
    global.push_back(g);
  }
  return global;
}

std::vector<int64_t> replication_group(const Mesh& mesh, const DistType& type,
                                       std::span<const int64_t> coords) {
  std::vector<int64_t> blocks;
  for (const auto& d : type.dims) blocks.push_back(block_index(mesh, coords, d));
  const int64_t reduction = mixed_radix_index(mesh, coords, type.reduce_axes);
  std::vector<int64_t> devices;
  for (int64_t p = 0; p < mesh.num_devices(); ++p) {
    const Coords other = mesh.coords_of_position(p);
    bool same = mixed_radix_index(mesh, other, type.reduce_axes) == reduction;
    for (std::size_t i = 0; same && i < type.dims.size(); ++i)
      same = block_index(mesh, other, type.dims[i]) == blocks[i];
    if (same) devices.push_back(mesh.device_at(p));
  }
  std::sort(devices.begin(), devices.end());
  return devices;
}

std::vector<int64_t> group_positions(const Mesh& mesh, std::span<const int64_t> coords,
                                     std::span<const AxisRef> axes) {
  const int64_t size = product_of_sizes(axes);
  std::vector<int64_t> positions;
  positions.reserve(size);
  Coords member(coords.begin(), coords.end());
  for (int64_t i = 0; i < size; ++i) {
    int64_t rest = i;
    for (std::size_t k = axes.size(); k-- > 0;) {
      set_axis_coordinate(mesh, member, axes[k], rest % axes[k].size);
      rest /= axes[k].size;
    }
    positions.push_back(mesh.position_of_coords(member));
  }
  return positions;
}

}  // namespace redist
