// Swappable digits (synth/src/engine_symmetry.hpp): which digits a search may relabel,
// how a state is relabeled, and that the search holding each state once per relabeling
// finds the same least cost in fewer states, with plans mapped back to the source's
// labels that the checker proves.

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <numeric>

#include "redist/plan/plan_text.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/verify/checker.hpp"
#include "synth/cost_optimal_checks.hpp"
#include "synth/src/engine.hpp"
#include "synth/src/engine_symmetry.hpp"
#include "synth/src/seeds.hpp"
#include "synth/src/synth_scope.hpp"
#include "synth/synthesis_cases.hpp"
#include "synth/test_util.hpp"

namespace redist::testing {
namespace {

using engine_detail::DigitMap;

/// The search frame of `src` -> `dst` on `mesh` with its swappable digits set.
engine_detail::Frame frame_of(const Mesh& mesh, const std::string& src, const std::string& dst,
                              const Mesh* target_mesh = nullptr) {
  const Mesh& to = target_mesh ? *target_mesh : mesh;
  auto frame = engine_detail::make_frame(CostModel{}, mesh, type_of(src, mesh), to, type_of(dst, to), INT64_MAX);
  engine_detail::set_swappable_digits(frame);
  return frame;
}

/// `type` on `mesh` as a search state.
engine_detail::State state(const std::string& type, const Mesh& mesh) {
  return engine_detail::state_of(type_of(type, mesh), mesh, false);
}

TEST(SwappableDigits, AreTheDigitsOfPrimePowerAxesTheTargetLeavesFree) {
  // z:16 is four binary digits, none in the target; w:8 three, of which the target uses
  // w:(2)2 (digit 1); x is the target's; y:6 is no prime power.
  const Mesh mesh = mesh_of("{x:2, y:6, z:16, w:8}");
  const auto frame = frame_of(mesh, "f32[{y}12, {z}48]", "f32[{w:(2)2}12, {x}48]");
  ASSERT_EQ(frame.digits.size(), 4u);
  EXPECT_EQ(frame.digits[0].free, 0u);
  EXPECT_EQ(frame.digits[1].free, 0u);
  EXPECT_EQ(frame.digits[1].base, 0);  // digits 2 and 3
  EXPECT_EQ(frame.digits[2].base, 2);
  EXPECT_EQ(frame.digits[2].count, 4);
  EXPECT_EQ(frame.digits[2].free, 0b1111u);
  EXPECT_EQ(frame.digits[2].offset, 3);  // after x's digit and y's two (2 and 3)
  EXPECT_EQ(frame.digits[3].base, 2);
  EXPECT_EQ(frame.digits[3].count, 3);
  EXPECT_EQ(frame.digits[3].free, 0b101u);
  EXPECT_EQ(frame.digits[3].offset, 7);
  // Base 3: z:27 is three ternary digits. A single free digit has nowhere to go: x:2
  // alone, or z:9 of which the target uses one digit, are left alone.
  const Mesh ternary = mesh_of("{x:2, z:27}");
  const auto f3 = frame_of(ternary, "f32[{x}54]", "f32[{z:(3)3}54]");
  EXPECT_EQ(f3.digits[0].free, 0u);
  EXPECT_EQ(f3.digits[1].base, 3);
  EXPECT_EQ(f3.digits[1].free, 0b101u);
  const Mesh nine = mesh_of("{x:2, z:9}");
  EXPECT_TRUE(frame_of(nine, "f32[{x}18]", "f32[{z:(1)3}18]").digits.empty());
  // On another device order nothing is swappable.
  const Mesh reordered = mesh_of("{x:2, y:6, z:16, w:8} devices=[" + [] {
    std::string ids;
    for (int d = 1535; d >= 0; --d) ids += std::to_string(d) + (d > 0 ? "," : "");
    return ids;
  }() + "]");
  const auto moved = frame_of(mesh, "f32[{y}12, {z}48]", "f32[{w:(2)2}12, {x}48]", &reordered);
  EXPECT_TRUE(moved.digits.empty());
}

TEST(SwappableDigits, AStateIsRelabeledInOrderOfFirstUse) {
  const Mesh mesh = mesh_of("{x:2, y:6, z:16, w:8}");
  const auto frame = frame_of(mesh, "f32[{y}12, {z}48]", "f32[{w:(2)2}12, {x}48]");
  // z:(4)2 (digit 2) is met first, then z:(1)2 (digit 0): they become digits 0 and 1,
  // the unused 1 and 3 follow. w's fixed digit 1 stays; its digit 2 becomes 0.
  auto s = state("f32[{z:(4)2}12, {z:(1)2,w:(4)2}48]", mesh);
  const DigitMap map = engine_detail::canonicalize_digits(frame, s);
  EXPECT_EQ(s, state("f32[{z:(1)2}12, {z:(2)2,w:(1)2}48]", mesh));
  EXPECT_EQ(map, (DigitMap{/*x*/ 0, /*y*/ 0, 1, /*z*/ 1, 2, 0, 3, /*w*/ 2, 1, 0}));
  // Undone by the inverse map; composed with it, the identity.
  EXPECT_EQ(engine_detail::relabeled(frame, s, engine_detail::inverse(frame, map)),
            state("f32[{z:(4)2}12, {z:(1)2,w:(4)2}48]", mesh));
  EXPECT_EQ(engine_detail::composed(frame, map, engine_detail::inverse(frame, map)),
            (DigitMap{0, 0, 1, 0, 1, 2, 3, 0, 1, 2}));
  // A factor over a fixed and a free digit keeps the fixed one in place: w:(2)4 is
  // digits 1 (fixed) and 2, which becomes 0.
  auto split = state("f32[{w:(2)4}12, 48]", mesh);
  engine_detail::canonicalize_digits(frame, split);
  EXPECT_EQ(split, state("f32[{w:(2)2,w:(1)2}12, 48]", mesh));
  // Already in order: no map, no change.
  auto same = state("f32[{z:(1)4}12, {y,z:(4)2}48]", mesh);
  EXPECT_TRUE(engine_detail::canonicalize_digits(frame, same).empty());
  EXPECT_EQ(same, state("f32[{z:(1)4}12, {y,z:(4)2}48]", mesh));
  // Pending reductions are relabeled after the dims, and stay sorted.
  auto pending = state("f32[{z:(2)2}12, 48]", mesh);
  pending.reduce = {{2, 1, 2}, {2, 8, 2}};  // z:(1)2 and z:(8)2
  engine_detail::canonicalize_digits(frame, pending);
  EXPECT_EQ(pending.dims[0], (engine_detail::Factors{{2, 1, 2}}));
  EXPECT_EQ(pending.reduce, (engine_detail::Factors{{2, 2, 4}}));
}

/// The engine run as optimal_plan() runs it (every seed, every candidate's permutes),
/// with or without swapped digits, under x inter-node.
engine_detail::EngineResult optimal_run(const Mesh& mesh, const DistType& src, const DistType& dst, bool swap,
                                        int64_t max_expanded = 200'000) {
  CostModel model;
  model.axis_class[mesh.axes().front().name] = LinkClass::inter;
  auto problem = synth_detail::make_problem(mesh, src, mesh, dst);
  std::vector<Plan> seeds;
  if (problem)
    seeds = synth_detail::constructive_seeds(
        *problem, mesh, src, mesh, dst,
        {.backtrack = true, .exchange_last = true, .slow_axes = synth_detail::slow_axes(model, mesh)});
  engine_detail::EngineLimits limits;
  limits.max_expanded = max_expanded;
  limits.every_candidates_permutes = true;
  limits.swap_digits = swap;
  auto found = engine_detail::run_engine(model, mesh, src, mesh, dst, std::max(local_bytes(src), local_bytes(dst)),
                                         seeds, limits);
  EXPECT_TRUE(found.ok()) << found.error().to_string();
  return found ? std::move(*found) : engine_detail::EngineResult{};
}

TEST(SwappedDigits, TheSearchFindsTheSameOptimumInFarFewerStates) {
  // random190 of seed 13013, smaller: z is in neither type, so which of its digits the
  // slices take is one choice; the search proves the same optimum in 288 states instead
  // of 4,198.
  const Mesh mesh = mesh_of("{x:2, y:6, z:16, w:2}");
  const DistType src = type_of("bf16[{w}12, {y}96, {x}32]", mesh), dst = type_of("bf16[{y}12, 96, {w}32]", mesh);
  const auto swapped = optimal_run(mesh, src, dst, true), plain = optimal_run(mesh, src, dst, false);
  ASSERT_TRUE(swapped.plan && plain.plan);
  EXPECT_TRUE(swapped.proved && plain.proved);
  EXPECT_NEAR(swapped.time_us, 7.03541, 1e-5);
  EXPECT_NEAR(plain.time_us, swapped.time_us, 1e-9 * swapped.time_us);
  EXPECT_LT(swapped.expanded * 10, plain.expanded);
  // The plan, rebuilt in the source's labels, is well typed, within the bound and proved.
  EXPECT_EQ(optimal_problem(*swapped.plan, mesh, src, mesh, dst, std::max(local_bytes(src), local_bytes(dst))), "");
  auto report = check_plan(*swapped.plan);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_EQ(report->correct.verdict, Verdict::proved) << report->correct.detail;
  EXPECT_EQ(report->memory.verdict, Verdict::proved) << report->memory.detail;
  EXPECT_EQ(report->no_peak.verdict, Verdict::proved) << report->no_peak.detail;
}

TEST(SwappedDigits, ThePlanNamesTheSourcesOwnDigits) {
  // The source uses z:(2)4 (digits 1 and 2 of z:8), the target no digit of z: the search
  // holds its states with those digits first (its optimal path passes through four
  // relabeled states), and the plan it rebuilds must name the source's: in the search's
  // labels the slice of dim 0 takes z:(4)2 and the gathers z:(1)4, which would not
  // type-check from the source (run_engine() re-types its plan and fails if so).
  const Mesh mesh = mesh_of("{x:2, y:3, z:8}");
  const DistType src = type_of("f32[{z:(2)4}24, {x}48]", mesh), dst = type_of("f32[{x}24, {y}48]", mesh);
  const auto swapped = optimal_run(mesh, src, dst, true), plain = optimal_run(mesh, src, dst, false);
  ASSERT_TRUE(swapped.plan && plain.plan);
  EXPECT_NEAR(swapped.time_us, 6.00608, 1e-5);
  EXPECT_NEAR(plain.time_us, swapped.time_us, 1e-9 * swapped.time_us);
  // Typed, within the bound, and every element in place (the interpreter).
  EXPECT_EQ(optimal_problem(*swapped.plan, mesh, src, mesh, dst, std::max(local_bytes(src), local_bytes(dst))), "");
}

/// A random pair on 3 axes of 2, 4 or 8 devices, or 4 axes of 2 or 4, rank 1-3, one of
/// whose axes the target does not use (its pieces dropped from the target's tiling).
rc::Gen<ReshardCase> gen_free_axis_case() {
  return rc::gen::exec([] {
    const int axes = *rc::gen::inRange(3, 5);
    std::string text = "{";
    for (int a = 0; a < axes; ++a) {
      const int64_t size = axes == 3 ? *rc::gen::element<int64_t>(2, 4, 8) : *rc::gen::element<int64_t>(2, 4);
      text += fmt::format("{}{}:{}", a > 0 ? ", " : "", "xyzw"[a], size);
    }
    ReshardCase c;
    c.mesh = c.target_mesh = mesh_of(text + "}");
    const int rank = *rc::gen::inRange(1, 4);
    c.src.elem = c.dst.elem = ElemType::f32;
    c.src.dims = *gen_tiling(c.mesh, rank);
    c.dst.dims = *gen_tiling(c.mesh, rank);
    const std::string free(1, "xyzw"[*rc::gen::inRange(0, axes)]);
    for (auto& d : c.dst.dims)
      std::erase_if(d.axes, [&](const AxisRef& r) { return r.name == free; });
    for (std::size_t d = 0; d < c.src.dims.size(); ++d) {
      const int64_t global = std::lcm(tile_count(c.src.dims[d]), tile_count(c.dst.dims[d])) *
                             *rc::gen::inRange<int64_t>(1, 4);
      c.src.dims[d].global = c.dst.dims[d].global = global;
    }
    RC_PRE(validate(c.src, c.mesh).ok() && validate(c.dst, c.mesh).ok());
    return c;
  });
}

// On such pairs (x inter-node), the search with swapped digits proves the same least
// cost as the search without them wherever both finish, and its plan is well typed,
// within the bound and correct on every element.
RC_GTEST_PROP(SwappedDigits, TheSameLeastCostAsWithout, ()) {
  const ReshardCase c = *gen_free_axis_case();
  const auto swapped = optimal_run(c.mesh, c.src, c.dst, true, 20'000);
  const auto plain = optimal_run(c.mesh, c.src, c.dst, false, 20'000);
  RC_PRE(swapped.proved && plain.proved);
  RC_LOG() << c << "\n";
  RC_ASSERT(swapped.plan.has_value() == plain.plan.has_value());
  if (!swapped.plan) return;
  RC_ASSERT(std::abs(swapped.time_us - plain.time_us) <= 1e-9 * std::max(1.0, plain.time_us));
  RC_ASSERT(optimal_problem(*swapped.plan, c.mesh, c.src, c.mesh, c.dst,
                            std::max(local_bytes(c.src), local_bytes(c.dst))) == "");
  RC_CLASSIFY(swapped.expanded < plain.expanded, "fewer states");
}

}  // namespace
}  // namespace redist::testing
