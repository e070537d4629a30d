#pragma once
// Benchmark data: every element holds the low 32 bits of its global row-major index
// (opaque to the plans that only move bytes), so each method's result can be checked
// element by element. With pending reductions the elements are s32: the device at
// reduction position 0 holds the value, the others the op's identity (0, INT32_MIN,
// INT32_MAX), so every reduction gives the value exactly.

#include <cstdint>
#include <string>

#include "redist/backends/mpi/kernels.hpp"
#include "redist/plan/typing.hpp"

namespace redist::mpi::bench {

/// The shard of `device` under `state`, 4-byte elements filled with their indices (the
/// identity at reduction positions other than 0).
kernels::Buffer fill_shard(const TypedState& state, int64_t device);

/// "" when `shard` is exactly what `device` holds under `state` (with pending
/// reductions: the value at reduction position 0, the identity elsewhere, as the data
/// above reduces to), else the first difference.
std::string check_shard(const kernels::Buffer& shard, const TypedState& state, int64_t device);

}  // namespace redist::mpi::bench
