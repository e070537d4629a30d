#pragma once
// The per-device SPMD program of a plan as a flat list of XLA instructions, one IR that
// both printers (StableHLO and classic HLO) render one instruction at a time. Every
// decision (groups, pairs, offsets, all-to-all decomposition, channel ids) is made when
// the program is built; the printers only spell it.

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/elem_type.hpp"

namespace redist::hlo::detail {

/// An array type: element type and shape (empty shape: a scalar).
struct TensorType {
  ElemType elem = ElemType::f32;
  std::vector<int64_t> shape;
};

/// Index of an instruction in Program::instrs; its result is the value.
using ValueId = int;

/// `custom_call @target` carrying an `mhlo.sharding` ("{manual}" or a tiling).
struct CustomCall {
  std::string target;
  std::string sharding;
};
struct Reshape {};
struct Transpose {
  std::vector<int64_t> permutation;
};
struct Concatenate {
  int64_t dim = 0;
};
/// An s32 constant: a scalar when the result shape is empty, else a 1-D table.
struct Constant {
  std::vector<int64_t> values;
};
/// The u32 partition id of the running device.
struct PartitionId {};
/// Element type conversion to the result's element type.
struct Convert {};
/// operands: the array, then one s32 scalar start index per dim; sizes = result shape.
struct DynamicSlice {};
/// operands: the array, an update, then one s32 scalar start index per dim: the array
/// with the update written at those starts.
struct DynamicUpdateSlice {};
/// operands: the array and a scalar of its element type; `high[d]` copies of it are
/// appended after dim d (no low or interior padding). Pads a padded dim's buffer to
/// whole chunks before a slice or an all-to-all splits it.
struct Pad {
  std::vector<int64_t> high;
};
/// Replica groups as partition ids, members in group order.
using Groups = std::vector<std::vector<int64_t>>;
struct AllGather {
  int64_t dim = 0;
  Groups groups;
  int64_t channel = 0;
};
/// Split and concatenate along the same dim (the array form of HLO's all-to-all).
struct AllToAll {
  int64_t dim = 0;
  Groups groups;
  int64_t channel = 0;
};
struct CollectivePermute {
  std::vector<std::pair<int64_t, int64_t>> pairs;
  int64_t channel = 0;
};
struct ReduceScatter {
  int64_t dim = 0;
  Groups groups;
  int64_t channel = 0;
  ReduceOp reducer = ReduceOp::sum;
};
struct AllReduce {
  Groups groups;
  int64_t channel = 0;
  ReduceOp reducer = ReduceOp::sum;
};

/// The scalar identity of `op` in the result's element type: 0 for sum, the lowest
/// value (-inf for floats) for max, the highest (+inf) for min; false / true for pred.
struct Identity {
  ReduceOp op = ReduceOp::sum;
};
/// operand: a scalar, copied into every entry of the result's shape.
struct Broadcast {};
/// operands: a pred array, then two arrays of the result type: per entry the second
/// operand where the pred is true, else the third.
struct Select {};

using InstrOp = std::variant<CustomCall, Reshape, Transpose, Concatenate, Constant, PartitionId, Convert,
                             DynamicSlice, DynamicUpdateSlice, Pad, AllGather, AllToAll, CollectivePermute, ReduceScatter, AllReduce,
                             Identity, Broadcast, Select>;

struct Instruction {
  InstrOp op;
  std::vector<ValueId> operands;
  TensorType type;
  /// Runs inside the manual (per-device) region.
  bool manual = true;
};

/// A module with one parameter (the global source array) and one result (the global
/// target array). Instruction i may use only values < i.
struct Program {
  int64_t num_partitions = 1;
  TensorType param;
  std::string param_sharding;
  TensorType result_type;
  std::string result_sharding;
  /// Value id -1 stands for the parameter in operands.
  std::vector<Instruction> instrs;
  ValueId result = -1;
};

inline constexpr ValueId kParameter = -1;

}  // namespace redist::hlo::detail
