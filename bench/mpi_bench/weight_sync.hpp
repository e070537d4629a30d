#pragma once
// The trainer -> inference weight-sync benchmark (docs/meshes.md "Other device sets"):
// a set of weight arrays sharded fsdp over the trainer's 4 ranks (0-3) moves to tensor
// parallel shardings over the inference's 4 other ranks (4-7), in one 8-rank job: one
// inference replica of tp 4, or two replicas of tp 2.

namespace redist::mpi::bench {

/// Runs the benchmark with arrays totalling at least `min_mib` MiB, `reps` alternating
/// rounds, `replicas` (1 or 2) inference replicas; prints a Markdown table on rank 0.
/// Returns the exit status (1 when a method's result is wrong, 2 when the job does not
/// have 8 ranks).
int run_weight_sync(int min_mib, int reps, int replicas);

}  // namespace redist::mpi::bench
