// The refinement note of `redist plan` / `redist prove` (see refinement_note.hpp).

#include "refinement_note.hpp"

#include "redist/verify/rewrite_proof.hpp"

namespace redist::cli {

std::optional<Refinement> refinement_of(const ReshardArgs& in) {
  if (in.mesh.same_axes(in.target_mesh) && in.mesh.compact() && in.target_mesh.compact()) return std::nullopt;
  auto r = refine(in.mesh, in.src, in.target_mesh, in.dst);
  if (!r) return std::nullopt;
  return std::move(*r);
}

void print_refinement(const Refinement& r, std::ostream& out) {
  out << "# the meshes have other axes: planned on their common refinement " << to_string(r.source_mesh)
      << ", source type " << to_string(r.source) << ", target type " << to_string(r.target) << "\n";
  for (const auto& line : describe(r.axes)) out << "#   " << line << "\n";
}

nlohmann::json refinement_json(const Refinement& r) {
  nlohmann::json axes = nlohmann::json::array();
  for (const auto& a : r.axes)
    axes.push_back({{"name", a.name}, {"size", a.size}, {"source", to_string(a.source)}, {"target", to_string(a.target)}});
  return {{"mesh", to_string(r.source_mesh)}, {"target_mesh", to_string(r.target_mesh)},
          {"source", to_string(r.source)}, {"target", to_string(r.target)}, {"axes", axes}};
}

std::pair<PropertyResult, PropertyResult> prove_rewrites(const ReshardArgs& in, const Refinement& r,
                                                         unsigned timeout_ms) {
  return {prove_rewrite(in.mesh, in.src, r.source_mesh, r.source, timeout_ms),
          prove_rewrite(in.target_mesh, in.dst, r.target_mesh, r.target, timeout_ms)};
}

}  // namespace redist::cli
