// The MPI runtime on random plans over random meshes with exactly as many devices as the
// job has ranks: random walks of well-typed steps (every kind, sub-axes, reductions,
// device-order changes, explicit lowerings) and synthesized plans (and the baselines)
// between random types. Rank 0 draws each case and broadcasts its plan text; the seed
// is REDIST_MPI_SEED (ctest sets it: the REDIST_MPI_SEED cache variable, 1 by default)
// or random, and is printed.

#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "harness.hpp"
#include "redist/synth/baselines.hpp"
#include "redist/plan/lowering.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/synth/synthesize.hpp"
#include "tests/synth/plan_gen.hpp"

namespace redist::mpi::testing {
namespace {

using Rng = std::mt19937_64;

/// The seed of this run, the same on every rank.
uint64_t run_seed() {
  uint64_t seed = 0;
  if (world_rank() == 0) {
    const char* text = std::getenv("REDIST_MPI_SEED");
    seed = text ? std::strtoull(text, nullptr, 10) : std::random_device{}();
    std::printf("REDIST_MPI_SEED=%llu\n", static_cast<unsigned long long>(seed));
  }
  MPI_Bcast(&seed, 1, MPI_UINT64_T, 0, MPI_COMM_WORLD);
  return seed;
}

/// Uniform integer in [lo, hi].
int64_t uniform(Rng& rng, int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); }

/// Ordered factorizations of `n` into 1..3 axis sizes, each at least 2 (n itself for n < 4).
std::vector<std::vector<int64_t>> factorizations(int64_t n) {
  std::vector<std::vector<int64_t>> out = {{n}};
  for (int64_t a = 2; a < n; ++a) {
    if (n % a != 0) continue;
    for (const auto& rest : factorizations(n / a)) {
      if (rest.size() >= 3) continue;
      std::vector<int64_t> f = {a};
      f.insert(f.end(), rest.begin(), rest.end());
      out.push_back(f);
    }
  }
  return out;
}

/// `mesh` with a random device order.
Mesh shuffled(Rng& rng, const Mesh& mesh) {
  std::vector<int64_t> order;
  for (int64_t d = 0; d < mesh.num_devices(); ++d) order.push_back(d);
  std::shuffle(order.begin(), order.end(), rng);
  return Mesh::create(mesh.axes(), std::move(order)).value();
}

/// A random mesh of exactly `devices` devices, sometimes with a shuffled device order.
Mesh random_mesh(Rng& rng, int64_t devices) {
  static const char* names[] = {"x", "y", "z"};
  const auto all = factorizations(devices);
  const auto& sizes = all[static_cast<std::size_t>(uniform(rng, 0, static_cast<int64_t>(all.size()) - 1))];
  std::vector<MeshAxis> axes;
  for (std::size_t i = 0; i < sizes.size(); ++i) axes.push_back({names[i], sizes[i]});
  const Mesh mesh = Mesh::create(std::move(axes)).value();
  return uniform(rng, 0, 3) == 0 ? shuffled(rng, mesh) : mesh;
}

/// A random type over `mesh` from the shared RapidCheck generator, drawn with `rng`.
DistType random_type(Rng& rng, const Mesh& mesh, bool reductions) {
  redist::testing::TypeOptions options;
  options.reductions = reductions;
  options.max_multiple = 4;
  return redist::testing::gen_type(mesh, options)(rc::Random(rng()), 50).value();
}

/// A random walk of up to 6 well-typed steps from a random source on a random mesh
/// (each step's kind drawn uniformly among the kinds that apply, permutes, which always
/// apply, less often); some steps carry
/// their explicit lowering.
Plan random_walk(Rng& rng, int64_t devices) {
  Plan plan;
  plan.mesh = random_mesh(rng, devices);
  plan.source = random_type(rng, plan.mesh, true);
  TypedState state{plan.mesh, plan.source};
  const int64_t steps = uniform(rng, 1, 6);
  for (int64_t i = 0; i < steps; ++i) {
    // Valid candidates by kind; a kind is drawn first so that each gets its share.
    std::map<std::string_view, std::vector<std::pair<Step, TypedState>>> valid;
    for (auto& op : redist::testing::candidate_ops(state)) {
      Step step{std::move(op), std::nullopt, std::nullopt};
      if (auto next = apply_step(state, step)) valid[step_name(step.op)].emplace_back(std::move(step), std::move(*next));
    }
    if (valid.empty()) break;
    auto draw = [&] { return std::next(valid.begin(), uniform(rng, 0, static_cast<int64_t>(valid.size()) - 1)); };
    auto drawn = draw();
    if (drawn->first == "collective_permute") drawn = draw();  // a permute always applies: draw again once
    const auto& kind = drawn->second;
    auto [step, next] = kind[static_cast<std::size_t>(uniform(rng, 0, static_cast<int64_t>(kind.size()) - 1))];
    if (uniform(rng, 0, 3) == 0) {
      if (std::holds_alternative<CollectivePermute>(step.op)) step.pairs = permute_pairs(state, next);
      else step.groups = step_groups(state, step);
    }
    plan.steps.push_back(std::move(step));
    state = std::move(next);
  }
  plan.target = state.type;
  return plan;
}

/// Runs the plan rank 0 holds (as text) on every rank; returns the failure text or "".
std::string run_root_plan(const std::string& root_text) {
  const std::string text = broadcast(root_text);
  auto plan = parse_plan(text);
  if (!plan) return "plan text does not parse: " + plan.error().to_string();
  const std::string verdict = run_and_compare(*plan);
  return verdict.empty() ? "" : verdict + "\nplan:\n" + text;
}

TEST(MpiRuntimeRandom, RandomWalkPlans) {
  Rng rng(run_seed());
  const int cases = 150;
  std::map<std::string, int> kinds;  // steps run, by kind (rank 0)
  for (int i = 0; i < cases; ++i) {
    const Plan plan = world_rank() == 0 ? random_walk(rng, world_size()) : Plan{};
    for (const auto& step : plan.steps) ++kinds[std::string(step_name(step.op)) + (step.groups || step.pairs ? "*" : "")];
    const std::string failure = run_root_plan(world_rank() == 0 ? to_string(plan) : "");
    ASSERT_EQ(failure, "") << "case " << i;
  }
  if (world_rank() == 0) {
    std::printf("%d random plans on %d ranks; steps run (* explicit lowering):", cases, world_size());
    for (const auto& [kind, count] : kinds) std::printf(" %s %d", kind.c_str(), count);
    std::printf("\n");
  }
}

TEST(MpiRuntimeRandom, SynthesizedAndBaselinePlans) {
  Rng rng(run_seed() ^ 0x5eed);
  const int cases = 80;
  int ran = 0;
  std::map<std::string, int> kinds;  // steps run, by kind (rank 0)
  for (int i = 0; i < cases; ++i) {
    std::vector<std::string> texts;
    if (world_rank() == 0) {
      const Mesh mesh = random_mesh(rng, world_size());
      const Mesh dst_mesh = uniform(rng, 0, 3) == 0 ? shuffled(rng, mesh) : mesh;
      const DistType src = random_type(rng, mesh, false);
      DistType dst = random_type(rng, dst_mesh, false);
      dst.elem = src.elem;
      dst.dims.resize(src.rank());
      for (std::size_t d = 0; d < src.rank(); ++d) {
        dst.dims[d].global = src.dims[d].global;
        if (dst.dims[d].global % tile_count(dst.dims[d]) != 0) dst.dims[d].axes.clear();
      }
      if (auto plan = synthesize(mesh, src, dst_mesh, dst)) texts.push_back(to_string(*plan));
      for (Baseline b : {Baseline::gather_then_slice, Baseline::xla_style})
        if (auto plan = baseline_plan(b, mesh, src, dst_mesh, dst)) texts.push_back(to_string(*plan));
    }
    int count = static_cast<int>(texts.size());
    MPI_Bcast(&count, 1, MPI_INT, 0, MPI_COMM_WORLD);
    texts.resize(static_cast<std::size_t>(count));
    for (const auto& text : texts) {
      ASSERT_EQ(run_root_plan(text), "") << "case " << i;
      ++ran;
      if (auto plan = parse_plan(text))
        for (const auto& step : plan->steps) ++kinds[std::string(step_name(step.op))];
    }
  }
  if (world_rank() == 0) {
    std::printf("%d synthesized and baseline plans on %d ranks; steps run:", ran, world_size());
    for (const auto& [kind, count] : kinds) std::printf(" %s %d", kind.c_str(), count);
    std::printf("\n");
  }
  EXPECT_GT(ran, cases / 2);
}

}  // namespace
}  // namespace redist::mpi::testing
