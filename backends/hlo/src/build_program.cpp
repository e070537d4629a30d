// Builds the manual-region program of a lowered plan (over the union of the devices for
// transfers between device sets).

#include "build_program.hpp"

#include <algorithm>
#include <optional>
#include <type_traits>
#include <variant>

#include <fmt/format.h>

#include "builder.hpp"
#include "lower_steps.hpp"
#include "redist/plan/lowered.hpp"
#include "sharding.hpp"

namespace redist::hlo::detail {

namespace {

/// `shape` with its dim 0 `n` times longer: the per-device buffers of `n` devices
/// stacked (rank 0 has no dim to stack along).
std::vector<int64_t> stacked(std::vector<int64_t> shape, int64_t n) {
  shape[0] *= n;
  return shape;
}

/// "{devices=[n,1,...]<=[n]}": dim 0 tiled over the n partitions in order.
std::string stacked_sharding(std::size_t rank, int64_t n) {
  std::string tiles = std::to_string(n);
  for (std::size_t d = 1; d < rank; ++d) tiles += ",1";
  return "{devices=[" + tiles + "]<=[" + std::to_string(n) + "]}";
}

/// `groups` (of one size) with the partitions 0..n-1 they leave out grouped among
/// themselves, in id order, in groups of that size: an HLO collective's groups cover
/// every partition, and a device off the step's mesh gathers zeros that it never
/// returns. Nullopt when the count left out is not a multiple of the size.
std::optional<DeviceGroups> with_idle_groups(DeviceGroups groups, int64_t n) {
  const std::size_t size = groups.front().size();
  std::vector<bool> used(static_cast<std::size_t>(n), false);
  for (const auto& group : groups)
    for (int64_t d : group) used[static_cast<std::size_t>(d)] = true;
  std::vector<int64_t> idle;
  for (int64_t d = 0; d < n; ++d)
    if (!used[static_cast<std::size_t>(d)]) idle.push_back(d);
  if (idle.size() % size != 0) return std::nullopt;
  for (std::size_t k = 0; k < idle.size(); k += size) groups.emplace_back(idle.begin() + k, idle.begin() + k + size);
  return groups;
}

/// A plan of transfers between device sets (docs/meshes.md), with the collectives of a
/// staged plan or of pending reductions on either mesh (all_gather, reduce_scatter,
/// all_reduce, add_pending), as one SPMD program over the union of the
/// devices, partition p = physical device p: the parameter and the result are the
/// devices' local buffers stacked along dim 0 (a device outside the source mesh passes
/// zeros, one outside the target mesh returns zeros), since a tiling of the array
/// itself cannot leave devices out.
Result<Program> build_union_program(LoweredPlan plan) {
  const TypedState& source = plan.source;
  const TypedState& target = plan.steps.back().after;
  int64_t n = 0;
  for (const TypedState* s : {&source, &target}) n = std::max(n, s->mesh.id_bound());
  for (const LoweredStep& step : plan.steps) n = std::max(n, step.after.mesh.id_bound());
  for (LoweredStep& step : plan.steps) {
    // add_pending is local (a device off its mesh keeps its zeros: lower_steps.cpp).
    if (std::holds_alternative<LoweredTransfer>(step.op) || std::holds_alternative<LoweredAddPending>(step.op)) continue;
    GroupSpec* spec = std::visit(
        [](auto& s) -> GroupSpec* {
          using Op = std::decay_t<decltype(s)>;
          if constexpr (std::is_same_v<Op, LoweredGather> || std::is_same_v<Op, LoweredReduceScatter> ||
                        std::is_same_v<Op, LoweredAllReduce>)
            return &s.group;
          return nullptr;
        },
        step.op);
    if (!spec)
      return unsupported_error(fmt::format(
          "the plan has a {} beside its transfer between device sets; the HLO backend emits transfers with "
          "all_gathers, reduce_scatters, all_reduces and add_pendings between device sets (docs/meshes.md): use the "
          "MPI backend",
          lowered_name(step.op)));
    auto groups = with_idle_groups(group_table(*spec, step.before.mesh), n);
    if (!groups)
      return unsupported_error(fmt::format(
          "the {}'s groups of {} on {} leave a number of the {} partitions out that groups of {} cannot cover: use "
          "the MPI backend",
          lowered_name(step.op), spec->size, to_string(step.before.mesh), n, spec->size));
    spec->table = std::move(*groups);
  }
  if (source.type.rank() == 0)
    return unsupported_error("a rank-0 array between device sets is not emitted as HLO (docs/meshes.md)");
  const ElemType elem = source.type.elem;
  const auto in_shape = local_shape(source.type), out_shape = local_shape(target.type);
  Builder b(n);
  Program& program = b.program();
  program.param = TensorType{elem, stacked(in_shape, n)};
  program.param_sharding = stacked_sharding(in_shape.size(), n);
  program.result_type = TensorType{elem, stacked(out_shape, n)};
  program.result_sharding = stacked_sharding(out_shape.size(), n);
  ValueId v = b.add(CustomCall{"Sharding", program.param_sharding}, {kParameter}, program.param, false);
  v = b.add(CustomCall{"SPMDFullToShardShape", "{manual}"}, {v}, TensorType{elem, in_shape});
  for (const LoweredStep& step : plan.steps) v = lower_step(b, step, v);
  v = b.add(CustomCall{"Sharding", "{manual}"}, {v}, b.type_of(v));
  program.result = b.add(CustomCall{"SPMDShardToFullShape", program.result_sharding}, {v}, program.result_type, false);
  return std::move(program);
}

}  // namespace

Result<Program> build_program(const Plan& plan) {
  auto lowered = lower(plan);
  if (!lowered) return lowered.error();
  const bool transfers = std::any_of(lowered->steps.begin(), lowered->steps.end(), [](const LoweredStep& s) {
    return std::holds_alternative<LoweredTransfer>(s.op);
  });
  if (transfers) return build_union_program(std::move(*lowered));
  if (!lowered->source.mesh.compact())  // partitions are 0..N-1: only a union program names other ids
    return unsupported_error(fmt::format("the plan runs on {}, over device ids other than 0..{}, without a transfer; "
                                         "the HLO backend emits such a plan only between device sets: use the MPI "
                                         "backend",
                                         to_string(lowered->source.mesh), lowered->source.mesh.num_devices() - 1));
  const TypedState& source = lowered->source;
  const TypedState& target = lowered->steps.empty() ? source : lowered->steps.back().after;
  const ElemType elem = source.type.elem;

  auto param_shape = boundary_global_shape(source.type);
  if (!param_shape) return param_shape.error();
  auto result_shape = boundary_global_shape(target.type);
  if (!result_shape) return result_shape.error();

  Builder b(source.mesh.num_devices());
  Program& program = b.program();
  program.param = TensorType{elem, std::move(*param_shape)};
  program.param_sharding = sharding_text(source.mesh, source.type);
  program.result_type = TensorType{elem, std::move(*result_shape)};
  program.result_sharding = sharding_text(target.mesh, target.type);

  ValueId v = b.add(CustomCall{"Sharding", program.param_sharding}, {kParameter}, program.param, false);
  v = b.add(CustomCall{"SPMDFullToShardShape", "{manual}"}, {v},
            TensorType{elem, boundary_local_shape(source.type)});
  v = b.reshape(v, local_shape(source.type));
  for (const LoweredStep& step : lowered->steps) v = lower_step(b, step, v);
  v = b.reshape(v, boundary_local_shape(target.type));
  v = b.add(CustomCall{"Sharding", "{manual}"}, {v}, b.type_of(v));
  program.result = b.add(CustomCall{"SPMDShardToFullShape", program.result_sharding}, {v},
                         program.result_type, false);
  return std::move(program);
}

}  // namespace redist::hlo::detail
