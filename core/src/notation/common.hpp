#pragma once
// Pieces the notation readers and writers share: building a type from per-dim axis
// lists with errors at a position, and mesh-order sorting of axis sets.

#include <string>
#include <vector>

#include "notation/cursor.hpp"
#include "redist/core/notation/notation.hpp"

namespace redist::notation::detail {

/// A whole-axis reference to the mesh axis `name`, or an error at `position` when the
/// mesh has no such axis.
Result<AxisRef> whole_axis(const Mesh& mesh, const std::string& name, std::size_t position);
/// The type of `shape` with these per-dim axes and pending sum, validated against `mesh`
/// (errors without a position get `position`).
Result<DistType> build_type(const ArrayShape& shape, std::vector<std::vector<AxisRef>> dims,
                            std::vector<AxisRef> sum_axes, const Mesh& mesh, std::size_t position);
/// `axes` sorted in mesh order (axis declaration, then major factors first).
std::vector<AxisRef> in_mesh_order(std::vector<AxisRef> axes, const Mesh& mesh);
/// Error unless `rank` (entries given) fits the shape's rank.
Status check_rank(std::size_t given, const ArrayShape& shape, std::size_t position, const char* what);

}  // namespace redist::notation::detail
