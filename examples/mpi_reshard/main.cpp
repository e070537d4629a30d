// mpi_reshard: reshards an f32 array inside an MPI job with a plan from redist.
//
//   mpirun -np 8 mpi_reshard                                   # the built-in example
//   mpirun -np 8 mpi_reshard '{x:4, y:2}' 'f32[{x}16, {y}8]' 'f32[{y}16, {x}8]'
//
// Every rank (rank = device) synthesizes the same plan, fills its source shard with
// each element's global row-major index, runs the plan with the MPI runtime and checks
// every element of its target shard; rank 0 prints the plan and the verdict.

#include <mpi.h>

#include <cstdio>
#include <string>
#include <vector>

#include "redist/backends/mpi/runtime.hpp"
#include "redist/core/dist_type.hpp"
#include "redist/core/semantics.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/synth/synthesize.hpp"

namespace {

/// Calls `visit(k, global row-major index)` for every non-padding element k of this
/// rank's shard of `type` on `mesh`.
template <class Visit>
void for_each_element(const redist::Mesh& mesh, const redist::DistType& type, int rank, Visit visit) {
  const auto shape = redist::local_shape(type);
  const auto coords = mesh.coords_of_device(rank);
  std::vector<int64_t> local(shape.size(), 0);
  int64_t count = 1;
  for (int64_t s : shape) count *= s;
  for (int64_t k = 0; k < count; ++k) {
    if (auto global = redist::local_to_global(mesh, type, coords, local)) {
      int64_t linear = 0;
      for (std::size_t d = 0; d < global->size(); ++d) linear = linear * type.dims[d].global + (*global)[d];
      visit(k, linear);
    }
    for (std::size_t d = shape.size(); d-- > 0;) {
      if (++local[d] < shape[d]) break;
      local[d] = 0;
    }
  }
}

/// Runs the example on this rank; returns the exit status (0 when every rank's target
/// shard is right, 1 when not, 2 on bad input).
int reshard(int argc, char** argv, int rank) {
  const std::string mesh_text = argc > 1 ? argv[1] : "{x:4, y:2}";
  const std::string src_text = argc > 2 ? argv[2] : "f32[{x}16, {y}8]";
  const std::string dst_text = argc > 3 ? argv[3] : "f32[{y}16, {x}8]";
  auto say = [rank](const std::string& text) {
    if (rank == 0) std::printf("%s\n", text.c_str());
  };
  auto refuse = [&say](const std::string& text, int status) {
    say(text);
    return status;
  };
  auto mesh = redist::parse_mesh(mesh_text);
  if (!mesh) return refuse("mesh: " + mesh.error().to_string(), 2);
  auto src = redist::parse_type(src_text, *mesh);
  if (!src) return refuse("source: " + src.error().to_string(), 2);
  auto dst = redist::parse_type(dst_text, *mesh);
  if (!dst) return refuse("target: " + dst.error().to_string(), 2);
  if (src->elem != redist::ElemType::f32) return refuse("this example fills f32 arrays", 2);

  auto plan = redist::synthesize(*mesh, *src, *dst);
  if (!plan) return refuse("no plan: " + plan.error().to_string(), 2);
  say(redist::to_string(*plan));
  auto executor = redist::mpi::Executor::create(*plan, MPI_COMM_WORLD, redist::mpi::native_format(src->elem));
  if (!executor) return refuse("cannot run: " + executor.error().to_string(), 2);

  // Each element holds its global index (exact in f32 below 2^24).
  redist::mpi::kernels::Buffer source(executor->source_bytes());
  auto* in = reinterpret_cast<float*>(source.data());
  for_each_element(*mesh, *src, rank, [&](int64_t k, int64_t linear) { in[k] = static_cast<float>(linear); });

  auto target = executor->run(std::move(source));
  if (!target) return refuse("run failed: " + target.error().to_string(), 1);
  const auto* out = reinterpret_cast<const float*>(target->data());
  long long checked = 0, wrong = 0;
  for_each_element(executor->target().mesh, executor->target().type, rank, [&](int64_t k, int64_t linear) {
    ++checked;
    wrong += out[k] != static_cast<float>(linear);
  });
  long long totals[2] = {checked, wrong}, sums[2] = {0, 0};
  MPI_Reduce(totals, sums, 2, MPI_LONG_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  say("mpi_reshard: " + std::to_string(plan->steps.size()) + " steps on " + std::to_string(mesh->num_devices()) +
      " ranks, " + std::to_string(sums[0]) + " elements checked, " + std::to_string(sums[1]) + " wrong");
  int failed = wrong ? 1 : 0, any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return any;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const int status = reshard(argc, argv, rank);
  MPI_Finalize();
  return status;
}
