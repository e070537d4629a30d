// Plans between device sets (see mesh_change.hpp): one transfer step, the only way
// data reaches a device outside the source mesh, with the pending reductions of the
// source done first on its mesh and those of the target added after it on the new one;
// to a replicated target, priced against a staged transfer that sends each element to
// one device of each replica group and gathers it on the target mesh.
// The source's reduction is a reduce_scatter where a dim splits evenly over the
// reduction group: half the bytes of an all_reduce, and the transfer then reads each
// piece from the one device that holds it (every receiver still gets exactly LB).

#include <optional>
#include <utility>
#include <vector>

#include "redist/core/semantics.hpp"
#include "redist/plan/lowered.hpp"
#include "redist/plan/typing.hpp"
#include "redist/synth/mesh_change.hpp"
#include "transfer_senders.hpp"

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
  return !src_mesh.same_devices(dst_mesh);
}

namespace {

/// `plan` with the sends of its transfer (step `k`) chosen under `model`, listed where
/// they differ from the lowering's own: searched (transfer_senders.hpp) when `search` or
/// when the model has nodes (where the lowering's rule, a replica on the receiver's node
/// first, often pays both links' latencies), else the rule; `plan` as it is when it does
/// not type.
Plan with_senders(Plan plan, std::size_t k, const CostModel& model, bool search) {
  if (model.transfer_node_size <= 0 && !search) return plan;
  auto typed = type_plan(plan);
  if (!typed) return plan;
  const TypedState before = k == 0 ? TypedState{plan.mesh, plan.source} : (*typed)[k - 1];
  TransferTable chosen = synth_detail::search_senders(before, (*typed)[k], model).table;
  if (chosen != transfer_table(before, (*typed)[k])) std::get<Transfer>(plan.steps[k].op).table = std::move(chosen);
  return plan;
}

/// The gathers a staged plan may end with on the target mesh: each dim `d` of `to`
/// with the target's free axes, all of them or one, appended to its tiling where the
/// dim stays unpadded. The transfer then sends every element once per group of those
/// axes instead of once per receiver, and the gather copies it within the target.
/// Returns (staged type, gather) pairs.
std::vector<std::pair<DistType, Step>> staged_gathers(const Mesh& mesh, const DistType& to) {
  const std::vector<AxisRef> free = free_axes(mesh, to);
  std::vector<std::vector<AxisRef>> choices;
  if (!free.empty()) choices.push_back(free);
  if (free.size() > 1)
    for (const AxisRef& a : free) choices.push_back({a});
  std::vector<std::pair<DistType, Step>> out;
  for (std::size_t d = 0; d < to.rank(); ++d) {
    for (const auto& axes : choices) {
      DistType staged = to;
      Dim& dim = staged.dims[d];
      dim.axes.insert(dim.axes.end(), axes.begin(), axes.end());
      if (dim.global % tile_count(dim) != 0 || !validate(staged, mesh)) continue;
      Step gather{AllGather{static_cast<int>(d), axes}};
      if (auto typed = apply_step(TypedState{mesh, staged}, gather); typed && typed->type == to)
        out.emplace_back(std::move(staged), std::move(gather));
    }
  }
  return out;
}

}  // namespace

Result<Plan> device_set_plan(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh, const DistType& dst,
                             const CostModel& model, bool search_senders) {
  if (auto s = validate(src, src_mesh); !s) return invalid_error("source: " + s.error().message);
  if (auto s = validate(dst, dst_mesh); !s) return invalid_error("target: " + s.error().message);
  if (auto s = same_array(src, dst); !s) return s.error();
  Plan plan{src_mesh, src, {}, dst};
  if (!src.reduce_axes.empty()) plan.steps.push_back(source_reduction(src_mesh, src));  // where the summands are
  DistType to = dst;
  to.reduce_axes.clear();
  to.reduce_op = ReduceOp::sum;
  const std::size_t k = plan.steps.size();  // the transfer's index
  // Direct (the transfer sends `to` itself) or staged (a gather on the target mesh after
  // it), the cheapest under the model; ties keep the direct plan.
  auto finish = [&](const DistType& sent, std::optional<Step> gather) {
    Plan p = plan;
    p.steps.emplace_back(Transfer{sent, dst_mesh, std::nullopt});
    if (gather) p.steps.push_back(std::move(*gather));
    if (!dst.reduce_axes.empty()) p.steps.emplace_back(AddPending{dst.reduce_axes, dst.reduce_op});
    return with_senders(std::move(p), k, model, search_senders);
  };
  Plan best = finish(to, std::nullopt);
  auto best_cost = plan_cost(model, best);
  if (!best_cost) return best_cost.error();
  for (auto& [staged, gather] : staged_gathers(dst_mesh, to)) {
    Plan candidate = finish(staged, gather);
    if (auto cost = plan_cost(model, candidate); cost && cost->time_us < best_cost->time_us) {
      best = std::move(candidate);
      best_cost = std::move(cost);
    }
  }
  return best;
}

}  // namespace redist
