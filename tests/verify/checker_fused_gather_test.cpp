// Fused all_gathers (several dims gathered in one collective, docs/notation.md): proved
// with every verdict field pinned, the same data as their parts run one after another
// (the same bytes in one collective instead of several), and wrong fused steps refuted
// with counterexamples the interpreter confirms.

#include <gtest/gtest.h>

#include <string>

#include "checker_support.hpp"
#include "redist/plan/figures.hpp"

namespace redist::testing {
namespace {

struct FusedGatherCase {
  const char* name;
  const char* mesh;
  const char* source;
  const char* fused;     // the fused step
  const char* sequence;  // the same parts as separate steps
  const char* target;
};

const FusedGatherCase kCases[] = {
    {"two dims", "{x:2, y:2}", "f32[{x}8, {y}8, 8]", "all_gather(dim=0, axes={x}; dim=1, axes={y})",
     "all_gather(dim=0, axes={x})\nall_gather(dim=1, axes={y})", "f32[8, 8, 8]"},
    {"minor part first", "{x:4, y:2}", "s32[{x}8, 6, {y}4]", "all_gather(dim=2, axes={y}; dim=0, axes={x})",
     "all_gather(dim=2, axes={y})\nall_gather(dim=0, axes={x})", "s32[8, 6, 4]"},
    {"three parts, suffixes, sub-axes, a device order",
     "{x:4, y:2, z:2} devices=[15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0]", "bf16[{y,x:(2)2}8, {z}4, {x:(1)2}4, 6]",
     "all_gather(dim=0, axes={x:(2)2}; dim=1, axes={z}; dim=2, axes={x:(1)2})",
     "all_gather(dim=0, axes={x:(2)2})\nall_gather(dim=1, axes={z})\nall_gather(dim=2, axes={x:(1)2})",
     "bf16[{y}8, 4, 4, 6]"},
};

/// Returns the plan text of case `c` with `steps`.
std::string plan_text(const FusedGatherCase& c, const char* steps) {
  return std::string("mesh ") + c.mesh + "\nsource " + c.source + "\n" + steps + "\ntarget " + c.target + "\n";
}

TEST(CheckerFusedGather, AFusedAllGatherIsProvedWithEveryVerdictField) {
  // 4 x 4 x 8 f32 = 512 bytes per device gathered over 4 members into 2048.
  const auto r = check_text(plan_text(kCases[0], kCases[0].fused));
  EXPECT_EQ(r.correct.verdict, Verdict::proved) << r.correct.detail;
  EXPECT_FALSE(r.correct.counterexample);
  EXPECT_EQ(r.memory.verdict, Verdict::proved) << r.memory.detail;
  EXPECT_EQ(r.no_peak.verdict, Verdict::proved) << r.no_peak.detail;
  EXPECT_EQ(r.tight.verdict, Verdict::proved) << r.tight.detail;
  EXPECT_EQ(r.transfers, Transfers::tight);
  EXPECT_EQ(r.received_over_lower_bound, "1.0000");
  EXPECT_EQ(r.bound_bytes, 2048);
  EXPECT_EQ(r.peak_local_bytes, 2048);
  EXPECT_EQ(r.transient_peak_bytes, 512 + 2048);
  EXPECT_EQ(r.recv_bytes_max, 3 * 512);
  ASSERT_TRUE(r.lower_bound_bytes_max);
  EXPECT_EQ(*r.lower_bound_bytes_max, 3 * 512);
  EXPECT_TRUE(r.verified());
}

TEST(CheckerFusedGather, EveryCaseIsProvedTightLikeItsSequence) {
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
    EXPECT_EQ(sequence.transfers, Transfers::tight) << sequence.tight.detail;
    EXPECT_EQ(fused.recv_bytes_max, sequence.recv_bytes_max);
    EXPECT_EQ(fused.peak_local_bytes, sequence.peak_local_bytes);
  }
}

TEST(CheckerFusedGather, FiguresCountOneCollectiveOverTheCombinedGroup) {
  const Plan plan = plan_of(plan_text(kCases[0], kCases[0].fused));
  const auto figures = plan_figures(plan);
  ASSERT_TRUE(figures.ok()) << figures.error().to_string();
  ASSERT_EQ(figures->steps.size(), 1u);
  EXPECT_EQ(figures->steps[0].group_size, 4);
  EXPECT_EQ(figures->steps[0].recv_bytes_max, 3 * 512);
  EXPECT_EQ(figures->steps[0].send_bytes_max, 3 * 512);
  EXPECT_EQ(figures->recv_bytes_max, 3 * 512);
  const auto sequence = plan_figures(plan_of(plan_text(kCases[0], kCases[0].sequence)));
  ASSERT_TRUE(sequence.ok());
  ASSERT_EQ(sequence->steps.size(), 2u);
  EXPECT_EQ(sequence->steps[0].recv_bytes_max, 512);
  EXPECT_EQ(sequence->steps[1].recv_bytes_max, 2 * 512);
  EXPECT_EQ(sequence->recv_bytes_max, 3 * 512);
}

TEST(CheckerFusedGather, TheInterpreterRunsThePartsOneAfterAnother) {
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

TEST(CheckerFusedGather, AWrongMemberOrderIsRefutedAndConfirmed) {
  // The combined group's members in y-major order ({x,y} orders them 0, 1, 2, 3): each
  // part reads the other's digit.
  const char* text =
      "mesh {x:2, y:2}\nsource f32[{x}8, {y}8, 8]\n"
      "all_gather(dim=0, axes={x}; dim=1, axes={y}, groups=[[0,2,1,3]])\ntarget f32[8, 8, 8]\n";
  const auto ce = refuted_and_confirmed(text);
  ASSERT_TRUE(ce);
  EXPECT_EQ(ce->step, 1) << ce->to_string();
}

TEST(CheckerFusedGather, PartsSwappedAcrossTheDeviceOrderAreRefutedAndConfirmed) {
  // On the reversed device order the regular groups list devices 3, 2, 1, 0; a table
  // of the identity order gathers every block into its mirror position.
  const char* text =
      "mesh {x:2, y:2} devices=[3,2,1,0]\nsource f32[{x}8, {y}8, 8]\n"
      "all_gather(dim=0, axes={x}; dim=1, axes={y}, groups=[[0,1,2,3]])\ntarget f32[8, 8, 8]\n";
  const auto ce = refuted_and_confirmed(text);
  ASSERT_TRUE(ce);
  EXPECT_EQ(ce->step, 1) << ce->to_string();
}

TEST(CheckerFusedGather, APartReadingTheOtherPartsAxesIsRefuted) {
  auto lowered = lower(plan_of(plan_text(kCases[0], kCases[0].fused)));
  ASSERT_TRUE(lowered.ok());
  const TypedState target = final_state(*lowered);
  auto& g = std::get<LoweredGather>(lowered->steps[0].op);
  ASSERT_EQ(g.parts.size(), 2u);
  std::swap(g.parts[0].axes, g.parts[1].axes);
  auto r = check_lowered(*lowered, target);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->correct.verdict, Verdict::refuted);
  ASSERT_TRUE(r->correct.counterexample);
  EXPECT_EQ(r->correct.counterexample->step, 1);
}

TEST(CheckerFusedGather, PartsOnEachOthersDimsAreRefuted) {
  auto lowered = lower(plan_of(plan_text(kCases[0], kCases[0].fused)));
  ASSERT_TRUE(lowered.ok());
  const TypedState target = final_state(*lowered);
  auto& g = std::get<LoweredGather>(lowered->steps[0].op);
  std::swap(g.parts[0].dim, g.parts[1].dim);
  auto r = check_lowered(*lowered, target);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->correct.verdict, Verdict::refuted);
  ASSERT_TRUE(r->correct.counterexample);
  EXPECT_EQ(r->correct.counterexample->step, 1);
}

}  // namespace
}  // namespace redist::testing
