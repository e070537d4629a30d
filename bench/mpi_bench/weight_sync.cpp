// Weight sync between device sets (see weight_sync.hpp). Each of N arrays f32[R, 4096]
// is f32[{fsdp}R, 4096] on {fsdp:4} (ranks 0-3) and alternately column- and row-parallel
// on the inference ranks 4-7: {tp:4}, or with --replicas 2 {dp:2, tp:2} (two inference
// replicas of tp 2, each holding the whole set). The methods move the whole set:
//   redist           the planned transfer of each array (the MPI runtime), ranked by
//                    bytes (one transfer);
//   redist staged    (replicas only) the plan under the default link classes, whose links
//                    between the meshes are slower than those within one: each element
//                    sent to one replica, then an all_gather over dp among the inference
//                    ranks (docs/meshes.md "Staged plans");
//   gather+bcast     each array gathered to rank 0, broadcast to ranks 4-7, sliced there
//                    (the naive sync);
//   one-shot         one MPI_Alltoallv per array of exactly the pieces each rank lacks.
// Rounds alternate the methods in a shuffled order (the same on every rank); the table
// gives the median over rounds of the slowest rank's time for the whole set, the most
// bytes one rank receives, and the bytes that cross from the trainer to the inference
// ranks in all (what a slow link between the meshes carries).

#include "weight_sync.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "alltoallv.hpp"
#include "redist/backends/mpi/runtime.hpp"
#include "redist/core/semantics.hpp"
#include "redist/plan/figures.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/synthesize.hpp"
#include "shard_data.hpp"

namespace redist::mpi::bench {

namespace {

constexpr int64_t kCols = 4096;
constexpr double kMiB = 1024.0 * 1024.0;

/// One weight array: its source and target placements.
struct Weight {
  TypedState source, target;
};

/// A method syncs array i from this rank's source shard (empty outside the trainer)
/// and returns its target shard (empty outside the inference mesh).
using Sync = std::function<Result<kernels::Buffer>(std::size_t, kernels::Buffer)>;

struct Method {
  std::string name;
  Sync sync;
  int64_t received = 0;  // bytes this rank receives over the whole set
  int64_t across = 0;    // of them, bytes from the trainer's ranks (on an inference rank)
  std::vector<double> seconds;
};

/// The bytes `rank` receives in `plan`: over all its steps, and in its transfer (from
/// the trainer's ranks).
std::pair<int64_t, int64_t> plan_received(const Plan& plan, int rank) {
  const auto states = type_plan(plan).value();
  std::pair<int64_t, int64_t> out{0, 0};
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const TypedState before = k == 0 ? TypedState{plan.mesh, plan.source} : states[k - 1];
    const auto bytes = static_cast<int64_t>(device_recv_bytes(before, states[k], plan.steps[k], rank));
    out.first += bytes;
    if (std::holds_alternative<Transfer>(plan.steps[k].op)) out.second += bytes;
  }
  return out;
}

/// The naive sync of `w`: MPI_Gather of the row blocks to rank 0 over the trainer,
/// MPI_Bcast of the whole array from rank 0 to the inference ranks, a local slice there.
Result<kernels::Buffer> gather_broadcast(const Weight& w, kernels::Buffer shard, MPI_Comm trainer, MPI_Comm fanout,
                                         int rank) {
  const int64_t rows = w.source.type.dims[0].global, bytes = rows * kCols * 4;
  kernels::Buffer whole(rank == 0 || fanout != MPI_COMM_NULL ? static_cast<std::size_t>(bytes) : 0);
  if (trainer != MPI_COMM_NULL &&
      MPI_Gather(shard.data(), static_cast<int>(shard.size()), MPI_BYTE, whole.data(), static_cast<int>(shard.size()),
                 MPI_BYTE, 0, trainer) != MPI_SUCCESS)
    return Error{Error::Kind::runtime, "MPI_Gather failed"};
  if (fanout != MPI_COMM_NULL && MPI_Bcast(whole.data(), static_cast<int>(bytes), MPI_BYTE, 0, fanout) != MPI_SUCCESS)
    return Error{Error::Kind::runtime, "MPI_Bcast failed"};
  if (!w.target.mesh.has_device(rank)) return kernels::Buffer();
  const auto box = shard_box(w.target.mesh, w.target.type, w.target.mesh.coords_of_device(rank));
  const auto shape = local_shape(w.target.type);
  kernels::Buffer out(static_cast<std::size_t>(shape[0] * shape[1] * 4));
  const std::vector<int64_t> whole_shape{rows, kCols}, start{box[0].start, box[1].start}, zero{0, 0};
  kernels::copy_box(whole.data(), whole_shape, start, out.data(), shape, zero, shape, 4);
  return out;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

}  // namespace

int run_weight_sync(int min_mib, int reps, int replicas) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 8) {
    if (rank == 0) std::fprintf(stderr, "mpi_bench --weight-sync needs 8 ranks (4 trainer, 4 inference)\n");
    return 2;
  }
  const Mesh trainer = parse_mesh("{fsdp:4}").value();
  const std::string inference_text = replicas == 1 ? "{tp:4} devices=[4,5,6,7]" : "{dp:2, tp:2} devices=[4,5,6,7]";
  const Mesh inference = parse_mesh(inference_text).value();
  // Arrays of 64 MiB (f32[4096, 4096]) until the set reaches min_mib.
  std::vector<Weight> weights;
  for (int64_t total = 0; total < int64_t{min_mib} * (1 << 20); total += kCols * kCols * 4) {
    const bool column = weights.size() % 2 == 0;
    const std::string rows = std::to_string(kCols);
    weights.push_back(
        {{trainer, parse_type("f32[{fsdp}" + rows + ", 4096]", trainer).value()},
         {inference,
          parse_type(column ? "f32[" + rows + ", {tp}4096]" : "f32[{tp}" + rows + ", 4096]", inference).value()}});
  }

  // redist: the planned transfers, ranked by bytes, and (with replicas) the staged plans
  // under the default link classes.
  const CostModel links;
  auto planned = [&](const CostModel* model, std::vector<std::shared_ptr<Executor>>& executors,
                     Method& method) -> bool {
    for (const auto& w : weights) {
      SynthOptions options;
      options.cost_model = model;
      auto plan = synthesize(w.source.mesh, w.source.type, w.target.mesh, w.target.type, options);
      if (!plan) return std::fprintf(stderr, "%s\n", plan.error().to_string().c_str()), false;
      if (model && plan->steps.size() != 2) return std::fprintf(stderr, "the plan is not staged\n"), false;
      const auto [received, across] = plan_received(*plan, rank);
      method.received += received;
      method.across += across;
      auto ex = Executor::create(*plan, MPI_COMM_WORLD, native_format(ElemType::f32));
      if (!ex) return std::fprintf(stderr, "%s\n", ex.error().to_string().c_str()), false;
      executors.push_back(std::make_shared<Executor>(std::move(*ex)));
    }
    return true;
  };
  std::vector<std::shared_ptr<Executor>> direct, staged;
  Method ours{"redist (transfer)", [&](std::size_t i, kernels::Buffer s) { return direct[i]->run(std::move(s)); }};
  Method ours_staged{"redist staged (transfer + all_gather)",
                     [&](std::size_t i, kernels::Buffer s) { return staged[i]->run(std::move(s)); }};
  if (!planned(nullptr, direct, ours) || (replicas > 1 && !planned(&links, staged, ours_staged))) return 1;
  // gather+bcast: the trainer's communicator and rank 0 with the inference ranks.
  MPI_Comm trainer_comm = MPI_COMM_NULL, fanout = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, rank < 4 ? 0 : MPI_UNDEFINED, rank, &trainer_comm);
  MPI_Comm_split(MPI_COMM_WORLD, rank == 0 || rank >= 4 ? 0 : MPI_UNDEFINED, rank, &fanout);
  const int64_t array_bytes = kCols * kCols * 4;
  const auto arrays = static_cast<int64_t>(weights.size());
  // one-shot: one MPI_Alltoallv schedule per array.
  std::vector<std::shared_ptr<OneShotAlltoallv>> one_shots;
  int64_t one_shot_recv = 0;
  for (const auto& w : weights) {
    auto o = OneShotAlltoallv::create(w.source, w.target, MPI_COMM_WORLD, 4);
    if (!o) return std::fprintf(stderr, "%s\n", o.error().to_string().c_str()), 1;
    one_shot_recv += o->received_bytes();
    one_shots.push_back(std::make_shared<OneShotAlltoallv>(std::move(*o)));
  }
  std::vector<Method> methods = {std::move(ours)};
  if (replicas > 1) methods.push_back(std::move(ours_staged));
  methods.push_back(
      {"gather to rank 0 + broadcast",
       [&](std::size_t i, kernels::Buffer s) { return gather_broadcast(weights[i], std::move(s), trainer_comm, fanout, rank); },
       rank >= 4 ? array_bytes * arrays : rank == 0 ? array_bytes * 3 / 4 * arrays : 0,
       rank >= 4 ? array_bytes * arrays : 0,
       {}});
  methods.push_back({"one-shot Alltoallv", [&](std::size_t i, kernels::Buffer s) { return one_shots[i]->run(std::move(s)); },
                     one_shot_recv, rank >= 4 ? one_shot_recv : 0, {}});

  std::vector<kernels::Buffer> shards;
  for (const auto& w : weights)
    shards.push_back(w.source.mesh.has_device(rank) ? fill_shard(w.source, rank) : kernels::Buffer());
  // One round of `m`: every array, every target element checked when `check`.
  auto round = [&](Method& m, bool check) -> bool {
    MPI_Barrier(MPI_COMM_WORLD);
    const double start = MPI_Wtime();
    std::vector<kernels::Buffer> outs;
    for (std::size_t i = 0; i < weights.size(); ++i) {
      auto out = m.sync(i, copy_to_buffer(shards[i].data(), shards[i].size()));
      if (!out) return std::fprintf(stderr, "%s: %s\n", m.name.c_str(), out.error().to_string().c_str()), false;
      outs.push_back(std::move(*out));
    }
    double seconds = MPI_Wtime() - start, slowest = 0;
    MPI_Allreduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (!check) {
      m.seconds.push_back(slowest);
      return true;
    }
    int wrong = 0, any = 0;
    for (std::size_t i = 0; i < weights.size() && weights[i].target.mesh.has_device(rank); ++i) {
      const std::string diff = check_shard(outs[i], weights[i].target, rank);
      if (!diff.empty()) {
        std::printf("%s is wrong on rank %d, array %zu: %s\n", m.name.c_str(), rank, i, diff.c_str());
        wrong = 1;
      }
    }
    MPI_Allreduce(&wrong, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return any == 0;
  };
  for (auto& m : methods)  // warm-up and check, untimed
    if (!round(m, true)) return 1;
  std::vector<std::size_t> order(methods.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::mt19937 shuffler(12345);
  for (int r = 0; r < reps; ++r) {
    std::shuffle(order.begin(), order.end(), shuffler);
    for (std::size_t i : order)
      if (!round(methods[i], false)) return 1;
  }

  const double total_mib = static_cast<double>(array_bytes) * static_cast<double>(weights.size()) / kMiB;
  if (rank == 0)
    std::printf("weight sync: %zu arrays f32[4096, 4096] (%.0f MiB) from {fsdp:4} (ranks 0-3) to %s, alternately "
                "column- and row-parallel; %d rounds (median of the slowest rank)\n\n"
                "| method | recv MiB (max rank) | MiB from trainer to inference (all ranks) | median ms | vs redist |\n"
                "|---|---|---|---|---|\n",
                weights.size(), total_mib, inference_text.c_str(), reps);
  const double first = median(methods[0].seconds);
  for (auto& m : methods) {
    int64_t most = 0, across = 0;
    MPI_Allreduce(&m.received, &most, 1, MPI_INT64_T, MPI_MAX, MPI_COMM_WORLD);
    MPI_Allreduce(&m.across, &across, 1, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
      std::printf("| %s | %.1f | %.1f | %.1f | %.2f |\n", m.name.c_str(), static_cast<double>(most) / kMiB,
                  static_cast<double>(across) / kMiB, median(m.seconds) * 1e3, median(m.seconds) / first);
  }
  if (trainer_comm != MPI_COMM_NULL) MPI_Comm_free(&trainer_comm);
  if (fanout != MPI_COMM_NULL) MPI_Comm_free(&fanout);
  return 0;
}

}  // namespace redist::mpi::bench
