#pragma once
// Synthesis between meshes with other axes over the same devices (docs/meshes.md): the
// pair is rewritten on the common refinement of the two meshes (core/refine.hpp) and
// planned by the one engine as a reshard between two device orders of one mesh. The
// cost model follows: each refined axis has the link class of its source-mesh axis.

#include <optional>

#include "redist/plan/plan.hpp"
#include "redist/core/refine.hpp"
#include "redist/synth/cost_model.hpp"

namespace redist {

/// True when the meshes are over other sets of physical devices (disjoint,
/// overlapping, or of other counts).
bool other_device_sets(const Mesh& src_mesh, const Mesh& dst_mesh);

/// The plan between other device sets (docs/meshes.md "Other device sets"): one
/// `transfer` of point-to-point sends, preceded by a reduce_scatter (where a dim splits
/// evenly over the group) or an all_reduce of the source's pending reductions and
/// followed by an add_pending of the target's. Where the target is replicated over some
/// axes, the transfer may instead send each element to one device of each group along
/// them and an all_gather on the target mesh copy it within the group ("staged"), which
/// moves fewer bytes over the links between the meshes; the cheaper plan under `model`
/// is returned (ties: the direct one). The transfer's senders are searched under the
/// model (docs/meshes.md "Senders") when the model has nodes (transfer.node_size > 0)
/// or `search_senders` is set (the optimal mode), else the lowering's rule chooses
/// them; listed as `sends=` where they differ from the lowering's own. Errors:
/// invalid types or other arrays (invalid).
Result<Plan> device_set_plan(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh, const DistType& dst,
                             const CostModel& model, bool search_senders = false);

/// True when the pair needs the rewrite: the meshes differ in their axes or are not
/// both over devices 0..N-1.
bool needs_refinement(const Mesh& src_mesh, const Mesh& dst_mesh);

/// `model` for the refined mesh of `refinement` (`source_mesh` is the original source
/// mesh): every refined axis takes the class its source-mesh axis has in `model`.
/// Errors as validate(model, source_mesh).
Result<CostModel> refined_model(const CostModel& model, const Mesh& source_mesh, const Refinement& refinement);

}  // namespace redist
