#pragma once
// A plan lowered for MPI: per step, the kernel to call and its arguments for every rank
// (rank = physical device id), materialized from the shared lowered form
// (redist/plan/lowered.hpp: groups, slice offsets, permute pairs, split and concat
// dims) that the checker proves. MPI-free: the runtime and the code generator build on it.

#include <cstdint>
#include <string>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"

namespace redist::mpi {

enum class Kernel { all_slice, all_gather, all_to_all, permute, reduce_scatter, all_reduce, add_pending, transfer };

/// One step as the MPI kernels run it.
struct MpiStep {
  Kernel kernel = Kernel::all_slice;
  std::string text;            // the step in plan text
  std::vector<int64_t> shape;  // local shape before the step, in elements
  int dim = 0;                 // all_slice, all_gather, reduce_scatter: the dim
  int split_dim = 0;           // all_to_all: the dim split into chunks, one per member
  int concat_dim = 0;          // all_to_all: the dim the received chunks are concatenated on
  int64_t parts = 1;           // group size
  int64_t chunk = 1;           // all_slice, all_gather: elements kept along the dim; all_to_all: chunk length
  int64_t keep = 1;            // all_to_all: elements of the concatenation kept (less: a padded tail)
  /// A fused all_to_all (several parts): per part its split dim, concat dim and members
  /// (part 0 the most significant digit of the member index); a fused all_gather: per
  /// part its gathered dim (in fused_concat) and members; empty for one part.
  std::vector<int> fused_split, fused_concat;
  std::vector<int64_t> fused_sizes;
  ReduceOp op = ReduceOp::sum;
  /// Group kernels: per device, the index of its group (the MPI_Comm_split color) and
  /// its member position in that group (the key; add_pending: key 0 keeps its values).
  std::vector<int> color, key;
  /// all_slice: per device, the first element it keeps along the dim.
  std::vector<int64_t> offset;
  /// permute: per target device, the device it receives from.
  std::vector<int> source;
  /// The devices of the step's mesh (before it); a rank outside it holds no buffer and
  /// takes no part in a grouped step or a permute (after a transfer between device sets).
  std::vector<int64_t> members;
  /// transfer: its sends, the local shape after it and the devices of the new mesh.
  TransferTable sends;
  std::vector<int64_t> after_shape;
  std::vector<int64_t> after_members;
};

/// A whole plan lowered for MPI.
struct MpiProgram {
  TypedState source;  // state before the first step
  TypedState target;  // state after the last step
  std::vector<MpiStep> steps;
  int64_t ranks = 1;  // 1 + the largest device id of any mesh of the plan: the job's size
};

/// The plan lowered for MPI ranks, or why it cannot run: it does not type-check, a
/// group does not have the step's size or does not cover each device exactly once, a
/// slice offset leaves the buffer, a permute leaves a device without a source, or there
/// are more devices than MPI ranks can number.
Result<MpiProgram> lower_for_mpi(const Plan& plan);

/// The devices other than `device` that receive from `device` in a permute step,
/// ascending.
std::vector<int> permute_targets(const MpiStep& step, int device);

}  // namespace redist::mpi
