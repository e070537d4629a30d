#pragma once
// Validation of a step's lowered form (explicit device groups and permute pairs)
// before the interpreter runs it: malformed lowerings are errors, never aborts.

#include <cstdint>
#include <vector>

#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"

namespace redist::interp {

/// Ok when `groups` partition the devices of `mesh` (its physical ids: every device in
/// exactly one group, no repeats) into groups of exactly `group_size` members; else an
/// error naming the first fault.
Status check_groups(const DeviceGroups& groups, const Mesh& mesh, int64_t group_size);

/// Ok when every device of `mesh` is the target of exactly one pair and every source is
/// one of its devices; else an error naming the first fault.
Status check_pairs(const DevicePairs& pairs, const Mesh& mesh);

}  // namespace redist::interp
