#pragma once
// A small interpreter of the data-movement subset of HLO, run on every device at once,
// for the importer (import.hpp). Array elements of the reshard are tags (which source
// element they are); integer computations (partition-id, offset tables, clamps) are
// evaluated for real. Arithmetic on the array's elements is refused: a reshard only
// moves them.

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "import_parse.hpp"
#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"

namespace redist::hlo_import {

/// One device's value of an instruction: a row-major array or a tuple.
struct Value {
  Shape shape;
  std::vector<int64_t> data;  // row-major over shape.dims
  std::vector<Value> tuple;
  bool is_data = false;       // derived from the parameter (tags), not an integer computation
};

/// Values of one instruction on every device (index = partition id).
using Values = std::vector<Value>;

/// Element value meaning "no source element here" (zeros, padding).
inline constexpr int64_t kNoElement = -1;

/// A collective met while running the entry computation, with its operand and result.
struct CollectiveEvent {
  const Instruction* instruction;
  std::vector<const Instruction*> operands;
};

/// Runs the ENTRY computation of `module` on `num_devices` partitions with `param`
/// (one value per device) as parameter 0. Returns the value of every entry instruction
/// by name. Errors name the instruction: "%name (line L): why".
Result<std::map<std::string, Values>> run_entry(const Module& module, int64_t num_devices, const Values& param);

/// Row-major strides of `dims`.
std::vector<int64_t> row_major_strides(const std::vector<int64_t>& dims);

}  // namespace redist::hlo_import
