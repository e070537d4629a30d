// Slices aimed where an all_to_all takes them (synth/src/slice_targets.hpp): the MoE
// dispatch whose tokens are replicated over dp slices dp into the dim the all_to_all
// would have moved it to, so the all_to_all is 2-way instead of 4-way; the plan is
// correct under the interpreter and the Z3 checker and receives what XLA's own plan
// for it receives; the rewrite itself on plans it must change and plans it must not.

#include <gtest/gtest.h>

#include "redist/plan/figures.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/synth/synthesize.hpp"
#include "redist/verify/checker.hpp"
#include "synth/src/slice_targets.hpp"
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

/// The plans slices_at_their_target() rewrites `text` (a plan) into, as plan text.
std::vector<std::string> rewritten(const char* text) {
  std::vector<std::string> out;
  for (const auto& p : synth_detail::slices_at_their_target(parse_plan(text).value())) out.push_back(to_string(p));
  return out;
}

TEST(SliceTargets, TheRewriteMovesTheSlicedAxesOutOfTheAllToAll) {
  EXPECT_EQ(rewritten("mesh {dp:2, ep:4}\nsource f32[{ep}64, 64]\n"
                      "all_slice(dim=0, axes={dp})\nall_to_all(src=0, dst=1, axes={ep:(2)2,dp})\n"
                      "collective_permute(to=f32[{dp}64, {ep}64])\n"),
            std::vector<std::string>{"mesh {dp:2, ep:4}\nsource f32[{ep}64, 64]\n"
                                     "all_slice(dim=1, axes={dp})\nall_to_all(src=0, dst=1, axes={ep:(2)2})\n"
                                     "collective_permute(to=f32[{dp}64, {ep}64])\n"});
  // An all_to_all of only the sliced axes is dropped: slicing dim 1 is all it did.
  EXPECT_EQ(rewritten("mesh {x:2, y:2}\nsource f32[{x}8, 8]\n"
                      "all_slice(dim=0, axes={y})\nall_to_all(src=0, dst=1, axes={y})\n"),
            std::vector<std::string>{"mesh {x:2, y:2}\nsource f32[{x}8, 8]\nall_slice(dim=1, axes={y})\n"});
  // A slice of the all_to_all's target dim in between leaves the plan alone, as does an
  // all_to_all out of another dim.
  EXPECT_EQ(rewritten("mesh {x:2, y:2, z:2}\nsource f32[8, 8]\nall_slice(dim=0, axes={y})\n"
                      "all_slice(dim=1, axes={z})\nall_to_all(src=0, dst=1, axes={y})\n"),
            std::vector<std::string>{});
  EXPECT_EQ(rewritten("mesh {x:2, y:2}\nsource f32[8, {x}8]\n"
                      "all_slice(dim=0, axes={y})\nall_to_all(src=1, dst=0, axes={x})\n"),
            std::vector<std::string>{});
}

}  // namespace
}  // namespace redist::testing
