// Synthesis of pending reductions (docs/synthesis.md "Pending reductions"): every case
// of tests/data/partial_sums.txt and every anchor with a pending reduction gets a plan
// whose reductions come first (only all_slices before them), correct on every element
// under the interpreter, within max(source, target), its figures matching the
// interpreter's; the default synthesis and the optimal search agree on its modeled
// cost; the Z3 checker proves it (G1, G2, G3a, and G3b measured: tight or excess).
// Bad inputs are refused with `invalid`. A RapidCheck property does the same on random
// pending reductions over meshes of 2 to 4 axes.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <numeric>

#include "redist/plan/figures.hpp"
#include "redist/synth/baselines.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/optimal.hpp"
#include "redist/synth/synthesize.hpp"
#include "redist/verify/checker.hpp"
#include "synth/anchor_cases.hpp"
#include "synth/synthesis_checks.hpp"

namespace redist::testing {
namespace {

bool reducing(const Step& s) {
  return std::holds_alternative<ReduceScatter>(s.op) || std::holds_alternative<AllReduce>(s.op);
}

/// A reduction or an add_pending: a step that changes the pending reductions.
bool pending_step(const Step& s) { return reducing(s) || std::holds_alternative<AddPending>(s.op); }

/// Empty when every reducing or add_pending step of `plan` comes before every step
/// other than an all_slice.
std::string reductions_first(const Plan& plan) {
  bool moved = false;
  for (const auto& s : plan.steps) {
    if (pending_step(s) && moved) return "a reduction or add_pending after a move:\n" + to_string(plan);
    moved = moved || (!pending_step(s) && !std::holds_alternative<AllSlice>(s.op));
  }
  return "";
}

std::vector<AnchorCase> reduction_cases() {
  auto out = load_anchors(std::string(REDIST_TEST_DATA_DIR) + "/partial_sums.txt");
  for (const auto& c : anchors())
    if (c.src.find("sum{") != std::string::npos || c.src.find("max{") != std::string::npos ||
        c.src.find("min{") != std::string::npos)
      out.push_back(c);
  return out;
}

class Reductions : public ::testing::TestWithParam<AnchorCase> {};

TEST_P(Reductions, PlannedFirstCorrectOptimalAndProved) {
  const AnchorCase& c = GetParam();
  const Mesh mesh = parse_mesh(c.mesh).value();
  const DistType src = parse_type(c.src, mesh).value();
  const DistType dst = parse_type(c.dst, mesh).value();
  auto plan = synthesize(mesh, src, dst);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_EQ(reductions_first(*plan), "");
  EXPECT_TRUE(std::any_of(plan->steps.begin(), plan->steps.end(), pending_step)) << to_string(*plan);
  const BigInt bound = std::max(local_bytes(src), local_bytes(dst));
  EXPECT_EQ(plan_problem(*plan, mesh, src, mesh, dst, bound), "");

  const CostModel model = bytes_model();
  auto best = optimal_plan(model, mesh, src, mesh, dst);
  ASSERT_TRUE(best.ok()) << best.error().to_string();
  EXPECT_TRUE(best->proved);
  const double greedy = plan_cost(model, *plan).value().time_us;
  EXPECT_NEAR(greedy, best->time_us, 1e-9 * greedy) << "greedy:\n" << to_string(*plan) << "optimal:\n"
                                                    << to_string(best->plan);

  auto report = check_plan(*plan);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_TRUE(report->verified()) << report->correct.detail << " / " << report->tight.detail;
  EXPECT_NE(report->transfers, Transfers::unknown) << report->tight.detail;
  ASSERT_TRUE(report->lower_bound_bytes_max.has_value());
  EXPECT_LE(*report->lower_bound_bytes_max, report->recv_bytes_max);
}

std::string case_name(const ::testing::TestParamInfo<AnchorCase>& info) { return info.param.name; }

INSTANTIATE_TEST_SUITE_P(All, Reductions, ::testing::ValuesIn(reduction_cases()), case_name);

/// A plan from `src` to `dst` on `mesh` (notation).
Result<Plan> plan_of(const char* mesh_text, const char* src, const char* dst) {
  const Mesh mesh = parse_mesh(mesh_text).value();
  return synthesize(mesh, parse_type(src, mesh).value(), parse_type(dst, mesh).value());
}

TEST(Reductions, ExampleOfTheIssueIsOneReduceScatter) {
  auto plan = plan_of("{dp:2, tp:4}", "bf16[{dp}8, 2048, 1024] sum{tp}", "bf16[{dp}8, {tp}2048, 1024]");
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  ASSERT_EQ(plan->steps.size(), 1u);
  const auto* rs = std::get_if<ReduceScatter>(&plan->steps[0].op);
  ASSERT_NE(rs, nullptr);
  EXPECT_EQ(rs->dim, 1);
  EXPECT_EQ(to_string(std::span<const AxisRef>(rs->axes)), "{tp}");
}

TEST(Reductions, TwoAxesToReplicatedIsOneAllReduceOverTheFlattenedGroup) {
  auto plan = plan_of("{dp:2, tp:4}", "f32[16, 8] sum{dp,tp}", "f32[16, 8]");
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  ASSERT_EQ(plan->steps.size(), 1u) << to_string(*plan);
  const auto* ar = std::get_if<AllReduce>(&plan->steps[0].op);
  ASSERT_NE(ar, nullptr);
  EXPECT_EQ(ar->axes.size(), 2u);
}

TEST(Reductions, ReplicateToPartialIsOneLocalAddPending) {
  auto plan = plan_of("{dp:2, tp:4}", "bf16[{dp}8, 2048, 1024]", "bf16[{dp}8, 2048, 1024] sum{tp}");
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  ASSERT_EQ(plan->steps.size(), 1u) << to_string(*plan);
  const auto* add = std::get_if<AddPending>(&plan->steps[0].op);
  ASSERT_NE(add, nullptr);
  EXPECT_EQ(add->op, ReduceOp::sum);
  EXPECT_EQ(to_string(plan->steps[0]), "add_pending(axes={tp}, op=sum)");
  auto figures = plan_figures(*plan);
  ASSERT_TRUE(figures.ok());
  EXPECT_EQ(figures->recv_bytes_max, 0);
  EXPECT_EQ(figures->recv_bytes_total, 0);
  EXPECT_EQ(plan_cost(bytes_model(), *plan).value().time_us, 0.0);
}

TEST(Reductions, AddPendingComesBeforeTheMoves) {
  // max over dp added, then tp moves to dim 1: add_pending first, then one all_to_all.
  auto plan = plan_of("{dp:2, tp:4}", "f32[{tp}8, 16]", "f32[8, {tp}16] max{dp}");
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  ASSERT_EQ(plan->steps.size(), 2u) << to_string(*plan);
  EXPECT_EQ(to_string(plan->steps[0]), "add_pending(axes={dp}, op=max)");
  EXPECT_TRUE(std::holds_alternative<AllToAll>(plan->steps[1].op)) << to_string(*plan);
}

TEST(Reductions, AllReduceThenSliceBaselineReducesWholeThenSlices) {
  const Mesh mesh = parse_mesh("{dp:2, tp:4}").value();
  const DistType src = parse_type("f32[{dp}8, 64, 32] sum{tp}", mesh).value();
  const DistType dst = parse_type("f32[{dp}8, {tp}64, 32]", mesh).value();
  ASSERT_EQ(parse_baseline("all_reduce_then_slice"), Baseline::all_reduce_then_slice);
  EXPECT_EQ(baseline_name(Baseline::all_reduce_then_slice), "all_reduce_then_slice");
  auto plan = baseline_plan(Baseline::all_reduce_then_slice, mesh, src, mesh, dst);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  ASSERT_EQ(plan->steps.size(), 2u) << to_string(*plan);
  EXPECT_EQ(to_string(plan->steps[0]), "all_reduce(axes={tp})");
  EXPECT_EQ(to_string(plan->steps[1]), "all_slice(dim=1, axes={tp})");
  // Correct on every element; the all_reduce's whole buffer peaks at the source's size.
  EXPECT_EQ(plan_problem(*plan, mesh, src, mesh, dst, local_bytes(src)), "");
  // A kept reduction stays pending; nothing to reduce is refused.
  const DistType keep = parse_type("f32[16, 8] sum{dp,tp}", mesh).value();
  auto kept = baseline_plan(Baseline::all_reduce_then_slice, mesh, keep, mesh,
                            parse_type("f32[{tp}16, 8] sum{dp}", mesh).value());
  ASSERT_TRUE(kept.ok()) << kept.error().to_string();
  EXPECT_EQ(to_string(kept->steps[0]), "all_reduce(axes={tp})");
  auto none = baseline_plan(Baseline::all_reduce_then_slice, mesh, dst, mesh, dst);
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.error().kind, Error::Kind::unsupported);
  EXPECT_NE(none.error().message.find("has no pending reduction that the target"), std::string::npos);
}

void expect_invalid(const Result<Plan>& r, const std::string& part) {
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, Error::Kind::invalid) << r.error().to_string();
  EXPECT_NE(r.error().message.find(part), std::string::npos) << r.error().message;
}

TEST(Reductions, BadInputsAreInvalid) {
  // A pending reduction added over an axis the source tiles (add_pending needs it replicated).
  expect_invalid(plan_of("{x:2, y:2}", "f32[{y}8, 8] sum{x}", "f32[8, 8] sum{x,y}"),
                 "adds a pending sum over y (reduction axis 1), but dim 0 of the source");
  expect_invalid(plan_of("{x:2, y:2}", "f32[8, {y}8]", "f32[8, {x}8] sum{y}"),
                 "but dim 1 of the source f32[8, {y}8] is tiled over y; only axes the source replicates");
  expect_invalid(plan_of("{x:4}", "f32[8, 8] sum{x:(1)2}", "f32[8, 8] sum{x}"), "overlaps the source's pending");
  expect_invalid(plan_of("{x:2, y:2}", "f32[8, 8] sum{x}", "f32[8, 8] max{x}"), "reduction op changes from sum");
  const Mesh mesh = parse_mesh("{x:2, y:2}").value();
  const DistType src = parse_type("f32[8, 8] sum{x}", mesh).value();
  const DistType dst = parse_type("f32[8, 8] max{x}", mesh).value();
  auto best = optimal_plan(bytes_model(), mesh, src, mesh, dst);
  ASSERT_FALSE(best.ok());
  EXPECT_EQ(best.error().kind, Error::Kind::invalid);
}

/// A random pair with pending reductions: a mesh of 2 to 4 axes of sizes 2 to 4; the
/// source reduces a non-empty random set of axes (sum, max or min) and tiles the others
/// at random; the target keeps a random subset of those reductions pending, adds some
/// of the axes the source replicates as pending (add_pending) and tiles any other axis
/// at random; every global size is a multiple of the device count.
rc::Gen<std::tuple<Mesh, DistType, DistType>> gen_reduction_case() {
  return rc::gen::exec([] {
    const int n = *rc::gen::inRange(2, 5);
    std::string text = "{";
    static const char* names[] = {"x", "y", "z", "w"};
    for (int i = 0; i < n; ++i)
      text += std::string(i ? ", " : "") + names[i] + ":" + std::to_string(*rc::gen::inRange(2, n == 4 ? 3 : 5));
    const Mesh mesh = parse_mesh(text + "}").value();
    const int rank = *rc::gen::inRange(1, 4);
    DistType src, dst;
    src.elem = dst.elem = *rc::gen::element(ElemType::f32, ElemType::s32);
    src.reduce_op = dst.reduce_op = *rc::gen::element(ReduceOp::sum, ReduceOp::max, ReduceOp::min);
    src.dims.resize(static_cast<std::size_t>(rank));
    dst.dims.resize(static_cast<std::size_t>(rank));
    for (int d = 0; d < rank; ++d)
      src.dims[static_cast<std::size_t>(d)].global = dst.dims[static_cast<std::size_t>(d)].global =
          mesh.num_devices() * *rc::gen::inRange(1, 3);
    std::vector<AxisRef> axes;
    for (const auto& a : mesh.axes()) axes.push_back(AxisRef{a.name, 1, a.size, false});
    const auto order = *rc::gen::container<std::vector<unsigned>>(axes.size(), rc::gen::arbitrary<unsigned>());
    std::vector<std::size_t> idx(axes.size());
    std::iota(idx.begin(), idx.end(), 0);
    std::stable_sort(idx.begin(), idx.end(), [&](auto a, auto b) { return order[a] < order[b]; });
    for (auto i : idx) {
      const AxisRef& a = axes[i];
      const bool reduce = src.reduce_axes.empty() || *rc::gen::inRange(0, 3) == 0;
      int where = -1;
      if (reduce) src.reduce_axes.push_back(a);
      else if (where = *rc::gen::inRange(-1, rank); where >= 0)
        src.dims[static_cast<std::size_t>(where)].axes.push_back(a);
      // Kept pending; or, replicated in the source, added by add_pending (Replicate -> Partial).
      if ((reduce || where < 0) && *rc::gen::inRange(0, 4) == 0) {
        dst.reduce_axes.push_back(a);
        continue;
      }
      if (int where = *rc::gen::inRange(-1, rank); where >= 0) dst.dims[static_cast<std::size_t>(where)].axes.push_back(a);
    }
    if (dst.reduce_axes.empty()) dst.reduce_op = ReduceOp::sum;
    return std::tuple{mesh, src, dst};
  });
}

RC_GTEST_PROP(ReductionsRandom, PlansAreCorrectProvedAndReduceFirst, ()) {
  const auto [mesh, src, dst] = *gen_reduction_case();
  RC_LOG() << to_string(mesh) << " " << to_string(src) << " -> " << to_string(dst) << "\n";
  auto plan = synthesize(mesh, src, dst);
  if (!plan) RC_FAIL("no plan: " + plan.error().to_string());
  const std::string first = reductions_first(*plan);
  if (!first.empty()) RC_FAIL(first);
  const BigInt bound = std::max(local_bytes(src), local_bytes(dst));
  const std::string problem = plan_problem(*plan, mesh, src, mesh, dst, bound);
  if (!problem.empty()) RC_FAIL(problem);
  auto report = check_plan(*plan);
  if (!report) RC_FAIL(report.error().to_string());
  RC_CLASSIFY(report->transfers == Transfers::tight, "tight");
  if (!report->verified())
    RC_FAIL("not verified: " + report->correct.detail + " / " + report->no_peak.detail + " / " +
            report->tight.detail + "\n" + to_string(*plan));
}

}  // namespace
}  // namespace redist::testing
