#pragma once
// How the elements of a shard are represented when the MPI runtime moves them.

#include <mpi.h>

#include <cstddef>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/elem_type.hpp"

namespace redist::mpi {

/// Bytes per element and the MPI datatype reductions combine them as. Steps that only
/// move data treat elements as `bytes` opaque bytes; `datatype` may be MPI_DATATYPE_NULL
/// (bf16, f16), and then plans with reductions are refused.
struct ElementFormat {
  int bytes = 4;
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
};

/// The format of `elem` as stored natively (f32 -> 4 bytes, MPI_FLOAT; pred -> 1 byte,
/// MPI_C_BOOL; bf16/f16 -> 2 bytes, no MPI datatype).
ElementFormat native_format(ElemType elem);

/// 8-byte signed integers (MPI_INT64_T), whatever the plan's element type: the format
/// of test data, whose elements are distinct int64 values.
ElementFormat int64_format();

/// The MPI reduction for `op` on `datatype`: MPI_SUM/MPI_MAX/MPI_MIN; on MPI_C_BOOL (pred)
/// logical or for sum and max (XLA's add on pred) and logical and for min.
MPI_Op reduce_op_of(ReduceOp op, MPI_Datatype datatype);

/// The bytes of the identity of `op` on `datatype` as stored natively (0; for max the
/// lowest value, -inf for floats, false for MPI_C_BOOL; for min the highest, +inf,
/// true): what add_pending fills. Empty for a datatype without a known identity.
std::vector<std::byte> identity_bytes(ReduceOp op, MPI_Datatype datatype);

}  // namespace redist::mpi
