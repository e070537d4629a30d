// Permute pairs that keep the most data in place (in_place.hpp).

#include "in_place.hpp"

#include "redist/core/semantics.hpp"
#include "redist/plan/lowered.hpp"
#include "redist/plan/typing.hpp"

namespace redist::synth_detail {

namespace {

/// Per physical device of `mesh`, the block index of each dim of `type`.
std::vector<std::vector<int64_t>> blocks(const Mesh& mesh, const DistType& type) {
  std::vector<std::vector<int64_t>> out(static_cast<std::size_t>(mesh.num_devices()));
  for (int64_t p = 0; p < mesh.num_devices(); ++p) {
    const Coords c = mesh.coords_of_device(p);
    for (const auto& d : type.dims) out[static_cast<std::size_t>(p)].push_back(block_index(mesh, c, d));
  }
  return out;
}

/// The pairs of the permute from `before` to `after` with the most devices in place,
/// repaired from the lowering's; nullopt when the lowering's already keep as many.
std::optional<DevicePairs> repaired_pairs(const TypedState& before, const TypedState& after, const Step& step) {
  const int64_t n = after.mesh.num_devices();
  for (std::size_t d = 0; d < before.type.rank(); ++d)
    if (tile_count(before.type.dims[d]) != tile_count(after.type.dims[d])) return std::nullopt;
  const LoweredStep lowered = lower_step(before, after, step);
  const DevicePairs pairs = pair_table(std::get<LoweredPermute>(lowered.op), before.mesh, after.mesh);
  const auto held = blocks(before.mesh, before.type), needed = blocks(after.mesh, after.type);
  std::vector<int64_t> source_of(static_cast<std::size_t>(n)), target_of(static_cast<std::size_t>(n));
  for (const auto& [s, t] : pairs) {
    source_of[static_cast<std::size_t>(t)] = s;
    target_of[static_cast<std::size_t>(s)] = t;
  }
  bool changed = false;
  for (int64_t t = 0; t < n; ++t) {
    const auto ti = static_cast<std::size_t>(t);
    const int64_t s = source_of[ti];
    if (s == t || held[ti] != needed[ti]) continue;
    // t keeps its own block; t's old destination takes s's buffer, which is what t
    // needed and so what t sent it.
    const int64_t moved_to = target_of[ti];
    source_of[ti] = t;
    target_of[ti] = t;
    source_of[static_cast<std::size_t>(moved_to)] = s;
    target_of[static_cast<std::size_t>(s)] = moved_to;
    changed = true;
  }
  if (!changed) return std::nullopt;
  DevicePairs out;
  for (int64_t t = 0; t < n; ++t) out.emplace_back(source_of[static_cast<std::size_t>(t)], t);
  return out;
}

}  // namespace

Plan keep_in_place(Plan plan) {
  if (plan.mesh.num_devices() > kMaxInPlaceDevices) return plan;
  auto states = type_plan(plan);
  if (!states) return plan;
  TypedState before{plan.mesh, plan.source};
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    Step& step = plan.steps[k];
    const TypedState& after = (*states)[k];
    if (std::holds_alternative<CollectivePermute>(step.op) && !step.pairs && before.type.reduce_axes.empty() &&
        after.mesh.num_devices() <= kMaxInPlaceDevices)
      step.pairs = repaired_pairs(before, after, step);
    before = after;
  }
  return plan;
}

}  // namespace redist::synth_detail
