#pragma once
// Generator of standalone C++ MPI programs that run one plan (`redist emit --target mpi`).

#include <string>

#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"

namespace redist::mpi {

/// The source of a self-contained C++20 MPI program (needs only MPI and the standard
/// library: `mpicxx -std=c++20 -O2 FILE`) that fills the source shard of every rank
/// with distinct values derived from global indices, runs `plan` with MPI calls,
/// checks every element of the target shard and prints a one-line result.
Result<std::string> emit_program(const Plan& plan);

}  // namespace redist::mpi
