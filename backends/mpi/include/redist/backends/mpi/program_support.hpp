#pragma once
// Test-data helpers of the programs `redist emit --target mpi` writes: fill a rank's
// source shard with distinct int64 values derived from global indices, check every
// element of its target shard, and print one result line. Needs only MPI, the standard
// library and kernels.hpp (pasted before this text in emitted programs).

#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <span>
#include <string>
#include <vector>

#include "redist/backends/mpi/kernels.hpp"

namespace redist::mpi::program {

/// Where one rank's shard lies in the global array: per dim, the global size, the local
/// size and the global index of local index 0.
struct ShardLayout {
  std::span<const int64_t> global;
  std::span<const int64_t> shape;
  std::span<const int64_t> start;
};

/// Value standing in padding positions.
inline constexpr int64_t kPadding = -1;
/// Step between the summands of a pending reduction (as in the interpreter's test data).
inline constexpr uint64_t kSummandUnit = uint64_t{1} << 32;

enum class Reduction { sum, max, min };

/// Calls `visit(linear local index, global index or nullptr in padding)` for every
/// element of the shard, in row-major order.
template <class Visit>
void for_each_element(const ShardLayout& layout, Visit visit) {
  const std::size_t rank = layout.shape.size();
  std::vector<int64_t> local(rank, 0), global(rank, 0);
  int64_t count = 1;
  for (int64_t s : layout.shape) count *= s;
  for (int64_t k = 0; k < count; ++k) {
    bool padding = false;
    for (std::size_t d = 0; d < rank; ++d) {
      global[d] = layout.start[d] + local[d];
      padding = padding || global[d] >= layout.global[d];
    }
    visit(k, padding ? nullptr : global.data());
    for (std::size_t d = rank; d-- > 0;) {
      if (++local[d] < layout.shape[d]) break;
      local[d] = 0;
    }
  }
}

/// The value of the global element at `index`: its row-major linear index, so every
/// element is distinct.
inline int64_t element_value(const ShardLayout& layout, const int64_t* index) {
  int64_t linear = 0;
  for (std::size_t d = 0; d < layout.global.size(); ++d) linear = linear * layout.global[d] + index[d];
  return linear;
}

/// The share of `value` held at position `r` of `n` reduction positions such that
/// reducing all shares with `op` gives `value` back, and a dropped or doubled summand
/// changes the result (the interpreter's scheme; arithmetic wraps modulo 2^64).
inline int64_t share(Reduction op, int64_t value, int64_t r, int64_t n) {
  const auto v = static_cast<uint64_t>(value);
  const auto ur = static_cast<uint64_t>(r);
  switch (op) {
    case Reduction::sum:
      if (r > 0) return static_cast<int64_t>(ur * kSummandUnit);
      return static_cast<int64_t>(v - kSummandUnit * (static_cast<uint64_t>(n) * static_cast<uint64_t>(n - 1) / 2));
    case Reduction::max: return static_cast<int64_t>(v - ur * kSummandUnit);
    case Reduction::min: return static_cast<int64_t>(v + ur * kSummandUnit);
  }
  return value;
}

/// The source shard of a rank at reduction position `r` of `n` (n = 1 without a pending
/// reduction): int64 elements, padding set to kPadding.
inline kernels::Buffer fill_source(const ShardLayout& layout, Reduction op, int64_t r, int64_t n) {
  int64_t count = 1;
  for (int64_t s : layout.shape) count *= s;
  kernels::Buffer buffer(static_cast<std::size_t>(count) * sizeof(int64_t));
  auto* values = reinterpret_cast<int64_t*>(buffer.data());
  for_each_element(layout, [&](int64_t k, const int64_t* global) {
    values[k] = global ? share(op, element_value(layout, global), r, n) : kPadding;
  });
  return buffer;
}

/// What checking one rank's target shard found.
struct Check {
  int64_t checked = 0;     // non-padding elements compared
  int64_t mismatches = 0;  // of those, how many differ
  std::string first;       // the first mismatch, as text
};

/// Compares every non-padding element of `target` (int64 elements, already reduced over
/// any pending reduction) with the value its global index prescribes.
inline Check check_target(const kernels::Buffer& target, const ShardLayout& layout) {
  Check check;
  const auto* values = reinterpret_cast<const int64_t*>(target.data());
  for_each_element(layout, [&](int64_t k, const int64_t* global) {
    if (!global) return;
    ++check.checked;
    const int64_t expected = element_value(layout, global);
    if (values[k] == expected) return;
    if (check.mismatches++ == 0) {
      std::string index;
      for (std::size_t d = 0; d < layout.shape.size(); ++d)
        index += (d ? "," : "") + std::to_string(global[d] - layout.start[d]);
      check.first = "local index [" + index + "]: expected " + std::to_string(expected) + ", got " +
                    std::to_string(values[k]);
    }
  });
  return check;
}

/// Prints, on rank 0 of `comm`, one line for the whole job: "redist-mpi: OK N ranks, E
/// elements checked" or "redist-mpi: FAILED rank R local index [...]: expected X, got Y
/// (M mismatches on K ranks)" for the lowest failing rank. Collective. Returns the exit
/// status: 0 when every rank passed, 1 otherwise.
inline int report(MPI_Comm comm, const Check& check) {
  int rank = 0, size = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int64_t totals[2] = {check.checked, check.mismatches};
  int64_t sums[2] = {0, 0};
  MPI_Allreduce(totals, sums, 2, MPI_INT64_T, MPI_SUM, comm);
  const int failing = check.mismatches ? 1 : 0;
  int failing_ranks = 0, first_failing = size;
  MPI_Allreduce(&failing, &failing_ranks, 1, MPI_INT, MPI_SUM, comm);
  const int candidate = failing ? rank : size;
  MPI_Allreduce(&candidate, &first_failing, 1, MPI_INT, MPI_MIN, comm);
  std::string detail = check.first;
  if (first_failing < size && first_failing != 0) {
    if (rank == first_failing) {
      MPI_Send(detail.data(), static_cast<int>(detail.size()), MPI_CHAR, 0, 1, comm);
    } else if (rank == 0) {
      MPI_Status status;
      int length = 0;
      MPI_Probe(first_failing, 1, comm, &status);
      MPI_Get_count(&status, MPI_CHAR, &length);
      detail.resize(static_cast<std::size_t>(length));
      MPI_Recv(detail.data(), length, MPI_CHAR, first_failing, 1, comm, MPI_STATUS_IGNORE);
    }
  }
  if (rank == 0) {
    if (first_failing == size)
      std::printf("redist-mpi: OK %d ranks, %lld elements checked\n", size, static_cast<long long>(sums[0]));
    else
      std::printf("redist-mpi: FAILED rank %d %s (%lld mismatches on %d ranks)\n", first_failing, detail.c_str(),
                  static_cast<long long>(sums[1]), failing_ranks);
    std::fflush(stdout);
  }
  return first_failing == size ? 0 : 1;
}

/// Stops the whole job when `rc` is an MPI error, printing which rank and step failed.
inline void require(int rc, int rank, const char* what) {
  if (rc == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING];
  int length = 0;
  MPI_Error_string(rc, text, &length);
  std::printf("redist-mpi: FAILED rank %d %s: MPI error %d (%.*s)\n", rank, what, rc, length, text);
  std::fflush(stdout);
  MPI_Abort(MPI_COMM_WORLD, 3);
}

}  // namespace redist::mpi::program
