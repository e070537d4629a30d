#pragma once
// Benchmark data: every element holds the low 32 bits of its global row-major index
// (opaque to the plans, which only move bytes), so each method's result can be checked
// element by element.

#include <cstdint>
#include <string>

#include "redist/backends/mpi/kernels.hpp"
#include "redist/plan/typing.hpp"

namespace redist::mpi::bench {

/// The shard of `device` under `state`, 4-byte elements filled with their indices.
kernels::Buffer fill_shard(const TypedState& state, int64_t device);

/// "" when `shard` is exactly what `device` holds under `state`, else the first
/// difference.
std::string check_shard(const kernels::Buffer& shard, const TypedState& state, int64_t device);

}  // namespace redist::mpi::bench
