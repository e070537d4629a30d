// The checker on inputs that grow: plans of 128 steps (the plans of bench/long_plan.py)
// and explicit group tables that are not regular, at the default timeout. Verdicts are
// asserted, never times (those are in docs/results.md); a verdict of unknown fails.

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "checker_support.hpp"

namespace redist::testing {
namespace {

/// The plan of bench/long_plan.py: `steps` steps round a cycle of three all_to_alls and
/// a permute on {x:2, y:2, z:2}; step `wrong` (an all_to_all over x) gets a group table
/// with one group's members swapped.
std::string long_plan(int steps, int wrong = 0) {
  static const char* const kCycle[4][2] = {
      {"all_to_all(src=0, dst=1, axes={x}%)", "f32[32, {y,x}32, {z}32]"},
      {"all_to_all(src=2, dst=0, axes={z}%)", "f32[{z}32, {y,x}32, 32]"},
      {"all_to_all(src=1, dst=2, axes={x}%)", "f32[{z}32, {y}32, {x}32]"},
      {"collective_permute(to=f32[{x}32, {y}32, {z}32]%)", "f32[{x}32, {y}32, {z}32]"}};
  std::string text = "mesh {x:2, y:2, z:2}\nsource f32[{x}32, {y}32, {z}32]\n";
  std::string last = "f32[{x}32, {y}32, {z}32]";
  for (int k = 1; k <= steps; ++k) {
    std::string step = kCycle[(k - 1) % 4][0];
    step.replace(step.find('%'), 1, k == wrong ? ", groups=[[4,0],[1,5],[2,6],[3,7]]" : "");
    text += step + "\n";
    last = kCycle[(k - 1) % 4][1];
  }
  return text + "target " + last + "\n";
}

TEST(CheckerScale, PlanOf128StepsIsVerified) {
  const auto r = check_text(long_plan(128));
  EXPECT_EQ(r.correct.verdict, Verdict::proved) << r.correct.detail;
  EXPECT_EQ(r.memory.verdict, Verdict::proved) << r.memory.detail;
  EXPECT_EQ(r.no_peak.verdict, Verdict::proved) << r.no_peak.detail;
  // Every all_to_all sends on what the one before received: excess, with a lost arrival.
  EXPECT_EQ(r.transfers, Transfers::excess) << r.tight.detail;
  ASSERT_TRUE(r.tight.counterexample);
  EXPECT_NE(r.tight.counterexample->reason.find("loses it in step"), std::string::npos) << r.tight.detail;
  EXPECT_EQ(r.peak_local_bytes, 16384);
  EXPECT_EQ(r.bound_bytes, 16384);
  EXPECT_TRUE(r.verified());
}

TEST(CheckerScale, PlanOf128StepsWithOneWrongStepIsRefutedAndConfirmed) {
  const std::string text = long_plan(128, 65);
  const auto r = check_text(text);
  ASSERT_EQ(r.correct.verdict, Verdict::refuted) << r.correct.detail;
  ASSERT_TRUE(r.correct.counterexample);
  const Counterexample& ce = *r.correct.counterexample;
  EXPECT_EQ(ce.step, 65) << ce.to_string();
  ASSERT_TRUE(ce.actual_global);
  EXPECT_NE(*ce.actual_global, ce.expected_global);
  const Plan plan = plan_of(text);
  EXPECT_EQ(confirm_on_data(plan, {plan.mesh, *plan.target}, ce), "") << ce.to_string();
  EXPECT_EQ(r.memory.verdict, Verdict::proved) << r.memory.detail;
  EXPECT_EQ(r.transfers, Transfers::unknown);  // not posed for a wrong plan
  EXPECT_FALSE(r.verified());
}

/// The plan of bench/irregular_plan.py: on {x:4, y:devices/4}, f32[{x}64, 16] gathered
/// over x by a table whose group g has member i = device (i, p_i(g)), p_i random
/// permutations of y (p_0 the identity): irregular, and right since member i holds
/// block i. `wrong`: group 0's first two members swapped.
std::string irregular_gather(int64_t devices, bool wrong) {
  const int64_t ys = devices / 4;
  std::mt19937 rng(15);
  std::vector<std::vector<int64_t>> perms(4);
  for (auto& p : perms) {
    p.resize(static_cast<std::size_t>(ys));
    for (int64_t y = 0; y < ys; ++y) p[static_cast<std::size_t>(y)] = y;
    if (&p != &perms[0]) std::shuffle(p.begin(), p.end(), rng);
  }
  std::string table;
  for (int64_t g = 0; g < ys; ++g) {
    std::vector<int64_t> group;
    for (int64_t i = 0; i < 4; ++i) group.push_back(i * ys + perms[static_cast<std::size_t>(i)][static_cast<std::size_t>(g)]);
    if (wrong && g == 0) std::swap(group[0], group[1]);
    table += std::string(g ? "," : "") + "[" + std::to_string(group[0]) + "," + std::to_string(group[1]) + "," +
             std::to_string(group[2]) + "," + std::to_string(group[3]) + "]";
  }
  return "mesh {x:4, y:" + std::to_string(ys) + "}\nsource f32[{x}64, 16]\nall_gather(dim=0, axes={x}, groups=[" +
         table + "])\ntarget f32[64, 16]\n";
}

TEST(CheckerScale, IrregularTableOf4096DevicesIsProvedTight) {
  const auto r = check_text(irregular_gather(4096, false));
  EXPECT_EQ(r.correct.verdict, Verdict::proved) << r.correct.detail;
  EXPECT_EQ(r.memory.verdict, Verdict::proved) << r.memory.detail;
  EXPECT_EQ(r.no_peak.verdict, Verdict::proved) << r.no_peak.detail;
  EXPECT_EQ(r.transfers, Transfers::tight) << r.tight.detail;
  EXPECT_EQ(r.received_over_lower_bound, "1.0000");
  EXPECT_EQ(r.recv_bytes_max, 48 * 16 * 4);
  EXPECT_TRUE(r.verified());
}

TEST(CheckerScale, WrongIrregularTableIsRefutedAndConfirmed) {
  for (const int64_t devices : {1024, 4096}) {
    SCOPED_TRACE(devices);
    const std::string text = irregular_gather(devices, true);
    const auto ce = refuted_and_confirmed(text);
    ASSERT_TRUE(ce);
    EXPECT_EQ(ce->step, 1) << ce->to_string();
    ASSERT_TRUE(ce->actual_global);
    EXPECT_NE(*ce->actual_global, ce->expected_global);
  }
}

/// On {x:4, y:devices/4}, a permute of f32[{x}64, 16] to itself whose pairs send
/// (x, p_x(y)) to (x, y) for random permutations p_x: irregular, and right since every
/// device of one x holds the same block. `wrong`: the sources of targets (0, 0) and
/// (1, 0) swapped.
std::string irregular_permute(int64_t devices, bool wrong) {
  const int64_t ys = devices / 4;
  std::mt19937 rng(15);
  std::vector<std::pair<int64_t, int64_t>> pairs;
  for (int64_t x = 0; x < 4; ++x) {
    std::vector<int64_t> p(static_cast<std::size_t>(ys));
    for (int64_t y = 0; y < ys; ++y) p[static_cast<std::size_t>(y)] = y;
    std::shuffle(p.begin(), p.end(), rng);
    for (int64_t y = 0; y < ys; ++y) pairs.emplace_back(x * ys + p[static_cast<std::size_t>(y)], x * ys + y);
  }
  if (wrong) std::swap(pairs[0].first, pairs[static_cast<std::size_t>(ys)].first);
  std::string table;
  for (const auto& [s, t] : pairs)
    table += std::string(table.empty() ? "" : ",") + "(" + std::to_string(s) + "," + std::to_string(t) + ")";
  return "mesh {x:4, y:" + std::to_string(ys) + "}\nsource f32[{x}64, 16]\ncollective_permute(to=f32[{x}64, 16], pairs=[" +
         table + "])\ntarget f32[{x}64, 16]\n";
}

TEST(CheckerScale, IrregularPairsOf4096DevicesAreProved) {
  const auto r = check_text(irregular_permute(4096, false));
  EXPECT_EQ(r.correct.verdict, Verdict::proved) << r.correct.detail;
  EXPECT_EQ(r.memory.verdict, Verdict::proved) << r.memory.detail;
  EXPECT_EQ(r.no_peak.verdict, Verdict::proved) << r.no_peak.detail;
  // Devices receive what they hold already: excess, LB 0.
  EXPECT_EQ(r.transfers, Transfers::excess) << r.tight.detail;
  EXPECT_TRUE(r.verified());
}

TEST(CheckerScale, WrongIrregularPairsAreRefutedAndConfirmed) {
  for (const int64_t devices : {1024, 4096}) {
    SCOPED_TRACE(devices);
    const std::string text = irregular_permute(devices, true);
    const auto ce = refuted_and_confirmed(text);
    ASSERT_TRUE(ce);
    EXPECT_EQ(ce->step, 1) << ce->to_string();
    EXPECT_TRUE(ce->device == 0 || ce->device == devices / 4) << ce->to_string();
  }
}

}  // namespace
}  // namespace redist::testing
