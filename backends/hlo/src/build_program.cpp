// Builds the manual-region program of a lowered plan.

#include "build_program.hpp"

#include "builder.hpp"
#include "lower_steps.hpp"
#include "redist/plan/lowered.hpp"
#include "sharding.hpp"

namespace redist::hlo::detail {

Result<Program> build_program(const Plan& plan) {
  auto lowered = lower(plan);
  if (!lowered) return lowered.error();
  for (const LoweredStep& step : lowered->steps)
    if (std::holds_alternative<LoweredTransfer>(step.op))
      return unsupported_error(
          "the plan transfers the array to another device set; the HLO backend emits one SPMD program over one "
          "mesh and does not emit transfers between device sets yet (docs/meshes.md): use the MPI backend");
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
