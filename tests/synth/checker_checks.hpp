#pragma once
// The checker's verdicts as the tests expect them: a plan proved on G1, G2 and G3a and
// tight on G3b; and, since the checker must be able to fail, a wrong plan refuted on G1
// with a counterexample that the concrete interpreter confirms (the device holds, at
// that local index, the element the counterexample names, not the one the target
// prescribes there).

#include <gtest/gtest.h>

#include <optional>

#include "redist/core/semantics.hpp"
#include "redist/plan/figures.hpp"
#include "redist/verify/checker.hpp"
#include "redist/verify/interpreter.hpp"

namespace redist::testing {

/// Checks that the checker proves G1, G2 and G3a of `plan` and finds it tight (G3b), so
/// that it is verified, and that the report's figures are plan_figures()'s, its
/// received bytes the lower bound on the busiest device.
inline void expect_proved_and_tight(const Plan& plan) {
  auto report = check_plan(plan);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_EQ(report->correct.verdict, Verdict::proved) << report->correct.detail;
  EXPECT_EQ(report->memory.verdict, Verdict::proved) << report->memory.detail;
  EXPECT_EQ(report->no_peak.verdict, Verdict::proved) << report->no_peak.detail;
  EXPECT_EQ(report->tight.verdict, Verdict::proved) << report->tight.detail;
  EXPECT_EQ(report->transfers, Transfers::tight);
  EXPECT_TRUE(report->verified());
  auto figures = plan_figures(plan);
  ASSERT_TRUE(figures.ok()) << figures.error().to_string();
  EXPECT_EQ(report->bound_bytes, figures->bound_bytes);
  EXPECT_EQ(report->peak_local_bytes, figures->peak_local_bytes);
  EXPECT_EQ(report->transient_peak_bytes, figures->transient_peak_bytes);
  EXPECT_EQ(report->recv_bytes_max, figures->recv_bytes_max);
  ASSERT_TRUE(figures->lower_bound.has_value());
  EXPECT_EQ(report->lower_bound_bytes_max, figures->lower_bound->max);
  EXPECT_EQ(report->recv_bytes_max, figures->lower_bound->max);
}

/// Checks that G1 refutes `wrong` and that the interpreter confirms its counterexample;
/// returns the counterexample (nullopt after a failed check).
inline std::optional<Counterexample> expect_refuted_and_confirmed(const Plan& wrong) {
  auto refuted = check_plan(wrong);
  EXPECT_TRUE(refuted.ok()) << refuted.error().to_string();
  if (!refuted.ok()) return std::nullopt;
  EXPECT_EQ(refuted->correct.verdict, Verdict::refuted) << refuted->correct.detail;
  EXPECT_FALSE(refuted->verified());
  EXPECT_TRUE(refuted->correct.counterexample.has_value());
  if (!refuted->correct.counterexample) return std::nullopt;
  const Counterexample& ce = *refuted->correct.counterexample;
  EXPECT_TRUE(ce.actual_global.has_value());
  if (!ce.actual_global) return std::nullopt;
  EXPECT_NE(*ce.actual_global, ce.expected_global);
  auto data = run_plan(wrong, distribute(wrong.mesh, wrong.source));
  EXPECT_TRUE(data.ok()) << data.error().to_string();
  if (!data.ok()) return std::nullopt;
  const LocalBuffer& held = (*data)[static_cast<std::size_t>(ce.device)];
  EXPECT_EQ(ce.local_index.size(), held.shape.size());
  int64_t at = 0;  // row-major
  for (std::size_t d = 0; d < held.shape.size() && d < ce.local_index.size(); ++d)
    at = at * held.shape[d] + ce.local_index[d];
  EXPECT_EQ(held.values[static_cast<std::size_t>(at)], element_value(*wrong.target, *ce.actual_global));
  EXPECT_NE(held.values[static_cast<std::size_t>(at)], element_value(*wrong.target, ce.expected_global));
  return ce;
}

}  // namespace redist::testing
