// Resident memory from /proc/self/status; the high-water mark is reset through
// /proc/self/clear_refs ("5", Linux 4.0 and later).

#include "memory.hpp"

#include <malloc.h>

#include <fstream>
#include <string>

namespace redist::mpi::bench {

namespace {

/// The value in kB of the line `key` of /proc/self/status, in bytes; -1 when absent.
int64_t status_bytes(const std::string& key) {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind(key, 0) == 0) return std::stoll(line.substr(key.size())) * 1024;
  return -1;
}

}  // namespace

void use_mmap_for_large_buffers() { mallopt(M_MMAP_THRESHOLD, 1 << 20); }

void reset_peak_resident() { std::ofstream("/proc/self/clear_refs") << "5"; }

int64_t peak_resident_bytes() { return status_bytes("VmHWM:"); }

int64_t resident_bytes() { return status_bytes("VmRSS:"); }

}  // namespace redist::mpi::bench
