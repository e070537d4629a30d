// Checking concrete data against the reference semantics: compare and Mismatch.

#include <string>

#include <fmt/format.h>

#include "buffer_ops.hpp"
#include "redist/core/semantics.hpp"
#include "redist/verify/interpreter.hpp"

namespace redist {

std::string Mismatch::to_string() const {
  if (device < 0)
    return fmt::format("data holds {} device buffers but the mesh has {} devices", actual, expected);
  if (local_index.empty())
    return fmt::format(
        "device {}: buffer does not have the type's local shape (the type has {} elements per device, the buffer "
        "holds {})",
        device, expected, actual);
  return fmt::format("device {} at local index [{}]: expected {}, got {}", device, fmt::join(local_index, ", "),
                     expected, actual);
}

namespace {

/// A wrong number of buffers (as device -1, expected/actual the device counts) or the
/// first device whose buffer does not have `type`'s local shape (empty local index,
/// expected/actual the element counts); nullopt when all fit.
std::optional<Mismatch> shape_mismatch(const Mesh& mesh, const DistType& type, const MeshData& data) {
  if (static_cast<int64_t>(data.size()) < buffer_slots(mesh))
    return Mismatch{-1, {}, buffer_slots(mesh), static_cast<int64_t>(data.size())};
  const auto shape = local_shape(type);
  const int64_t count = interp::element_count(shape);
  for (int64_t d : mesh.device_ids()) {
    const auto& buffer = data[static_cast<std::size_t>(d)];
    const auto held = static_cast<int64_t>(buffer.values.size());
    if (buffer.shape != shape || held != count) return Mismatch{d, {}, count, held};
  }
  return std::nullopt;
}

/// Physical devices of the reduction group of the device at `coords`, in reduction
/// order: just that device when `type` has no pending reduction.
std::vector<int64_t> reduction_group(const Mesh& mesh, const DistType& type, const Coords& coords) {
  if (type.reduce_axes.empty()) return {mesh.device_at_coords(coords)};
  std::vector<int64_t> devices = group_positions(mesh, coords, type.reduce_axes);
  for (int64_t& p : devices) p = mesh.device_at(p);
  return devices;
}

}  // namespace

// With a pending reduction each reduction group is reduced by the type's op and checked
// once; a Mismatch then names the group's member at reduction position 0 and `actual` is
// the reduced value.
std::optional<Mismatch> compare(const Mesh& mesh, const DistType& type, const MeshData& data) {
  if (auto bad = shape_mismatch(mesh, type, data)) return bad;
  const auto shape = local_shape(type);
  const int64_t count = interp::element_count(shape);
  for (int64_t p = 0; p < mesh.num_devices(); ++p) {
    const int64_t d = mesh.device_at(p);
    const Coords coords = mesh.coords_of_position(p);
    if (mixed_radix_index(mesh, coords, type.reduce_axes) != 0) continue;
    const auto group = reduction_group(mesh, type, coords);
    std::vector<int64_t> local(shape.size(), 0);
    for (int64_t k = 0; k < count; ++k, interp::next_index(local, shape)) {
      const auto global = local_to_global(mesh, type, coords, local);
      if (!global) continue;
      const auto at = static_cast<std::size_t>(k);
      int64_t actual = data[static_cast<std::size_t>(group.front())].values[at];
      for (std::size_t m = 1; m < group.size(); ++m)
        actual = interp::combine(type.reduce_op, actual, data[static_cast<std::size_t>(group[m])].values[at]);
      const int64_t expected = element_value(type, *global);
      if (actual != expected) return Mismatch{d, local, expected, actual};
    }
  }
  return std::nullopt;
}

}  // namespace redist
