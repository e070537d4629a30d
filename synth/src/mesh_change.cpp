// Synthesis between meshes with other axes (see mesh_change.hpp).

#include "redist/synth/mesh_change.hpp"

namespace redist {

bool needs_refinement(const Mesh& src_mesh, const Mesh& dst_mesh) {
  return !src_mesh.same_axes(dst_mesh) || !src_mesh.compact() || !dst_mesh.compact();
}

Result<CostModel> refined_model(const CostModel& model, const Mesh& source_mesh, const Refinement& refinement) {
  if (auto s = validate(model, source_mesh); !s) return s.error();
  CostModel out = model;
  out.axis_class.clear();
  for (const auto& axis : refinement.axes)
    if (auto it = model.axis_class.find(axis.source.name); it != model.axis_class.end())
      out.axis_class[axis.name] = it->second;
  return out;
}

}  // namespace redist
