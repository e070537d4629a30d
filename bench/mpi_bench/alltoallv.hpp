#pragma once
// The one-shot baseline: a single MPI_Alltoallv that sends each rank exactly the pieces
// of its target shard it does not hold already (from one holder each), with packing
// and unpacking of boxes on both sides and local copies for the pieces it holds.

#include <mpi.h>

#include <cstdint>
#include <memory>

#include "redist/backends/mpi/kernels.hpp"
#include "redist/core/result.hpp"
#include "redist/plan/typing.hpp"

namespace redist::mpi::bench {

class OneShotAlltoallv {
 public:
  /// The schedule of `source` -> `target` (no pending reductions) for this rank of
  /// `comm` (rank = physical device id), elements of `elem_bytes` bytes. Each piece a
  /// rank lacks comes from one holder of its source block, spread over the replicas.
  static Result<OneShotAlltoallv> create(const TypedState& source, const TypedState& target, MPI_Comm comm,
                                         int64_t elem_bytes);

  OneShotAlltoallv(OneShotAlltoallv&&) noexcept;
  OneShotAlltoallv& operator=(OneShotAlltoallv&&) noexcept;
  ~OneShotAlltoallv();

  /// Bytes this rank receives from other ranks.
  int64_t received_bytes() const;

  /// Runs the exchange: packs, MPI_Alltoallv, unpacks; returns this rank's target shard
  /// or the MPI error. Collective.
  Result<kernels::Buffer> run(kernels::Buffer source) const;

 private:
  struct Schedule;
  explicit OneShotAlltoallv(std::unique_ptr<Schedule> schedule);
  std::unique_ptr<Schedule> schedule_;
};

}  // namespace redist::mpi::bench
