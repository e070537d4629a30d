#pragma once
// The common refinement of two meshes over the same devices (docs/meshes.md). Mesh
// position p is a mixed-radix number whose digits are the axis coordinates; an axis
// (or sub-axis) is the range of STRIDES [lo, hi) it covers in p: axis i of sizes
// n_0..n_k covers [s_i, s_i * n_i) with s_i the product of the sizes after it, and
// its sub-axis (m)k covers [s_i * n_i / (m k), s_i * n_i / m). Two meshes with the
// same device count have a common refinement when every boundary either uses (of
// both meshes' axes and of the types' sub-axes) is a chain under divisibility: then
// each range between neighbouring boundaries is one refined axis, every original
// axis is a run of refined axes (major first), and a type rewritten by that
// substitution puts the same elements on every position. {a:2, b:4} and {x:4, y:2}
// cut positions at 1, 2, 4, 8 and refine to three axes of size 2 (a = r0,
// b = r1,r2, x = r0,r1, y = r2). Device orders are kept: the refined source mesh
// has the source's order and the refined target mesh the target's, so a plan on them
// is an ordinary plan between two device orders of one mesh.

#include <cstdint>
#include <string>
#include <vector>

#include "redist/core/axis.hpp"
#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"

namespace redist {

/// One refined axis: its name and size, and the factor of a source-mesh axis and of a
/// target-mesh axis it is (a whole axis or a sub-axis, in the notation of the types).
struct RefinedAxis {
  std::string name;
  int64_t size = 1;
  AxisRef source;
  AxisRef target;
  bool operator==(const RefinedAxis&) const = default;
};

/// Both meshes and both types rewritten on the common refinement.
struct Refinement {
  std::vector<RefinedAxis> axes;  // major to minor
  Mesh source_mesh;               // the refined axes in the source's device order
  Mesh target_mesh;               // the refined axes in the target's device order
  DistType source;                // `src` rewritten on source_mesh
  DistType target;                // `dst` rewritten on target_mesh
};

/// The common refinement of `src_mesh` and `dst_mesh` with `src` (on src_mesh) and
/// `dst` (on dst_mesh) rewritten on it. Errors (`unsupported`): the meshes have other
/// device counts or other device ids, or their axes (with the sub-axes the types use)
/// cut positions at boundaries that do not nest, e.g. {x:2, y:3} and {u:3, v:2}.
/// Both types must validate on their meshes (`invalid` otherwise).
Result<Refinement> refine(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh, const DistType& dst);

/// `type` (on `mesh`, one of the two refined meshes' originals) with every axis
/// reference replaced by its run of refined axes; `source` picks which side's
/// factors (RefinedAxis::source or ::target) describe `mesh`.
DistType rewrite_type(const DistType& type, const Mesh& mesh, const std::vector<RefinedAxis>& axes, bool source);

/// One line per refined axis: `r0:2 = a (source) = x:(1)2 (target)`.
std::vector<std::string> describe(const std::vector<RefinedAxis>& axes);

}  // namespace redist
