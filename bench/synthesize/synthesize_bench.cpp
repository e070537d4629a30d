// Speed of synthesize(): rank-4 types over 4-axis meshes (seeded random pairs; the
// median and 90th percentile of the per-call thread CPU time reported as counters, for
// the default call and for one without a search), and a few anchors.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <ctime>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/synthesize.hpp"

namespace {

using namespace redist;

struct Pair {
  Mesh mesh;
  DistType src;
  DistType dst;
};

/// A random tiling of 4 dims by the axes of `mesh` (each whole, or split in two halves
/// when its size is 4), each piece in a random dim or replicated, in random order.
std::vector<Dim> random_tiling(const Mesh& mesh, std::mt19937& rng) {
  std::vector<AxisRef> pieces;
  for (const auto& a : mesh.axes()) {
    if (a.size == 4 && rng() % 3 == 0) {
      pieces.push_back({a.name, 1, 2, true});
      pieces.push_back({a.name, 2, 2, true});
    } else {
      pieces.push_back({a.name, 1, a.size, false});
    }
  }
  std::shuffle(pieces.begin(), pieces.end(), rng);
  std::vector<Dim> dims(4);
  for (const auto& p : pieces)
    if (const auto where = rng() % 5; where < 4) dims[where].axes.push_back(p);
  return dims;
}

/// `count` seeded random pairs on 4-axis meshes with axes of size 2 or 4.
std::vector<Pair> random_pairs(int count) {
  std::mt19937 rng(20240611);
  std::vector<Pair> pairs;
  while (static_cast<int>(pairs.size()) < count) {
    std::vector<MeshAxis> axes;
    for (const char* name : {"x", "y", "z", "w"}) axes.push_back({name, rng() % 2 ? 4 : 2});
    Pair p{Mesh::create(axes).value(), {}, {}};
    p.src.dims = random_tiling(p.mesh, rng);
    p.dst.dims = random_tiling(p.mesh, rng);
    for (std::size_t d = 0; d < 4; ++d)
      p.src.dims[d].global = p.dst.dims[d].global =
          std::lcm(tile_count(p.src.dims[d]), tile_count(p.dst.dims[d])) * 8;
    pairs.push_back(std::move(p));
  }
  return pairs;
}

/// CPU time of the calling thread in nanoseconds (immune to other processes' load).
double thread_cpu_ns() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e9 + static_cast<double>(t.tv_nsec);
}

/// Sets counters `name`_median_cpu_us and `name`_p90_cpu_us from the times `ns`.
void report(benchmark::State& state, const std::string& name, std::vector<double>& ns) {
  std::sort(ns.begin(), ns.end());
  state.counters[name + "median_cpu_us"] = ns[ns.size() / 2] / 1000;
  state.counters[name + "p90_cpu_us"] = ns[ns.size() * 9 / 10] / 1000;
}

// Each iteration times the default call and, right after it on the same pair, a call
// without a search (`no_search_` counters): the two side by side, alternating. Arg 0:
// the default model (one link speed: the default call does not search either); arg 1:
// axis x inter-node, where the default call searches (SynthOptions::max_expanded).
void BM_SynthesizeRank4(benchmark::State& state) {
  const auto pairs = random_pairs(256);
  CostModel inter_x;
  inter_x.axis_class["x"] = LinkClass::inter;
  SynthOptions options, no_search;
  if (state.range(0) == 1) options.cost_model = no_search.cost_model = &inter_x;
  no_search.max_expanded = 0;
  std::vector<double> ns, no_search_ns;
  ns.reserve(1 << 20);
  no_search_ns.reserve(1 << 20);
  std::size_t i = 0;
  for (auto _ : state) {
    const Pair& p = pairs[i++ % pairs.size()];
    double start = thread_cpu_ns();
    auto plan = synthesize(p.mesh, p.src, p.dst, options);
    if (ns.size() < ns.capacity()) ns.push_back(thread_cpu_ns() - start);
    benchmark::DoNotOptimize(plan);
    start = thread_cpu_ns();
    auto seed = synthesize(p.mesh, p.src, p.dst, no_search);
    if (no_search_ns.size() < no_search_ns.capacity()) no_search_ns.push_back(thread_cpu_ns() - start);
    benchmark::DoNotOptimize(seed);
  }
  report(state, "", ns);
  report(state, "no_search_", no_search_ns);
}
BENCHMARK(BM_SynthesizeRank4)->Arg(0)->Arg(1);

void BM_SynthesizeAnchor(benchmark::State& state, const char* mesh, const char* src, const char* dst) {
  const Mesh m = parse_mesh(mesh).value();
  const DistType s = parse_type(src, m).value(), d = parse_type(dst, m).value();
  for (auto _ : state) {
    auto plan = synthesize(m, s, d);
    benchmark::DoNotOptimize(plan);
  }
}
BENCHMARK_CAPTURE(BM_SynthesizeAnchor, jax21562_full_remat, "{x:4, y:2}", "f32[{y}16, 16, {x}16]",
                  "f32[16, {x,y}16, 16]");
BENCHMARK_CAPTURE(BM_SynthesizeAnchor, swap_diff_size_axes, "{x:4, y:2}", "f32[{x}16, {y}8]", "f32[{y}16, {x}8]");
BENCHMARK_CAPTURE(BM_SynthesizeAnchor, four_axes_transpose, "{x1:2, x2:2, y1:3, y2:2}", "f32[{x2,x1}12, {y2,y1}12]",
                  "f32[{y2,y1}12, {x2,x1}12]");
BENCHMARK_CAPTURE(BM_SynthesizeAnchor, pod_scale_transpose, "{a:16, b:16, c:16, d:16}",
                  "bf16[{a,b}65536, {c}65536, {d}1024]", "bf16[{d}65536, {a,b,c}65536, 1024]");

}  // namespace

BENCHMARK_MAIN();
