// The scalar identity of a reduction op in each element type, as the printers spell a
// constant (add_pending fills the devices off coordinate 0 with it): 0 for sum; for
// max the lowest value (-inf for floats, false for pred), for min the highest (+inf,
// true). MLIR's dense attributes take floats' infinities as hex bit patterns.

#include <limits>

#include "printers.hpp"

namespace redist::hlo::detail {

namespace {

/// The lowest (max) or highest (min) value of integer type T in decimal.
template <class T>
std::string extreme(ReduceOp op) {
  return op == ReduceOp::max ? std::to_string(std::numeric_limits<T>::min())
                             : std::to_string(std::numeric_limits<T>::max());
}

/// -inf (max) or +inf (min) of a float type: classic HLO text or the MLIR bit pattern.
std::string infinity(ReduceOp op, ElemType elem, bool mlir) {
  const bool negative = op == ReduceOp::max;
  if (!mlir) return negative ? "-inf" : "inf";
  switch (elem) {
    case ElemType::f16: return negative ? "0xFC00" : "0x7C00";
    case ElemType::bf16: return negative ? "0xFF80" : "0x7F80";
    case ElemType::f64: return negative ? "0xFFF0000000000000" : "0x7FF0000000000000";
    default: return negative ? "0xFF800000" : "0x7F800000";
  }
}

}  // namespace

std::string identity_literal(ReduceOp op, ElemType elem, bool mlir) {
  if (elem == ElemType::pred) return op == ReduceOp::min ? "true" : "false";
  const bool floating = elem == ElemType::f16 || elem == ElemType::bf16 || elem == ElemType::f32 || elem == ElemType::f64;
  if (op == ReduceOp::sum) return floating && mlir ? "0.0" : "0";  // MLIR wants a float literal
  switch (elem) {
    case ElemType::s8: return extreme<int8_t>(op);
    case ElemType::u8: return extreme<uint8_t>(op);
    case ElemType::s16: return extreme<int16_t>(op);
    case ElemType::u16: return extreme<uint16_t>(op);
    case ElemType::s32: return extreme<int32_t>(op);
    case ElemType::u32: return extreme<uint32_t>(op);
    case ElemType::s64: return extreme<int64_t>(op);
    case ElemType::u64: return extreme<uint64_t>(op);
    default: return infinity(op, elem, mlir);
  }
}

}  // namespace redist::hlo::detail
