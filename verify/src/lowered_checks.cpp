#include "lowered_checks.hpp"

#include <string>

#include <fmt/format.h>

namespace redist::interp {

Status check_groups(const DeviceGroups& groups, int64_t num_devices, int64_t group_size) {
  std::vector<bool> seen(static_cast<std::size_t>(num_devices), false);
  int64_t covered = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& group = groups[g];
    if (static_cast<int64_t>(group.size()) != group_size)
      return invalid_error(fmt::format("group {} has {} members but the step's axes make groups of {}", g,
                                       group.size(), group_size));
    for (int64_t d : group) {
      if (d < 0 || d >= num_devices)
        return invalid_error(
            fmt::format("group {} names device {}, which is not one of the {} devices", g, d, num_devices));
      if (seen[static_cast<std::size_t>(d)])
        return invalid_error(fmt::format("device {} appears twice in the groups", d));
      seen[static_cast<std::size_t>(d)] = true;
      ++covered;
    }
  }
  if (covered != num_devices) {
    std::size_t missing = 0;
    while (seen[missing]) ++missing;
    return invalid_error(fmt::format("device {} is in no group", missing));
  }
  return Ok{};
}

Status check_pairs(const DevicePairs& pairs, int64_t num_devices) {
  std::vector<bool> targeted(static_cast<std::size_t>(num_devices), false);
  for (const auto& [source, target] : pairs) {
    for (int64_t d : {source, target}) {
      if (d < 0 || d >= num_devices)
        return invalid_error(fmt::format("permute pair ({}, {}) names device {}, which is not one of the {} devices",
                                         source, target, d, num_devices));
    }
    if (targeted[static_cast<std::size_t>(target)])
      return invalid_error(fmt::format("device {} is the target of more than one permute pair", target));
    targeted[static_cast<std::size_t>(target)] = true;
  }
  for (int64_t d = 0; d < num_devices; ++d) {
    if (!targeted[static_cast<std::size_t>(d)])
      return invalid_error(fmt::format("device {} is the target of no permute pair", d));
  }
  return Ok{};
}

}  // namespace redist::interp
