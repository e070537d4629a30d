// Fused all_to_alls (several moves in one exchange, docs/notation.md): proved tight where
// the same moves as separate all_to_alls are not, the same data as those moves run one
// after another, and wrong fused steps refuted with counterexamples the interpreter
// confirms.

#include <gtest/gtest.h>

#include <string>

#include "checker_support.hpp"
#include "redist/plan/figures.hpp"

namespace redist::testing {
namespace {

struct FusedCase {
  const char* name;
  const char* mesh;
  const char* source;
  const char* fused;     // the fused step
  const char* sequence;  // the same moves as separate steps
  const char* target;
};

const FusedCase kCases[] = {
    {"two source dims into one", "{x:2, y:2}", "f32[{x}8, {y}8, 8]",
     "all_to_all(src=0, dst=2, axes={x}; src=1, dst=2, axes={y})",
     "all_to_all(src=0, dst=2, axes={x})\nall_to_all(src=1, dst=2, axes={y})", "f32[8, 8, {x,y}8]"},
    {"disjoint pairs of dims", "{x:4, y:2}", "f32[{x}8, 8, {y}4, 6]",
     "all_to_all(src=0, dst=1, axes={x}; src=2, dst=3, axes={y})",
     "all_to_all(src=0, dst=1, axes={x})\nall_to_all(src=2, dst=3, axes={y})", "f32[8, {x}8, 4, {y}6]"},
    {"one source dim into two", "{x:2, y:3}", "s32[{x,y}12, 6, 4]",
     "all_to_all(src=0, dst=1, axes={y}; src=0, dst=2, axes={x})",
     "all_to_all(src=0, dst=1, axes={y})\nall_to_all(src=0, dst=2, axes={x})", "s32[12, {y}6, {x}4]"},
    {"three moves, sub-axes, a device order", "{x:4, y:2, z:2} devices=[15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0]",
     "bf16[{x}8, {y}4, {z}4, 8, 6]",
     "all_to_all(src=0, dst=3, axes={x:(2)2}; src=1, dst=3, axes={y}; src=2, dst=4, axes={z})",
     "all_to_all(src=0, dst=3, axes={x:(2)2})\nall_to_all(src=1, dst=3, axes={y})\nall_to_all(src=2, dst=4, axes={z})",
     "bf16[{x:(1)2}8, 4, 4, {x:(2)2,y}8, {z}6]"},
};

std::string plan_text(const FusedCase& c, const char* steps) {
  return std::string("mesh ") + c.mesh + "\nsource " + c.source + "\n" + steps + "\ntarget " + c.target + "\n";
}

TEST(CheckerFused, FusedAllToAllsAreProvedTightWhereTheSequenceIsNot) {
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.name);
    const auto fused = check_text(plan_text(c, c.fused));
    EXPECT_EQ(fused.correct.verdict, Verdict::proved) << fused.correct.detail;
    EXPECT_EQ(fused.memory.verdict, Verdict::proved) << fused.memory.detail;
    EXPECT_EQ(fused.no_peak.verdict, Verdict::proved) << fused.no_peak.detail;
    EXPECT_EQ(fused.transfers, Transfers::tight) << fused.tight.detail;
    EXPECT_EQ(fused.received_over_lower_bound, "1.0000");
    EXPECT_TRUE(fused.verified());
    const auto sequence = check_text(plan_text(c, c.sequence));
    EXPECT_EQ(sequence.correct.verdict, Verdict::proved) << sequence.correct.detail;
    EXPECT_EQ(sequence.transfers, Transfers::excess) << sequence.tight.detail;
    EXPECT_LT(fused.recv_bytes_max, sequence.recv_bytes_max);
  }
}

TEST(CheckerFused, FiguresCountOneExchangeOverTheCombinedGroup) {
  // 4 x 4 x 8 f32 = 512 bytes per device, groups of 4: 3/4 of it received, = LB.
  const Plan plan = plan_of(plan_text(kCases[0], kCases[0].fused));
  const auto figures = plan_figures(plan);
  ASSERT_TRUE(figures.ok()) << figures.error().to_string();
  ASSERT_EQ(figures->steps.size(), 1u);
  EXPECT_EQ(figures->steps[0].group_size, 4);
  EXPECT_EQ(figures->steps[0].recv_bytes_max, 384);
  EXPECT_EQ(figures->steps[0].send_bytes_max, 384);
  EXPECT_EQ(figures->recv_bytes_max, 384);
  ASSERT_TRUE(figures->lower_bound);
  EXPECT_EQ(figures->lower_bound->max, 384);
  EXPECT_EQ(figures->lower_bound->total, 4 * 384);
  const auto sequence = plan_figures(plan_of(plan_text(kCases[0], kCases[0].sequence)));
  ASSERT_TRUE(sequence.ok());
  EXPECT_EQ(sequence->recv_bytes_max, 512);  // 256 + 256
}

TEST(CheckerFused, TheInterpreterRunsTheMovesOneAfterAnother) {
  for (const auto& c : kCases) {
    SCOPED_TRACE(c.name);
    const Plan fused = plan_of(plan_text(c, c.fused)), sequence = plan_of(plan_text(c, c.sequence));
    auto a = run_plan(fused, distribute(fused.mesh, fused.source));
    auto b = run_plan(sequence, distribute(sequence.mesh, sequence.source));
    ASSERT_TRUE(a.ok()) << a.error().to_string();
    ASSERT_TRUE(b.ok()) << b.error().to_string();
    EXPECT_EQ(*a, *b);
    EXPECT_FALSE(compare(fused.mesh, *fused.target, *a).has_value());
  }
}

TEST(CheckerFused, AWrongMemberOrderIsRefutedAndConfirmed) {
  // The combined group's members in y-major order ({x,y} orders them 0, 1, 2, 3): each
  // move reads the other's digit.
  const char* text =
      "mesh {x:2, y:2}\nsource f32[{x}8, {y}8, 8]\n"
      "all_to_all(src=0, dst=2, axes={x}; src=1, dst=2, axes={y}, groups=[[0,2,1,3]])\ntarget f32[8, 8, {x,y}8]\n";
  const auto ce = refuted_and_confirmed(text);
  ASSERT_TRUE(ce);
  EXPECT_EQ(ce->step, 1) << ce->to_string();
}

TEST(CheckerFused, MovesWithSwappedDestinationsAreRefutedAndConfirmed) {
  // y should go to dim 1 and x to dim 2; the swapped step types (into f32[8, {x}8,
  // {y}8], of the target's shapes) and is checked against the intended target.
  const char* wrong =
      "mesh {x:2, y:2}\nsource f32[{x,y}8, 8, 8]\nall_to_all(src=0, dst=2, axes={y}; src=0, dst=1, axes={x})\n";
  const Plan plan = plan_of(wrong);
  auto lowered = lower(plan);
  ASSERT_TRUE(lowered.ok()) << lowered.error().to_string();
  const Mesh& mesh = plan.mesh;
  const TypedState target{mesh, parse_type("f32[8, {y}8, {x}8]", mesh).value()};
  const auto r = check_lowered(*lowered, target);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  ASSERT_EQ(r->correct.verdict, Verdict::refuted);
  ASSERT_TRUE(r->correct.counterexample);
  EXPECT_EQ(confirm_on_data(plan, target, *r->correct.counterexample), "") << r->correct.counterexample->to_string();
}

TEST(CheckerFused, APartReadingTheOtherPartsAxesIsRefuted) {
  auto lowered = lower(plan_of(plan_text(kCases[0], kCases[0].fused)));
  ASSERT_TRUE(lowered.ok());
  const TypedState target = final_state(*lowered);
  auto& a = std::get<LoweredAllToAll>(lowered->steps[0].op);
  ASSERT_EQ(a.parts.size(), 2u);
  std::swap(a.parts[0].axes, a.parts[1].axes);
  auto r = check_lowered(*lowered, target);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->correct.verdict, Verdict::refuted);
  EXPECT_EQ(r->correct.counterexample->step, 1);
}

}  // namespace
}  // namespace redist::testing
