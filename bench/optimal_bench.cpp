// Speed of optimal_plan() (Google Benchmark): 20 seeded random cases for each mesh rank
// 1..6 and array rank 1..4 (at most 4,096 devices), each timed once; counters give the
// median, 90th percentile and max over cases, and the share that hit the search cap
// (5,000 expanded states, as in the comparison harness). The model is the harness's:
// the first of two or more axes inter-node.

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>

#include "corpus.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/optimal.hpp"

namespace {

using namespace redist;

constexpr int kCasesPerPoint = 20;

void BM_Optimal(benchmark::State& state) {
  corpus::RandomSuiteOptions o;
  o.count = kCasesPerPoint;
  o.seed = 1000 + static_cast<uint64_t>(state.range(0) * 10 + state.range(1));
  o.min_axes = o.max_axes = static_cast<int>(state.range(0));
  o.min_rank = o.max_rank = static_cast<int>(state.range(1));
  const auto cases = corpus::random_cases(o);
  std::vector<CostModel> models;
  for (const auto& c : cases) {
    CostModel m;
    if (c.mesh.rank() >= 2) m.axis_class[c.mesh.axes()[0].name] = LinkClass::inter;
    models.push_back(m);
  }
  OptimalOptions options;
  options.max_expanded = 5000;
  std::vector<double> us;
  int capped = 0;
  std::size_t i = 0;
  for (auto _ : state) {
    const std::size_t k = i++ % cases.size();
    const auto& c = cases[k];
    const auto start = std::chrono::steady_clock::now();
    auto plan = optimal_plan(models[k], c.mesh, c.src, c.target_mesh, c.dst, options);
    us.push_back(std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - start).count());
    capped += !plan && plan.error().message.find("stopped after") != std::string::npos;
    benchmark::DoNotOptimize(plan);
  }
  std::sort(us.begin(), us.end());
  state.counters["median_us"] = us[us.size() / 2];
  state.counters["p90_us"] = us[us.size() * 9 / 10];
  state.counters["max_us"] = us.back();
  state.counters["capped_share"] = static_cast<double>(capped) / static_cast<double>(us.size());
}
BENCHMARK(BM_Optimal)->ArgsProduct({{1, 2, 3, 4, 5, 6}, {1, 2, 3, 4}})->ArgNames({"axes", "rank"})
    ->Unit(benchmark::kMicrosecond)->Iterations(kCasesPerPoint);

}  // namespace

BENCHMARK_MAIN();
