// The checker on synthesized plans for the anchor corpus: every divisible case without
// reductions is verified, agrees with the interpreter where the mesh is small, and the
// 65,536-device case proves quickly.

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "checker_support.hpp"
#include "redist/proofs/anchors.hpp"
#include "redist/synth/synthesize.hpp"

namespace redist::testing {
namespace {

/// The anchor corpus of tests/data.
std::vector<Anchor> anchors() {
  std::ifstream in(REDIST_ANCHORS_FILE);
  std::ostringstream text;
  text << in.rdbuf();
  auto parsed = parse_anchors(text.str());
  if (!parsed.ok()) throw std::runtime_error(parsed.error().to_string());
  return *parsed;
}

TEST(CheckerAnchors, EverySynthesizedPlanIsVerified) {
  int checked = 0, tight = 0;
  for (const auto& a : anchors()) {
    if (!divisible_without_reductions(a)) continue;
    SCOPED_TRACE(a.name);
    auto plan = synthesize(a.mesh, a.source, a.target_mesh, a.target);
    ASSERT_TRUE(plan.ok()) << plan.error().to_string();
    auto report = check_plan(*plan);
    ASSERT_TRUE(report.ok()) << report.error().to_string();
    EXPECT_EQ(report->correct.verdict, Verdict::proved) << report->correct.detail;
    EXPECT_EQ(report->memory.verdict, Verdict::proved) << report->memory.detail;
    EXPECT_EQ(report->no_peak.verdict, Verdict::proved) << report->no_peak.detail;
    EXPECT_NE(report->transfers, Transfers::unknown) << report->tight.detail;
    EXPECT_TRUE(report->verified());
    EXPECT_LE(report->peak_local_bytes, report->bound_bytes);
    ASSERT_TRUE(report->lower_bound_bytes_max);
    EXPECT_GE(report->recv_bytes_max, *report->lower_bound_bytes_max);
    if (report->transfers == Transfers::tight) {
      EXPECT_EQ(report->recv_bytes_max, *report->lower_bound_bytes_max);
      ++tight;
    }
    if (a.mesh.num_devices() <= 64) {  // the interpreter agrees
      auto data = run_plan(*plan, distribute(plan->mesh, plan->source));
      ASSERT_TRUE(data.ok()) << data.error().to_string();
      EXPECT_FALSE(compare(a.target_mesh, a.target, *data));
    }
    std::cout << "  " << a.name << ": transfers " << transfers_name(report->transfers) << " ("
              << report->received_over_lower_bound << "), solver ms: correct " << report->correct.solver_ms
              << ", no_peak " << report->no_peak.solver_ms << ", tight " << report->tight.solver_ms << "\n";
    ++checked;
  }
  EXPECT_GE(checked, 10);
  std::cout << "verified " << checked << " anchor plans, " << tight << " tight\n";
}

TEST(CheckerAnchors, PodScaleTransposeProvesQuickly) {
  for (const auto& a : anchors()) {
    if (a.name != "pod_scale_transpose") continue;
    ASSERT_EQ(a.mesh.num_devices(), 65536);
    auto plan = synthesize(a.mesh, a.source, a.target_mesh, a.target);
    ASSERT_TRUE(plan.ok()) << plan.error().to_string();
    const auto start = std::chrono::steady_clock::now();
    auto report = check_plan(*plan);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(report.ok()) << report.error().to_string();
    EXPECT_TRUE(report->verified());
    EXPECT_EQ(report->correct.verdict, Verdict::proved);
    std::cout << "pod_scale_transpose: check " << ms << " ms (solver " << report->solver_ms << " ms)\n";
    return;
  }
  FAIL() << "pod_scale_transpose is not in the corpus";
}

}  // namespace
}  // namespace redist::testing
