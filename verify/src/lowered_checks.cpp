#include "lowered_checks.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>

namespace redist::interp {

namespace {

/// Returns the position of device `d` in the sorted `ids`, or -1 when it is not one.
int64_t slot_of(const std::vector<int64_t>& ids, int64_t d) {
  const auto it = std::lower_bound(ids.begin(), ids.end(), d);
  return it != ids.end() && *it == d ? it - ids.begin() : -1;
}

}  // namespace

Status check_groups(const DeviceGroups& groups, const Mesh& mesh, int64_t group_size) {
  const std::vector<int64_t> ids = mesh.device_ids();
  std::vector<bool> seen(ids.size(), false);
  std::size_t covered = 0;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    const auto& group = groups[g];
    if (static_cast<int64_t>(group.size()) != group_size)
      return invalid_error(fmt::format("group {} has {} members but the step's axes make groups of {}", g,
                                       group.size(), group_size));
    for (int64_t d : group) {
      const int64_t slot = slot_of(ids, d);
      if (slot < 0)
        return invalid_error(fmt::format("group {} names device {}, which is not one of the {} devices of {}", g, d,
                                         ids.size(), to_string(mesh)));
      if (seen[static_cast<std::size_t>(slot)])
        return invalid_error(fmt::format("device {} appears twice in the groups", d));
      seen[static_cast<std::size_t>(slot)] = true;
      ++covered;
    }
  }
  if (covered != ids.size()) {
    std::size_t missing = 0;
    while (seen[missing]) ++missing;
    return invalid_error(fmt::format("device {} is in no group", ids[missing]));
  }
  return Ok{};
}

Status check_pairs(const DevicePairs& pairs, const Mesh& mesh) {
  const std::vector<int64_t> ids = mesh.device_ids();
  std::vector<bool> targeted(ids.size(), false);
  for (const auto& [source, target] : pairs) {
    for (int64_t d : {source, target}) {
      if (slot_of(ids, d) < 0)
        return invalid_error(fmt::format("permute pair ({}, {}) names device {}, which is not one of the {} devices of {}",
                                         source, target, d, ids.size(), to_string(mesh)));
    }
    const auto slot = static_cast<std::size_t>(slot_of(ids, target));
    if (targeted[slot]) return invalid_error(fmt::format("device {} is the target of more than one permute pair", target));
    targeted[slot] = true;
  }
  for (std::size_t k = 0; k < ids.size(); ++k) {
    if (!targeted[k]) return invalid_error(fmt::format("device {} is the target of no permute pair", ids[k]));
  }
  return Ok{};
}

}  // namespace redist::interp
