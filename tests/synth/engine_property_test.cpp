// The search engine's default plans on random pairs whose source and target split the
// mesh axes into sub-axes of their own (x:6 as x:(1)3·x:(3)2 on one side, x:(1)2·x:(2)3
// on the other): every plan type-checks, ends at the target, stays within
// max(source, target) bytes, never slices after it has received data (G3a), and the
// concrete interpreter finds every element in place; on fewer pairs the Z3 checker
// proves G1, G2 and G3a. The pairs the issue reported (ill-typed plans, plans whose
// G3a was refuted) are fixed cases. The fallback's exchange-last seeds keep their
// promise on the same pairs.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <numeric>

#include "redist/synth/cost_model.hpp"
#include "redist/synth/optimal.hpp"
#include "redist/synth/synthesize.hpp"
#include "redist/verify/checker.hpp"
#include "synth/src/synth_atoms.hpp"
#include "synth/src/synth_builders.hpp"
#include "synth/src/synth_scope.hpp"
#include "synth/synthesis_cases.hpp"
#include "synth/synthesis_checks.hpp"

namespace redist::testing {
namespace {

/// True when no all_slice follows a step that communicates (steps that move nothing,
/// moves_nothing(), neither communicate nor drop data).
bool slices_first(const Plan& plan) {
  bool received = false;
  for (const auto& step : plan.steps) {
    if (moves_nothing(step)) continue;
    const bool slice = std::holds_alternative<AllSlice>(step.op);
    if (slice && received) return false;
    received = received || !slice;
  }
  return true;
}

/// The pieces of each axis of `mesh` for one type: a random chain of sub-axes (sizes
/// the axis's divisors, major to minor), each piece kept or left replicated.
rc::Gen<std::vector<AxisRef>> gen_own_pieces(const Mesh& mesh) {
  return rc::gen::exec([mesh] {
    std::vector<AxisRef> pieces;
    for (const auto& axis : mesh.axes()) {
      int64_t pre = 1;
      while (pre < axis.size) {
        const int64_t rest = axis.size / pre;
        std::vector<int64_t> sizes;
        for (int64_t k = 2; k <= rest; ++k)
          if (rest % k == 0) sizes.push_back(k);
        const int64_t k = *rc::gen::elementOf(sizes);
        if (*rc::gen::inRange(0, 5) != 0) pieces.push_back({axis.name, pre, k, !(pre == 1 && k == axis.size)});
        pre *= k;
      }
    }
    return pieces;
  });
}

/// Pieces placed at random into `rank` dims, in a random order.
std::vector<Dim> place(std::vector<AxisRef> pieces, int rank) {
  std::vector<Dim> dims(static_cast<std::size_t>(rank));
  const auto keys = *rc::gen::container<std::vector<unsigned>>(pieces.size(), rc::gen::arbitrary<unsigned>());
  std::vector<std::size_t> idx(pieces.size());
  std::iota(idx.begin(), idx.end(), 0);
  std::stable_sort(idx.begin(), idx.end(), [&](auto a, auto b) { return keys[a] < keys[b]; });
  for (auto i : idx) dims[static_cast<std::size_t>(*rc::gen::inRange(0, rank))].axes.push_back(pieces[i]);
  return dims;
}

/// A random pair on a mesh of up to 4 axes and 64 devices, rank 1 to 3, each side with
/// its own sub-axis splits, sometimes with another device order.
rc::Gen<ReshardCase> gen_split_case() {
  return rc::gen::exec([] {
    MeshOptions options;
    options.max_devices = 64;
    options.max_axis_size = 8;
    ReshardCase c;
    c.mesh = *gen_mesh(options);
    c.target_mesh = *rc::gen::inRange(0, 5) == 0 ? *gen_reordered(c.mesh) : c.mesh;
    const int rank = *rc::gen::inRange(1, 4);
    static const ElemType elems[] = {ElemType::f32, ElemType::bf16, ElemType::s8};
    c.src.elem = c.dst.elem = elems[*rc::gen::inRange(0, 3)];
    c.src.dims = place(*gen_own_pieces(c.mesh), rank);
    c.dst.dims = place(*gen_own_pieces(c.mesh), rank);
    for (std::size_t d = 0; d < c.src.dims.size(); ++d) {
      const int64_t global = std::lcm(tile_count(c.src.dims[d]), tile_count(c.dst.dims[d])) *
                             *rc::gen::inRange<int64_t>(1, 3);
      c.src.dims[d].global = c.dst.dims[d].global = global;
    }
    RC_PRE(validate(c.src, c.mesh).ok() && validate(c.dst, c.target_mesh).ok());
    return c;
  });
}

/// The cost model whose first mesh axis of `c` is inter-node (the others intra-node),
/// under which the default plans take their link-class forms (split_by_class.hpp,
/// gather_order.hpp, permute_first.hpp). Latencies are tiny so that bandwidth decides
/// on these small arrays, as it does on real ones.
CostModel first_axis_inter(const ReshardCase& c) {
  return parse_cost_model(c.mesh.axes().front().name +
                          " = inter\ninter.latency_us = 0.00001\nintra.latency_us = 0.000001\n")
      .value();
}

/// The default plan of `c`, under `model` when given.
Result<Plan> default_plan(const ReshardCase& c, const CostModel* model) {
  SynthOptions options;
  options.cost_model = model;
  return synthesize(c.mesh, c.src, c.target_mesh, c.dst, options);
}

/// The checks on the default plan of `c` (under `model` when given); empty when it passes
/// them all.
std::string default_plan_problem(const ReshardCase& c, const CostModel* model = nullptr) {
  auto plan = default_plan(c, model);
  if (!plan) {
    // Allowed only where the full search proves that the step set has no plan within
    // the bound (e.g. {z}14, {y,x:(2)2}14 -> {y,z}14, {x:(1)2}14 on {x:4, y:7, z:2}:
    // nothing can be sliced and y is no suffix of dim 1).
    auto full = optimal_plan(bytes_model(), c.mesh, c.src, c.target_mesh, c.dst);
    if (plan.error().kind != Error::Kind::no_plan || full || full.error().kind != Error::Kind::no_plan)
      return "no plan: " + plan.error().to_string();
    RC_CLASSIFY(true, "no plan in the step set");
    return "";
  }
  if (!slices_first(*plan)) {
    // Allowed only where the full search proves that no plan slices first: it searches
    // the plans that slice first and only then, having found none, the others.
    auto full = optimal_plan(bytes_model(), c.mesh, c.src, c.target_mesh, c.dst);
    if (full ? slices_first(full->plan) : full.error().kind != Error::Kind::no_plan)
      return "slices after receiving although a plan that slices first exists:\n" + to_string(*plan);
    RC_CLASSIFY(true, "no plan slices first");
  }
  return plan_problem(*plan, c.mesh, c.src, c.target_mesh, c.dst, std::max(local_bytes(c.src), local_bytes(c.dst)));
}

/// The checker's verdicts on the default plan of `c` (under `model` when given) for G1,
/// G2 and G3a; empty when all are proved.
std::string checker_problem(const ReshardCase& c, const CostModel* model = nullptr) {
  auto plan = default_plan(c, model);
  if (!plan) return plan.error().kind == Error::Kind::no_plan ? "" : "no plan: " + plan.error().to_string();
  if (!slices_first(*plan)) return "";  // no plan in the step set slices first: G3a cannot hold
  auto report = check_plan(*plan);
  if (!report) return "checker error: " + report.error().to_string();
  auto name = [&](const PropertyResult& r) { return std::string(verdict_name(r.verdict)) + " " + r.detail; };
  if (report->correct.verdict != Verdict::proved) return "G1 " + name(report->correct) + "\n" + to_string(*plan);
  if (report->memory.verdict != Verdict::proved) return "G2 " + name(report->memory) + "\n" + to_string(*plan);
  if (report->no_peak.verdict != Verdict::proved) return "G3a " + name(report->no_peak) + "\n" + to_string(*plan);
  return "";
}

ReshardCase case_of(const char* mesh, const char* src, const char* dst) {
  ReshardCase c;
  c.mesh = c.target_mesh = parse_mesh(mesh).value();
  c.src = parse_type(src, c.mesh).value();
  c.dst = parse_type(dst, c.mesh).value();
  return c;
}

// 100 runs of 100 pairs each: 10,000 pairs per test run.
RC_GTEST_PROP(EngineProperty, TenThousandSplitPairsAreTypedBoundedSliceFirstAndCorrect, ()) {
  for (int i = 0; i < 100; ++i) {
    const ReshardCase c = *gen_split_case();
    const std::string problem = default_plan_problem(c);
    if (!problem.empty()) {
      RC_LOG() << c << "\n";
      RC_FAIL(problem);
    }
  }
}

RC_GTEST_PROP(EngineProperty, TheCheckerProvesG1G2G3a, ()) {
  const ReshardCase c = *gen_split_case();
  RC_LOG() << c << "\n";
  const std::string problem = checker_problem(c);
  if (!problem.empty()) RC_FAIL(problem);
}

// The same under a model with an inter-node first axis: 20 runs of 100 pairs, and the
// checker on 100 of them (the link-class rewrites slice, permute and gather otherwise).
RC_GTEST_PROP(EngineProperty, TwoThousandPairsUnderAnInterNodeAxisAreTypedBoundedSliceFirstAndCorrect, ()) {
  int other = 0;  // pairs whose plan differs from the one-class plan (the rewrites fired)
  for (int i = 0; i < 20; ++i) {
    const ReshardCase c = *gen_split_case();
    const CostModel model = first_axis_inter(c);
    const std::string problem = default_plan_problem(c, &model);
    auto linked = default_plan(c, &model), flat = default_plan(c, nullptr);
    other += linked && flat && !(*linked == *flat);
    if (!problem.empty()) {
      RC_LOG() << c << "\n";
      RC_FAIL(problem);
    }
  }
  RC_CLASSIFY(other > 0, "some of the 20 plans take a link-class form");
}

RC_GTEST_PROP(EngineProperty, TheCheckerProvesG1G2G3aUnderAnInterNodeAxis, ()) {
  const ReshardCase c = *gen_split_case();
  RC_LOG() << c << "\n";
  const CostModel model = first_axis_inter(c);
  const std::string problem = checker_problem(c, &model);
  if (!problem.empty()) RC_FAIL(problem);
}

// The exchange-last plans of the default call's fallback (synth_builders.hpp: slices,
// one permute, exchanges, gathers) fit max(source, target) by construction, and slice
// first: where one types, it ends at the target within the bound and the interpreter
// finds every element in place. 100 runs of 100 pairs: 10,000 pairs per test run.
RC_GTEST_PROP(EngineProperty, ExchangeLastPlansFitTheBoundAndSliceFirst, ()) {
  int typed = 0;
  for (int i = 0; i < 100; ++i) {
    const ReshardCase c = *gen_split_case();
    const auto problem = synth_detail::make_problem(c.mesh, c.src, c.target_mesh, c.dst);
    RC_ASSERT(problem.ok());
    const auto primes = synth_detail::atomize(problem->frame, problem->src, problem->dst, true);
    if (!primes) continue;
    for (const auto& moves : synth_detail::found_plans(synth_detail::slow_first_plans(
             *problem, primes->a, primes->b, {}, synth_detail::kExchangeLastTries))) {
      const Plan plan = synth_detail::to_plan(moves, c.mesh, c.src, c.target_mesh, c.dst);
      if (!type_plan(plan)) continue;
      ++typed;
      const std::string why = plan_problem(plan, c.mesh, c.src, c.target_mesh, c.dst,
                                           std::max(local_bytes(c.src), local_bytes(c.dst)));
      if (!why.empty() || !slices_first(plan)) {
        RC_LOG() << c << "\n";
        RC_FAIL(why.empty() ? "slices after receiving:\n" + to_string(plan) : why);
      }
    }
  }
  RC_CLASSIFY(typed > 0, "some plans type");
}

struct Reproducer {
  const char* mesh;
  const char* src;
  const char* dst;
};

// Pairs on which the synthesizer before the engine built an ill-typed plan or one whose
// G3a the checker refuted (all_to_all, then a slice of what it received).
const Reproducer kReproducers[] = {
    {"{x:6}", "f32[{x:(1)3,x:(3)2}6, 6]", "f32[6, {x:(2)3}6]"},
    {"{x:1, y:2, z:3, w:2}", "f32[{z}3, {w}6, {x,y}4]", "f32[3, {z}6, {w,x,y}4]"},
    {"{x:2, y:2}", "f32[4, {x}10]", "f32[{x,y}4, 10]"},
    {"{x:2, y:3}", "s8[{y}3, 12]", "s8[3, {y,x}12]"},
};

TEST(EngineProperty, ReproducersGetVerifiedPlans) {
  for (const auto& r : kReproducers) {
    const ReshardCase c = case_of(r.mesh, r.src, r.dst);
    EXPECT_EQ(default_plan_problem(c), "") << r.mesh << " " << r.src << " -> " << r.dst;
    EXPECT_EQ(checker_problem(c), "") << r.mesh << " " << r.src << " -> " << r.dst;
  }
}

// Pairs of the comparison harness (`redist_compare --random 1000 --seed 20240611`) on
// which synthesize() returned no plan after seconds: no seed was valid, and the fallback
// search found none in 20,000 expansions. The balanced builder's backtracking seeds of
// the fallback (synth_builders.hpp) plan them.
const Reproducer kStuckBalances[] = {
    {"{x:6, y:4, z:4, w:8, u:2}", "bf16[{x,w:(2)4,z:(2)2,u,w:(1)2}768, {y}384]", "bf16[{y:(2)2,z}768, {w,x,u}384]"},
    {"{x:3, y:2, z:16, w:6, u:2}", "bf16[{x,z:(1)2}768, {u,y}24, 3, {w}18]", "bf16[{z,y,u}768, {w}24, 3, 18]"},
    {"{x:3, y:6, z:2, w:2, u:16}", "bf16[{x,y:(1)2}864, {z,u,y:(2)3}1152, 6, {w}54]",
     "bf16[{z,u}864, {y:(1)2,w}1152, 6, {y:(2)3}54]"},
};

TEST(EngineProperty, StuckBalancesGetProvedPlans) {
  for (const auto& r : kStuckBalances) {
    const ReshardCase c = case_of(r.mesh, r.src, r.dst);
    ASSERT_TRUE(default_plan(c, nullptr).ok()) << r.mesh << " " << r.src << " -> " << r.dst;
    EXPECT_EQ(default_plan_problem(c), "") << r.mesh << " " << r.src << " -> " << r.dst;
    EXPECT_EQ(checker_problem(c), "") << r.mesh << " " << r.src << " -> " << r.dst;
  }
}

}  // namespace
}  // namespace redist::testing
