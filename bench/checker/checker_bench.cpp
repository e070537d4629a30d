// Proof time against device count. The case is the pod-scale transpose of the anchor
// corpus, bf16[{a,b}65536, {c}65536, {d}1024] -> bf16[{d}65536, {a,b,c}65536, 1024],
// on meshes {a, b, c, d} of 8 ... 2^20 devices (powers of two spread over the four
// axes). The counter query_bytes is the size of the four queries' SMT-LIB2 text: it
// must not grow with the device count. The checker proves the synthesized plan on the full-size array; the
// interpreter runs the same plan on the smallest array of that shape the mesh allows
// (G x G x d elements), as far as memory lets it.

#include <benchmark/benchmark.h>

#include <array>
#include <string>

#include "redist/synth/synthesize.hpp"
#include "redist/verify/checker.hpp"
#include "redist/verify/interpreter.hpp"

namespace {

using namespace redist;

/// The mesh {a, b, c, d} with 2^log2_devices devices, exponents spread evenly.
Mesh mesh_of(int log2_devices) {
  std::array<int64_t, 4> sizes{1, 1, 1, 1};
  for (int i = 0; i < log2_devices; ++i) sizes[static_cast<std::size_t>(i % 4)] *= 2;
  return Mesh::create({{"a", sizes[0]}, {"b", sizes[1]}, {"c", sizes[2]}, {"d", sizes[3]}}).value();
}

/// The plan of the transpose with dims of `g`, `g` and `h` elements.
Plan transpose_plan(const Mesh& mesh, int64_t g, int64_t h) {
  const std::string G = std::to_string(g), H = std::to_string(h);
  const DistType src = parse_type("bf16[{a,b}" + G + ", {c}" + G + ", {d}" + H + "]", mesh).value();
  const DistType dst = parse_type("bf16[{d}" + G + ", {a,b,c}" + G + ", " + H + "]", mesh).value();
  return synthesize(mesh, src, dst).value();
}

void BM_Prove(benchmark::State& state) {
  const Mesh mesh = mesh_of(static_cast<int>(state.range(0)));
  const Plan plan = transpose_plan(mesh, 65536, 1024);
  double solver_ms = 0;
  CheckOptions keep;
  keep.keep_smt2 = true;
  const auto texts = check_plan(plan, keep);
  if (!texts.ok()) state.SkipWithError("check failed");
  const double query_bytes = texts.ok() ? static_cast<double>(texts->correct.smt2.size() + texts->memory.smt2.size() +
                                                              texts->no_peak.smt2.size() + texts->tight.smt2.size())
                                        : 0;
  for (auto _ : state) {
    auto report = check_plan(plan);
    if (!report.ok() || !report->verified()) state.SkipWithError("not verified");
    solver_ms = report->solver_ms;
    benchmark::DoNotOptimize(report);
  }
  state.counters["devices"] = static_cast<double>(mesh.num_devices());
  state.counters["solver_ms"] = solver_ms;
  state.counters["query_bytes"] = query_bytes;
}

void BM_Interpret(benchmark::State& state) {
  const Mesh mesh = mesh_of(static_cast<int>(state.range(0)));
  const int64_t g = mesh.num_devices(), h = mesh.axis_size(3);
  const Plan plan = transpose_plan(mesh, g, h);
  const MeshData data = distribute(mesh, plan.source);
  for (auto _ : state) {
    auto out = run_plan(plan, data);
    if (!out.ok() || compare(mesh, *plan.target, *out)) state.SkipWithError("interpreter disagrees");
    benchmark::DoNotOptimize(out);
  }
  state.counters["devices"] = static_cast<double>(mesh.num_devices());
  state.counters["elements"] = static_cast<double>(g * g * h);
}

BENCHMARK(BM_Prove)->DenseRange(3, 20, 1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Interpret)->DenseRange(3, 11, 1)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
