#pragma once
// The XLA instructions of one lowered plan step on per-device buffers.

#include "builder.hpp"
#include "redist/plan/lowered.hpp"

namespace redist::hlo::detail {

/// Appends the instructions that run `step` on `value`, the local buffer of
/// step.before, and returns the value holding the local buffer of step.after. Groups,
/// pairs and offsets come from the shared lowering; partition id = physical device id.
ValueId lower_step(Builder& builder, const LoweredStep& step, ValueId value);

}  // namespace redist::hlo::detail
