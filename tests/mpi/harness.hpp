#pragma once
// Running plans with the MPI runtime inside a test job and comparing every element on
// every rank with the reference semantics.

#include <string>

#include "redist/plan/plan.hpp"

namespace redist::mpi::testing {

/// Number of ranks of MPI_COMM_WORLD.
int world_size();
/// This process's rank in MPI_COMM_WORLD.
int world_rank();

/// Rank 0's `text`, on every rank. Collective.
std::string broadcast(const std::string& text);

/// Runs `plan` with the MPI runtime on MPI_COMM_WORLD (int64 elements), each rank
/// starting from its shard of the interpreter's test data (distribute), gathers the
/// target shards on rank 0 and compares every element of every rank with the reference
/// semantics (compare). Returns "" when all agree, else what went wrong; the same text
/// on every rank. Collective.
std::string run_and_compare(const Plan& plan);

}  // namespace redist::mpi::testing
