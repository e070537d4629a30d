#include "lowered_checks.hpp"

#include <string>

namespace redist::interp {

Status check_groups(const DeviceGroups& groups, int64_t num_devices, int64_t group_size) {
  std::vector<bool> seen(static_cast<std::size_t>(num_devices), false);
  int64_t covered = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& group = groups[g];
    if (static_cast<int64_t>(group.size()) != group_size)
      return invalid_error("group " + std::to_string(g) + " has " + std::to_string(group.size()) +
                           " members but the step's axes make groups of " +
                           std::to_string(group_size));
    for (int64_t d : group) {
      if (d < 0 || d >= num_devices)
        return invalid_error("group " + std::to_string(g) + " names device " + std::to_string(d) +
                             ", which is not one of the " + std::to_string(num_devices) +
                             " devices");
      if (seen[static_cast<std::size_t>(d)])
        return invalid_error("device " + std::to_string(d) + " appears twice in the groups");
      seen[static_cast<std::size_t>(d)] = true;
      ++covered;
    }
  }
  if (covered != num_devices) {
    std::size_t missing = 0;
    while (seen[missing]) ++missing;
    return invalid_error("device " + std::to_string(missing) + " is in no group");
  }
  return Ok{};
}

Status check_pairs(const DevicePairs& pairs, int64_t num_devices) {
  std::vector<bool> targeted(static_cast<std::size_t>(num_devices), false);
  for (const auto& [source, target] : pairs) {
    for (int64_t d : {source, target}) {
      if (d < 0 || d >= num_devices)
        return invalid_error("permute pair (" + std::to_string(source) + ", " +
                             std::to_string(target) + ") names device " + std::to_string(d) +
                             ", which is not one of the " + std::to_string(num_devices) +
                             " devices");
    }
    if (targeted[static_cast<std::size_t>(target)])
      return invalid_error("device " + std::to_string(target) +
                           " is the target of more than one permute pair");
    targeted[static_cast<std::size_t>(target)] = true;
  }
  for (int64_t d = 0; d < num_devices; ++d) {
    if (!targeted[static_cast<std::size_t>(d)])
      return invalid_error("device " + std::to_string(d) + " is the target of no permute pair");
  }
  return Ok{};
}

}  // namespace redist::interp
