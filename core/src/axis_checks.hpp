#pragma once
// Validity rules for axis references, shared by the type parser (which reports
// positions) and validate() (which checks built values).

#include <optional>
#include <string>

#include "redist/core/axis.hpp"
#include "redist/core/mesh.hpp"

namespace redist::detail {

/// Why `ref` is not a valid axis or sub-axis of `mesh` (unknown axis, sub-axis that
/// does not divide its axis, covers the whole axis, has size 1), or nullopt.
std::optional<std::string> axis_ref_problem(const Mesh& mesh, const AxisRef& ref);

/// Why `ref` cannot be used next to the already used `earlier` (same axis twice, or
/// sub-axes that overlap or do not nest), or nullopt.
std::optional<std::string> axis_conflict(const AxisRef& earlier, const AxisRef& ref);

}  // namespace redist::detail
