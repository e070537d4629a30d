#pragma once
// Resident memory of this process (Linux /proc), with a resettable high-water mark.

#include <cstdint>

namespace redist::mpi::bench {

/// Makes large allocations always come from (and return to) the kernel, so freed shards
/// leave the resident set at once and each method's peak is its own.
void use_mmap_for_large_buffers();
/// Resets the resident high-water mark (VmHWM) to the current resident set.
void reset_peak_resident();
/// The resident high-water mark in bytes since the last reset (VmHWM).
int64_t peak_resident_bytes();
/// The resident set in bytes now (VmRSS).
int64_t resident_bytes();

}  // namespace redist::mpi::bench
