// Plans between device sets (see mesh_change.hpp): one transfer step, the only way
// data reaches a device outside the source mesh, with the pending reductions of the
// source done first on its mesh and those of the target added after it on the new one.
// The source's reduction is a reduce_scatter where a dim splits evenly over the
// reduction group: half the bytes of an all_reduce, and the transfer then reads each
// piece from the one device that holds it (every receiver still gets exactly LB).

#include <optional>

#include <fmt/format.h>

#include "redist/core/semantics.hpp"
#include "redist/plan/lowered.hpp"
#include "redist/plan/typing.hpp"
#include "redist/synth/mesh_change.hpp"

namespace redist {

namespace {

/// The step that reduces `src`'s pending axes on its mesh: a reduce_scatter into the dim
/// of the largest local extent that the reduction group splits without padding (the
/// first such dim at equal extent), else an all_reduce.
Step source_reduction(const Mesh& mesh, const DistType& src) {
  const auto local = local_shape(src);
  const int64_t group = product_of_sizes(src.reduce_axes);
  std::optional<int> best;
  for (std::size_t d = 0; d < local.size(); ++d) {
    if (local[d] % group != 0 || has_padding(src)) continue;
    if (!best || local[d] > local[static_cast<std::size_t>(*best)]) best = static_cast<int>(d);
  }
  if (best) {
    Step scatter{ReduceScatter{*best, src.reduce_axes}};
    if (auto typed = apply_step(TypedState{mesh, src}, scatter); typed && !has_padding(typed->type)) return scatter;
  }
  return Step{AllReduce{src.reduce_axes}};
}

}  // namespace

bool other_device_sets(const Mesh& src_mesh, const Mesh& dst_mesh) {
  return src_mesh.device_ids() != dst_mesh.device_ids();
}

Result<Plan> device_set_plan(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh, const DistType& dst,
                             int64_t node_size) {
  if (auto s = validate(src, src_mesh); !s) return invalid_error("source: " + s.error().message);
  if (auto s = validate(dst, dst_mesh); !s) return invalid_error("target: " + s.error().message);
  if (auto s = same_array(src, dst); !s) return s.error();
  // Steps other than the transfer run on meshes over devices 0..N-1 (docs/meshes.md).
  auto local_step = [](const Mesh& mesh, const char* what) -> Status {
    if (mesh.compact()) return Ok{};
    return unsupported_error(fmt::format(
        "{} has a pending reduction on the mesh {}, over device ids other than 0..{}: reductions before or after a "
        "transfer between device sets run only on meshes over devices 0..N-1",
        what, to_string(mesh), mesh.num_devices() - 1));
  };
  Plan plan{src_mesh, src, {}, dst};
  if (!src.reduce_axes.empty()) {  // reduce where the summands are
    if (auto s = local_step(src_mesh, "the source"); !s) return s.error();
    plan.steps.push_back(source_reduction(src_mesh, src));
  }
  DistType to = dst;
  to.reduce_axes.clear();
  to.reduce_op = ReduceOp::sum;
  plan.steps.emplace_back(Transfer{to, dst_mesh, std::nullopt});
  if (!dst.reduce_axes.empty()) {  // the value on coordinate 0, the identity elsewhere
    if (auto s = local_step(dst_mesh, "the target"); !s) return s.error();
    plan.steps.emplace_back(AddPending{dst.reduce_axes, dst.reduce_op});
  }
  auto typed = type_plan(plan);
  if (!typed) return typed.error();
  if (node_size > 0) {  // senders on the receiver's node, listed where they differ
    const std::size_t k = src.reduce_axes.empty() ? 0 : 1;  // the transfer's index
    const TypedState before = k == 0 ? TypedState{src_mesh, src} : (*typed)[k - 1];
    TransferTable near = transfer_table(before, (*typed)[k], node_size);
    if (near != transfer_table(before, (*typed)[k])) std::get<Transfer>(plan.steps[k].op).table = std::move(near);
  }
  return plan;
}

}  // namespace redist
