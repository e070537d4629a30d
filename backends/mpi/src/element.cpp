// Element formats of the MPI runtime.

#include "redist/backends/mpi/element.hpp"

#include <cstdint>
#include <cstring>
#include <limits>

namespace redist::mpi {

ElementFormat native_format(ElemType elem) {
  switch (elem) {
    case ElemType::pred: return {1, MPI_C_BOOL};
    case ElemType::s8: return {1, MPI_INT8_T};
    case ElemType::u8: return {1, MPI_UINT8_T};
    case ElemType::s16: return {2, MPI_INT16_T};
    case ElemType::u16: return {2, MPI_UINT16_T};
    case ElemType::f16:
    case ElemType::bf16: return {2, MPI_DATATYPE_NULL};
    case ElemType::s32: return {4, MPI_INT32_T};
    case ElemType::u32: return {4, MPI_UINT32_T};
    case ElemType::f32: return {4, MPI_FLOAT};
    case ElemType::s64: return {8, MPI_INT64_T};
    case ElemType::u64: return {8, MPI_UINT64_T};
    case ElemType::f64: return {8, MPI_DOUBLE};
  }
  return {elem_bytes(elem), MPI_DATATYPE_NULL};
}

ElementFormat int64_format() { return {8, MPI_INT64_T}; }

namespace {

/// The bytes of the identity of `op` for T: 0, the lowest (max) or the highest (min),
/// infinities for floats.
template <class T>
std::vector<std::byte> identity_of(ReduceOp op) {
  T value{};
  if (op != ReduceOp::sum) {
    if constexpr (std::numeric_limits<T>::has_infinity)
      value = op == ReduceOp::max ? -std::numeric_limits<T>::infinity() : std::numeric_limits<T>::infinity();
    else
      value = op == ReduceOp::max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
  }
  std::vector<std::byte> bytes(sizeof(T));
  std::memcpy(bytes.data(), &value, sizeof(T));
  return bytes;
}

}  // namespace

std::vector<std::byte> identity_bytes(ReduceOp op, MPI_Datatype datatype) {
  if (datatype == MPI_C_BOOL) return identity_of<bool>(op == ReduceOp::sum ? ReduceOp::sum : op);
  if (datatype == MPI_INT8_T) return identity_of<int8_t>(op);
  if (datatype == MPI_UINT8_T) return identity_of<uint8_t>(op);
  if (datatype == MPI_INT16_T) return identity_of<int16_t>(op);
  if (datatype == MPI_UINT16_T) return identity_of<uint16_t>(op);
  if (datatype == MPI_INT32_T) return identity_of<int32_t>(op);
  if (datatype == MPI_UINT32_T) return identity_of<uint32_t>(op);
  if (datatype == MPI_INT64_T) return identity_of<int64_t>(op);
  if (datatype == MPI_UINT64_T) return identity_of<uint64_t>(op);
  if (datatype == MPI_FLOAT) return identity_of<float>(op);
  if (datatype == MPI_DOUBLE) return identity_of<double>(op);
  return {};
}

MPI_Op reduce_op_of(ReduceOp op, MPI_Datatype datatype) {
  if (datatype == MPI_C_BOOL) return op == ReduceOp::min ? MPI_LAND : MPI_LOR;
  switch (op) {
    case ReduceOp::sum: return MPI_SUM;
    case ReduceOp::max: return MPI_MAX;
    case ReduceOp::min: return MPI_MIN;
  }
  return MPI_SUM;
}

}  // namespace redist::mpi
