// Instruction appending and per-device helpers.

#include "builder.hpp"

#include <utility>

namespace redist::hlo::detail {

ValueId Builder::add(InstrOp op, std::vector<ValueId> operands, TensorType type, bool manual) {
  program_.instrs.push_back(Instruction{std::move(op), std::move(operands), std::move(type), manual});
  return static_cast<ValueId>(program_.instrs.size() - 1);
}

const TensorType& Builder::type_of(ValueId value) const {
  return value == kParameter ? program_.param : program_.instrs[static_cast<std::size_t>(value)].type;
}

ValueId Builder::reshape(ValueId value, std::vector<int64_t> shape) {
  const TensorType& from = type_of(value);
  if (from.shape == shape) return value;
  return add(Reshape{}, {value}, TensorType{from.elem, std::move(shape)});
}

ValueId Builder::lookup(const std::vector<int64_t>& table) {
  if (!partition_s32_) {
    const ValueId id = add(PartitionId{}, {}, TensorType{ElemType::u32, {}});
    partition_s32_ = add(Convert{}, {id}, TensorType{ElemType::s32, {}});
  }
  const auto size = static_cast<int64_t>(table.size());
  const ValueId constant = add(Constant{table}, {}, TensorType{ElemType::s32, {size}});
  const ValueId entry = add(DynamicSlice{}, {constant, *partition_s32_}, TensorType{ElemType::s32, {1}});
  return reshape(entry, {});
}

ValueId Builder::zero() {
  if (!zero_) zero_ = add(Constant{{0}}, {}, TensorType{ElemType::s32, {}});
  return *zero_;
}

ValueId Builder::pad_to(ValueId value, std::size_t dim, int64_t size) {
  const TensorType from = type_of(value);
  if (from.shape[dim] >= size) return value;
  const ValueId fill = add(Convert{}, {zero()}, TensorType{from.elem, {}});
  std::vector<int64_t> high(from.shape.size(), 0);
  high[dim] = size - from.shape[dim];
  std::vector<int64_t> shape = from.shape;
  shape[dim] = size;
  return add(Pad{std::move(high)}, {value, fill}, TensorType{from.elem, std::move(shape)});
}

ValueId Builder::prefix(ValueId value, const std::vector<int64_t>& shape) {
  const TensorType from = type_of(value);
  if (from.shape == shape) return value;
  std::vector<ValueId> operands{value};
  for (std::size_t d = 0; d < shape.size(); ++d) operands.push_back(zero());
  return add(DynamicSlice{}, std::move(operands), TensorType{from.elem, shape});
}

}  // namespace redist::hlo::detail
