#pragma once
// Validation of a step's lowered form (explicit device groups and permute pairs)
// before the interpreter runs it: malformed lowerings are errors, never aborts.

#include <cstdint>
#include <vector>

#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"

namespace redist::interp {

/// Ok when `groups` partition the devices 0..num_devices-1 (every device in exactly
/// one group, no repeats) into groups of exactly `group_size` members; else an error
/// naming the first fault.
Status check_groups(const DeviceGroups& groups, int64_t num_devices, int64_t group_size);

/// Ok when every device 0..num_devices-1 is the target of exactly one pair and every
/// source is a device; else an error naming the first fault.
Status check_pairs(const DevicePairs& pairs, int64_t num_devices);

}  // namespace redist::interp
