#pragma once
// Appends instructions to a Program, with the per-device helpers the step lowerings
// share: table look-ups by partition id and fresh channel ids.

#include <cstdint>
#include <optional>
#include <vector>

#include "program.hpp"

namespace redist::hlo::detail {

class Builder {
 public:
  explicit Builder(int64_t num_partitions) { program_.num_partitions = num_partitions; }

  /// Appends an instruction and returns its value.
  ValueId add(InstrOp op, std::vector<ValueId> operands, TensorType type, bool manual = true);
  /// The type of a value (the parameter for kParameter).
  const TensorType& type_of(ValueId value) const;
  /// `value` reshaped to `shape` (no instruction when the shape is unchanged).
  ValueId reshape(ValueId value, std::vector<int64_t> shape);
  /// The s32 scalar table[partition id]: a per-device value. `table` has one entry per
  /// partition.
  ValueId lookup(const std::vector<int64_t>& table);
  /// The s32 scalar 0.
  ValueId zero();
  /// `value` padded at the end of dim `dim` to `size` entries (no instruction when it
  /// already has them); the padding holds zeros, which no real slot ever reads.
  ValueId pad_to(ValueId value, std::size_t dim, int64_t size);
  /// The first `shape` entries of `value` along every dim (a dynamic-slice at 0; no
  /// instruction when the shape is unchanged): drops a padded tail.
  ValueId prefix(ValueId value, const std::vector<int64_t>& shape);
  /// A channel id not used before in this module (1, 2, ...).
  int64_t next_channel() { return ++last_channel_; }

  Program& program() { return program_; }

 private:
  Program program_;
  std::optional<ValueId> partition_s32_;
  std::optional<ValueId> zero_;
  int64_t last_channel_ = 0;
};

}  // namespace redist::hlo::detail
