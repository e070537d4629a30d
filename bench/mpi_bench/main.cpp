// mpi_bench: wall time and peak resident memory of redist's plans against
// gather_then_slice, xla_style and a one-shot MPI_Alltoallv (pending reductions:
// against all_reduce_then_slice), on the anchors grown to arrays of at least --min-mib
// MiB, all methods interleaved in one job.
//
//   mpirun -np 8 build/bench/mpi_bench/mpi_bench [--anchors FILE] [--min-mib 64] [--reps 9]
//   mpirun -np 8 build/bench/mpi_bench/mpi_bench --anchors tests/data/partial_sums.txt
//   mpirun -np 8 build/bench/mpi_bench/mpi_bench --weight-sync [--replicas 2] [--min-mib 256] [--reps 9]
//     (trainer -> inference weight sync between device sets: weight_sync.hpp)
//
// Prints a Markdown table on rank 0: per case and method the steps, the bytes the
// busiest rank receives, the median over repetitions of the slowest rank's time, the
// ratio to redist's median, and the peak resident memory of the largest rank (absolute,
// and above what it held before the run), with the plan's modeled transient peak.

#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fmt/format.h>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "alltoallv.hpp"
#include "cases.hpp"
#include "memory.hpp"
#include "redist/backends/mpi/runtime.hpp"
#include "redist/core/bigint.hpp"
#include "redist/synth/baselines.hpp"
#include "redist/plan/figures.hpp"
#include "redist/synth/synthesize.hpp"
#include "shard_data.hpp"
#include "weight_sync.hpp"

namespace redist::mpi::bench {
namespace {

constexpr double kMiB = 1024.0 * 1024.0;

struct Options {
  std::string anchors = REDIST_ANCHORS_FILE;
  int64_t min_mib = 64;
  int reps = 9;
  bool weight_sync = false;
  int replicas = 1;  // inference replicas of the weight sync: 1 or 2
};

/// Options from the command line; nullopt (after a usage line) on a bad one.
std::optional<Options> parse_options(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--anchors" && has_value) o.anchors = argv[++i];
    else if (arg == "--min-mib" && has_value) o.min_mib = std::atoll(argv[++i]);
    else if (arg == "--reps" && has_value) o.reps = std::atoi(argv[++i]);
    else if (arg == "--weight-sync") o.weight_sync = true;
    else if (arg == "--replicas" && has_value) o.replicas = std::atoi(argv[++i]);
    else return std::nullopt;
  }
  if (o.min_mib < 1 || o.reps < 1 || (o.replicas != 1 && o.replicas != 2)) return std::nullopt;
  return o;
}

/// One way to do a case's redistribution.
struct Method {
  std::string name;
  std::string steps;              // plan steps, or "1" for the one-shot exchange
  int64_t recv_bytes = 0;         // this rank's received bytes
  std::optional<double> modeled;  // the plan's transient peak (bytes), when a plan
  std::function<Result<kernels::Buffer>(kernels::Buffer)> run;
};

/// What one method measured, reduced over ranks.
struct Measured {
  std::vector<double> seconds;  // per repetition, slowest rank
  int64_t peak = 0;             // largest rank's resident high-water mark
  int64_t extra = 0;            // largest rank's high-water mark above its resident set before
};

/// Max over ranks.
template <class T>
T max_over_ranks(T value, MPI_Datatype type) {
  T out{};
  MPI_Allreduce(&value, &out, 1, type, MPI_MAX, MPI_COMM_WORLD);
  return out;
}

/// The method running `plan` with the MPI runtime (f32 moved as 4 opaque bytes; s32
/// when it reduces, exact sums); its steps column says "= redist" when the plan is `ours`.
Result<Method> plan_method(const std::string& name, Result<Plan> plan, const Plan* ours, int rank) {
  if (!plan) return plan.error();
  const bool reduces = !plan->source.reduce_axes.empty();
  auto executor = Executor::create(*plan, MPI_COMM_WORLD, native_format(reduces ? ElemType::s32 : ElemType::f32));
  if (!executor) return executor.error();
  auto figures = plan_figures(*plan);
  if (!figures) return figures.error();
  auto states = type_plan(*plan);
  if (!states) return states.error();
  int64_t received = 0;
  TypedState before{plan->mesh, plan->source};
  for (std::size_t k = 0; k < plan->steps.size(); ++k) {
    received += static_cast<int64_t>(device_recv_bytes(before, (*states)[k], plan->steps[k], rank));
    before = (*states)[k];
  }
  auto shared = std::make_shared<Executor>(std::move(*executor));
  const std::string same = ours && ours->steps == plan->steps ? " (= redist)" : "";
  return Method{name, fmt::format("{}{}", plan->steps.size(), same), received,
                static_cast<double>(figures->transient_peak_bytes),
                [shared](kernels::Buffer source) { return shared->run(std::move(source)); }};
}

/// Runs `method` once from a copy of `source`; records the slowest rank's time and the
/// peaks into `m`; returns the result shard.
Result<kernels::Buffer> measure(const Method& method, const kernels::Buffer& source, Measured& m) {
  kernels::Buffer input = copy_to_buffer(source.data(), source.size());
  reset_peak_resident();
  const int64_t before = resident_bytes();
  MPI_Barrier(MPI_COMM_WORLD);
  const double start = MPI_Wtime();
  auto out = method.run(std::move(input));
  const double seconds = MPI_Wtime() - start;
  const int64_t peak = peak_resident_bytes();
  m.seconds.push_back(max_over_ranks(seconds, MPI_DOUBLE));
  m.peak = std::max(m.peak, max_over_ranks<int64_t>(peak, MPI_INT64_T));
  m.extra = std::max(m.extra, max_over_ranks<int64_t>(peak - before, MPI_INT64_T));
  return out;
}

/// Median of `values`.
double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

/// Benchmarks one case; prints its rows on rank 0. False when a method's result is wrong.
bool run_case(const BenchCase& c, const Options& options, int rank) {
  const TypedState source{c.mesh, c.source}, target{c.target_mesh, c.target};
  std::vector<Method> methods;
  std::vector<std::string> missing;
  auto add = [&](Result<Method> m, const std::string& name) {
    if (m) methods.push_back(std::move(*m));
    else missing.push_back(fmt::format("{} ({})", name, m.error().to_string()));
  };
  const auto our_plan = synthesize(c.mesh, c.source, c.target_mesh, c.target);
  add(plan_method("redist", our_plan, nullptr, rank), "redist");
  // Pending reductions: only all_reduce_then_slice runs them (the others move bytes).
  const bool reducing = !c.source.reduce_axes.empty();
  const auto baselines = reducing ? std::vector<Baseline>{Baseline::all_reduce_then_slice}
                                  : std::vector<Baseline>{Baseline::gather_then_slice, Baseline::xla_style};
  for (Baseline b : baselines)
    add(plan_method(std::string(baseline_name(b)), baseline_plan(b, c.mesh, c.source, c.target_mesh, c.target),
                    our_plan ? &*our_plan : nullptr, rank),
        std::string(baseline_name(b)));
  // The one-shot exchange moves bytes and cannot reduce.
  auto one_shot = reducing ? Result<OneShotAlltoallv>(unsupported_error("pending reductions"))
                           : OneShotAlltoallv::create(source, target, MPI_COMM_WORLD, 4);
  if (one_shot) {
    auto shared = std::make_shared<OneShotAlltoallv>(std::move(*one_shot));
    methods.push_back(Method{"one-shot Alltoallv", "1", shared->received_bytes(), std::nullopt,
                             [shared](kernels::Buffer s) { return shared->run(std::move(s)); }});
  } else if (!reducing) {
    missing.push_back(fmt::format("one-shot Alltoallv ({})", one_shot.error().to_string()));
  }

  const kernels::Buffer data = fill_shard(source, rank);
  std::vector<Measured> measured(methods.size());
  // Warm-up and check: one untimed run of each method, every element compared.
  for (std::size_t i = 0; i < methods.size(); ++i) {
    Measured warm;
    auto out = measure(methods[i], data, warm);
    const std::string wrong = out ? check_shard(*out, target, rank) : out.error().to_string();
    if (max_over_ranks<int>(wrong.empty() ? 0 : 1, MPI_INT)) {
      if (!wrong.empty()) std::printf("%s: %s is wrong on rank %d: %s\n", c.name.c_str(), methods[i].name.c_str(), rank, wrong.c_str());
      return false;
    }
  }
  // Repetitions, the methods interleaved in a fresh order each time (the same on every
  // rank) so that they share conditions and none always follows the same neighbour.
  std::vector<std::size_t> order(methods.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::mt19937 shuffler(12345);
  for (int r = 0; r < options.reps; ++r) {
    std::shuffle(order.begin(), order.end(), shuffler);
    for (std::size_t i : order)
      if (!measure(methods[i], data, measured[i])) return false;
  }

  const double array_mib = static_cast<double>(global_elements(c.source) * 4) / kMiB;
  const double lb_mib = static_cast<double>(lower_bound(c.mesh, c.source, c.target_mesh, c.target)->max) / kMiB;
  const double ours = median(measured[0].seconds);
  for (std::size_t i = 0; i < methods.size(); ++i) {
    const double recv = static_cast<double>(max_over_ranks<int64_t>(methods[i].recv_bytes, MPI_INT64_T)) / kMiB;
    if (rank != 0) continue;
    const double ms = median(measured[i].seconds) * 1e3;
    char modeled[32] = "-";
    if (methods[i].modeled) std::snprintf(modeled, sizeof modeled, "%.1f", *methods[i].modeled / kMiB);
    std::printf("| %s | %.0f MiB (LB %.1f) | %s | %s | %.1f | %.1f | %.2f | %.0f | %.0f | %s |\n",
                i == 0 ? c.name.c_str() : "", array_mib, lb_mib, methods[i].name.c_str(),
                methods[i].steps.c_str(), recv, ms, ms / (ours * 1e3), measured[i].peak / kMiB,
                measured[i].extra / kMiB, modeled);
  }
  if (rank == 0)
    for (const auto& m : missing) std::printf("|  |  | %s: not run |  |  |  |  |  |  |  |\n", m.c_str());
  std::fflush(stdout);
  return true;
}

int run(int argc, char** argv) {
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const auto options = parse_options(argc, argv);
  if (!options) {
    if (rank == 0) std::fprintf(stderr, "usage: mpi_bench [--anchors FILE | --weight-sync [--replicas 1|2]] [--min-mib N] [--reps N]\n");
    return 2;
  }
  if (options->weight_sync) return run_weight_sync(static_cast<int>(options->min_mib), options->reps, options->replicas);
  use_mmap_for_large_buffers();
  std::vector<std::string> skipped;
  auto cases = bench_cases(options->anchors, size, options->min_mib * (int64_t{1} << 20), skipped);
  if (!cases) {
    if (rank == 0) std::fprintf(stderr, "mpi_bench: %s\n", cases.error().to_string().c_str());
    return 2;
  }
  if (rank == 0) {
    std::printf("mpi_bench: %d ranks on %u hardware threads, arrays >= %lld MiB of f32, %d repetitions "
                "(median of the slowest rank)\n\n",
                size, std::thread::hardware_concurrency(), static_cast<long long>(options->min_mib), options->reps);
    std::printf("| case | array | method | steps | recv MiB (max rank) | median ms | vs redist | "
                "peak RSS MiB | extra RSS MiB | plan transient MiB |\n|---|---|---|---|---|---|---|---|---|---|\n");
  }
  for (const auto& c : *cases)
    if (!run_case(c, *options, rank)) return 1;
  if (rank == 0) {
    std::printf("\nCases grown from anchors:");
    for (const auto& c : *cases) std::printf(" %s (%s);", c.name.c_str(), c.note.c_str());
    std::printf("\nSkipped anchors:");
    for (const auto& s : skipped) std::printf(" %s;", s.c_str());
    std::printf("\n");
  }
  return 0;
}

}  // namespace
}  // namespace redist::mpi::bench

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  const int status = redist::mpi::bench::run(argc, argv);
  MPI_Finalize();
  return status;
}
