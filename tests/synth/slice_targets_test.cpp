// Slices aimed where an all_to_all takes them (synth/src/slice_targets.hpp): the MoE
// dispatch whose tokens are replicated over dp slices dp into the dim the all_to_all
// would have moved it to, so the all_to_all is 2-way instead of 4-way; the plan is
// correct under the interpreter and the Z3 checker and receives what XLA's own plan
// for it receives.

#include <gtest/gtest.h>

#include "redist/plan/figures.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/synth/synthesize.hpp"
#include "redist/verify/checker.hpp"
#include "synth/synthesis_checks.hpp"

namespace redist::testing {
namespace {

TEST(SliceTargets, MoeDispatchSlicesIntoTheDimTheAllToAllFills) {
  const Mesh mesh = parse_mesh("{dp:2, ep:4}").value();
  const DistType src = parse_type("f32[{ep}16384, 64]", mesh).value();
  const DistType dst = parse_type("f32[{dp}16384, {ep}64]", mesh).value();
  auto plan = synthesize(mesh, src, dst);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  ASSERT_EQ(plan->steps.size(), 3u) << to_string(*plan);
  EXPECT_EQ(to_string(plan->steps[0]), "all_slice(dim=1, axes={dp})");
  EXPECT_EQ(to_string(plan->steps[1]), "all_to_all(src=0, dst=1, axes={ep:(2)2})");
  ASSERT_TRUE(std::holds_alternative<CollectivePermute>(plan->steps[2].op)) << to_string(*plan);
  EXPECT_EQ(plan_problem(*plan, mesh, src, mesh, dst, local_bytes(src)), "");
  // XLA's reshard (dynamic-slice, 2-way all-to-all, permute keeping 4 devices) receives
  // 4 MiB over the 8 devices; slicing dp into dim 0 first, as before, received 6 MiB.
  auto figures = plan_figures(*plan);
  ASSERT_TRUE(figures.ok()) << figures.error().to_string();
  EXPECT_EQ(figures->recv_bytes_total, BigInt(4194304));
  auto report = check_plan(*plan);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_EQ(report->correct.verdict, Verdict::proved) << report->correct.detail;
  EXPECT_EQ(report->memory.verdict, Verdict::proved) << report->memory.detail;
  EXPECT_EQ(report->no_peak.verdict, Verdict::proved) << report->no_peak.detail;
}

TEST(SliceTargets, AnAllToAllOfOnlyTheSlicedAxesBecomesASlice) {
  // Slicing dim 0 by y and moving y to dim 1 is slicing dim 1 by y: no communication.
  const Mesh mesh = parse_mesh("{x:2, y:2}").value();
  const DistType src = parse_type("f32[{x}8, 8]", mesh).value();
  const DistType dst = parse_type("f32[{x}8, {y}8]", mesh).value();
  auto plan = synthesize(mesh, src, dst);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  ASSERT_EQ(plan->steps.size(), 1u) << to_string(*plan);
  EXPECT_EQ(to_string(plan->steps[0]), "all_slice(dim=1, axes={y})");
}

}  // namespace
}  // namespace redist::testing
