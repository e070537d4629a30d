#pragma once
// The MPI runtime: executes a plan inside an MPI job. Rank r of the communicator is
// physical device r of the plan's mesh (the mesh's device order maps it to its mesh
// position); each rank passes its source shard and gets its target shard back.
//
//   auto executor = redist::mpi::Executor::create(plan, MPI_COMM_WORLD, format);  // collective
//   auto target = executor->run(std::move(source));                             // collective

#include <mpi.h>

#include <cstddef>
#include <memory>

#include "redist/backends/mpi/element.hpp"
#include "redist/backends/mpi/kernels.hpp"
#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"

namespace redist::mpi {

/// A plan prepared for repeated execution on one communicator: its lowering and one
/// communicator per distinct set of axis groups (MPI_Comm_split over a duplicate of the
/// caller's communicator with MPI_ERRORS_RETURN, created once and reused by every run).
class Executor {
 public:
  /// Prepares `plan` on `comm`, whose size must equal the mesh's device count. Collective
  /// over `comm`. Returns an error (the same on every rank) when the plan does not
  /// type-check or lower, the sizes differ, a plan with reductions has no MPI datatype
  /// in `format`, or MPI fails.
  static Result<Executor> create(const Plan& plan, MPI_Comm comm, ElementFormat format);

  Executor(Executor&&) noexcept;
  Executor& operator=(Executor&&) noexcept;
  ~Executor();

  /// Bytes of this rank's source shard (padding included).
  std::size_t source_bytes() const;
  /// Bytes of this rank's target shard (padding included).
  std::size_t target_bytes() const;
  /// The mesh and type after the last step.
  const TypedState& target() const;

  /// Runs the plan on this rank's `source` shard (row-major over the source's local
  /// shape) and returns its target shard. Each step frees its input once its output
  /// exists, so at most two shards are alive at once. Collective over the communicator;
  /// returns an error when some rank's source has the wrong size or MPI fails.
  Result<kernels::Buffer> run(kernels::Buffer source) const;

 private:
  struct State;
  explicit Executor(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

/// A copy of `bytes` in a shard buffer.
kernels::Buffer copy_to_buffer(const void* bytes, std::size_t size);

}  // namespace redist::mpi
