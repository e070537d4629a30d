// The MPI test harness: run a plan on MPI_COMM_WORLD and compare on rank 0.

#include "harness.hpp"

#include <mpi.h>

#include <vector>

#include "redist/backends/mpi/runtime.hpp"
#include "redist/core/dist_type.hpp"
#include "redist/verify/interpreter.hpp"

namespace redist::mpi::testing {

int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

std::string broadcast(const std::string& text) {
  int length = static_cast<int>(text.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  std::string out = text;
  out.resize(static_cast<std::size_t>(length));
  MPI_Bcast(out.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  return out;
}

namespace {

/// Rank 0's verdict on the gathered target shards of every rank (`counts` values from
/// rank d at `offsets[d]`; a rank outside the target mesh sends none).
std::string compare_on_root(const TypedState& target, const std::vector<int64_t>& all_values,
                            const std::vector<int>& counts, const std::vector<int>& offsets) {
  const auto shape = local_shape(target.type);
  MeshData data(static_cast<std::size_t>(world_size()));
  for (std::size_t d = 0; d < data.size(); ++d) {
    if (counts[d] > 0) data[d].shape = shape;
    data[d].values.assign(all_values.begin() + offsets[d], all_values.begin() + offsets[d] + counts[d]);
  }
  const auto mismatch = compare(target.mesh, target.type, data);
  return mismatch ? "mismatch: " + mismatch->to_string() : "";
}

}  // namespace

std::string run_and_compare(const Plan& plan) {
  auto executor = Executor::create(plan, MPI_COMM_WORLD, int64_format());
  if (!executor) return "create: " + executor.error().to_string();
  const int rank = world_rank();
  const MeshData source = distribute(plan.mesh, plan.source);  // ranks past the source mesh: no shard
  const auto mine = static_cast<std::size_t>(rank) < source.size() ? source[static_cast<std::size_t>(rank)].values
                                                                    : std::vector<int64_t>{};
  auto target = executor->run(copy_to_buffer(mine.data(), mine.size() * sizeof(int64_t)));
  if (!target) return "run: " + target.error().to_string();

  const int count = static_cast<int>(target->size() / sizeof(int64_t));
  std::vector<int> counts(static_cast<std::size_t>(world_size()), 0), offsets(counts.size(), 0);
  MPI_Gather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (std::size_t d = 1; d < counts.size(); ++d) offsets[d] = offsets[d - 1] + counts[d - 1];
  std::vector<int64_t> all(rank == 0 ? static_cast<std::size_t>(offsets.back() + counts.back()) : 0);
  MPI_Gatherv(target->data(), count, MPI_INT64_T, all.data(), counts.data(), offsets.data(), MPI_INT64_T, 0,
              MPI_COMM_WORLD);
  return broadcast(rank == 0 ? compare_on_root(executor->target(), all, counts, offsets) : "");
}

}  // namespace redist::mpi::testing
