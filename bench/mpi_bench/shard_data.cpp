// Filling and checking benchmark shards with an odometer over the local shape.

#include "shard_data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "redist/core/semantics.hpp"

namespace redist::mpi::bench {

namespace {

/// Calls `visit(k, linear)` for each real local element k of `device`'s shard in
/// row-major order, with the low 32 bits of its global row-major index; padding (the
/// local indices past the shard's box on a non-divisible dim) is skipped.
template <class Visit>
void for_each_index(const TypedState& state, int64_t device, Visit visit) {
  const auto box = shard_box(state.mesh, state.type, state.mesh.coords_of_device(device));
  const auto shape = local_shape(state.type);
  const std::size_t rank = shape.size();
  std::vector<int64_t> stride(rank, 1);
  for (std::size_t d = rank; d-- > 1;) stride[d - 1] = stride[d] * state.type.dims[d].global;
  int64_t count = 1;
  for (int64_t s : shape) count *= s;
  std::vector<int64_t> local(rank, 0);
  int64_t base = 0;  // global linear index of the row start
  for (std::size_t d = 0; d < rank; ++d) base += box[d].start * stride[d];
  const int64_t row = shape[rank - 1];
  for (int64_t k = 0; k < count; k += row) {
    int64_t linear = base;
    bool real = true;
    for (std::size_t d = 0; d + 1 < rank; ++d) {
      linear += local[d] * stride[d];
      real = real && local[d] < box[d].size;
    }
    if (real)
      for (int64_t i = 0; i < box[rank - 1].size; ++i) visit(k + i, static_cast<uint32_t>(linear + i));
    for (std::size_t d = rank - 1; d-- > 0;) {
      if (++local[d] < shape[d]) break;
      local[d] = 0;
    }
  }
}

/// The s32 identity of the pending reduction of `state`, as 32 bits, when `device` is
/// not at reduction position 0; nullopt when it holds values.
std::optional<uint32_t> identity_at(const TypedState& state, int64_t device) {
  const auto& axes = state.type.reduce_axes;
  if (axes.empty() || mixed_radix_index(state.mesh, state.mesh.coords_of_device(device), axes) == 0)
    return std::nullopt;
  switch (state.type.reduce_op) {
    case ReduceOp::max: return static_cast<uint32_t>(std::numeric_limits<int32_t>::min());
    case ReduceOp::min: return static_cast<uint32_t>(std::numeric_limits<int32_t>::max());
    case ReduceOp::sum: break;
  }
  return 0u;
}

}  // namespace

kernels::Buffer fill_shard(const TypedState& state, int64_t device) {
  int64_t count = 1;
  for (int64_t s : local_shape(state.type)) count *= s;
  kernels::Buffer buffer(static_cast<std::size_t>(count) * sizeof(uint32_t));
  auto* values = reinterpret_cast<uint32_t*>(buffer.data());
  std::fill(values, values + count, 0u);  // padding
  const auto identity = identity_at(state, device);
  for_each_index(state, device, [&](int64_t k, uint32_t value) { values[k] = identity.value_or(value); });
  return buffer;
}

std::string check_shard(const kernels::Buffer& shard, const TypedState& state, int64_t device) {
  const auto* values = reinterpret_cast<const uint32_t*>(shard.data());
  const auto identity = identity_at(state, device);
  std::string first;
  for_each_index(state, device, [&](int64_t k, uint32_t index_value) {
    const uint32_t value = identity.value_or(index_value);
    if (first.empty() && values[k] != value)
      first = fmt::format("element {}: expected {}, got {}", k, value, values[k]);
  });
  return first;
}

}  // namespace redist::mpi::bench
