// Test data from the reference semantics: element_value and distribute.

#include "buffer_ops.hpp"
#include "redist/core/semantics.hpp"
#include "redist/verify/interpreter.hpp"

namespace redist {

int64_t element_value(const DistType& type, std::span<const int64_t> index) {
  int64_t linear = 0;
  for (std::size_t i = 0; i < index.size(); ++i) linear = linear * type.dims[i].global + index[i];
  return linear;
}

namespace {

/// The share of `value` held by the device at reduction position `r` of `reductions`
/// positions, such that `op` over all shares gives back `value`:
///   sum: r > 0 holds r * kSummandUnit, r = 0 the rest (so a dropped or doubled
///        summand changes the sum);
///   max: r = 0 holds the value, r > 0 holds value - r * kSummandUnit (smaller);
///   min: r = 0 holds the value, r > 0 holds value + r * kSummandUnit (larger);
/// so for max/min the result is the value exactly when position 0 takes part.
/// Arithmetic wraps modulo 2^64 like interp::combine.
int64_t share(ReduceOp op, int64_t value, int64_t r, int64_t reductions) {
  const auto u = static_cast<uint64_t>(kSummandUnit);
  const auto v = static_cast<uint64_t>(value);
  const auto ur = static_cast<uint64_t>(r);
  switch (op) {
    case ReduceOp::sum: {
      if (r > 0) return static_cast<int64_t>(ur * u);
      const auto n = static_cast<uint64_t>(reductions);
      return static_cast<int64_t>(v - u * (n * (n - 1) / 2));
    }
    case ReduceOp::max:
      return static_cast<int64_t>(v - ur * u);
    case ReduceOp::min:
      return static_cast<int64_t>(v + ur * u);
  }
  return value;
}

}  // namespace

int64_t buffer_slots(const Mesh& mesh) { return mesh.id_bound(); }

MeshData distribute(const Mesh& mesh, const DistType& type) {
  const auto shape = local_shape(type);
  const int64_t count = interp::element_count(shape);
  const int64_t reductions = product_of_sizes(type.reduce_axes);
  // Reduction positions follow the canonical (mesh) order of the reduction axes, so
  // sum{y,x} and sum{x,y}, which denote the same array, are distributed alike.
  const auto reduction_order = canonical(type, mesh).reduce_axes;
  MeshData data(static_cast<std::size_t>(buffer_slots(mesh)));  // devices outside the mesh: empty
  for (int64_t p = 0; p < mesh.num_devices(); ++p) {
    const int64_t d = mesh.device_at(p);
    const Coords coords = mesh.coords_of_position(p);
    const int64_t r = mixed_radix_index(mesh, coords, reduction_order);
    LocalBuffer& buffer = data[static_cast<std::size_t>(d)];
    buffer.shape = shape;
    buffer.values.reserve(static_cast<std::size_t>(count));
    std::vector<int64_t> local(shape.size(), 0);
    for (int64_t k = 0; k < count; ++k, interp::next_index(local, shape)) {
      const auto global = local_to_global(mesh, type, coords, local);
      buffer.values.push_back(global ? share(type.reduce_op, element_value(type, *global), r, reductions)
                                     : kPadding);
    }
  }
  return data;
}

}  // namespace redist
