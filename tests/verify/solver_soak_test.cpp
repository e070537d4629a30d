// Soak test of the checker's time bound (docs/z3.md): 2,000 solver queries (checks of
// up to 4 queries each) with per-query timeouts from 1 to 50 ms on several plans, some answered
// within the timeout and some interrupted; no query may run past its timeout, and no
// check past 4 timeouts, by more than a second. Before the watchdog,
// Z3 4.8.12's own timer could deadlock and a check never returned.

#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "redist/plan/plan_text.hpp"
#include "redist/verify/checker.hpp"

namespace redist {
namespace {

/// The plan text of an all_gather over y on an a x a mesh with explicit groups whose
/// members are rotated by the group's index: an irregular table (a regular one is
/// encoded without a table and proved at once), wrong, and too large for Z3 to refute
/// in 50 ms (about 0.5 s at a = 32): every check here is interrupted.
std::string explicit_gather(int a) {
  std::string groups;
  for (int i = 0; i < a; ++i) {
    groups += i ? ",[" : "[";
    for (int j = 0; j < a; ++j) {
      if (j) groups += ',';
      groups += std::to_string(i * a + (j + i) % a);
    }
    groups += "]";
  }
  return "mesh {x:" + std::to_string(a) + ", y:" + std::to_string(a) + "}\nsource f32[{x,y}" +
         std::to_string(a * a * 2) + ", 8]\nall_gather(dim=0, axes={y}, groups=[" + groups + "])\n";
}

/// A rotation by one of `n` devices given as explicit pairs (refuted: the type keeps
/// every shard in place).
std::string explicit_rotation(int n) {
  std::string pairs;
  for (int i = 0; i < n; ++i) {
    if (i) pairs += ',';
    pairs += '(';
    pairs += std::to_string((i + 1) % n);
    pairs += ',';
    pairs += std::to_string(i);
    pairs += ')';
  }
  return "mesh {x:" + std::to_string(n) + "}\nsource f32[{x}" + std::to_string(4 * n) +
         ", 8]\ncollective_permute(to=f32[{x}" + std::to_string(4 * n) + ", 8], pairs=[" + pairs + "])\n";
}

/// How far a check may run past its timeouts, in ms: 1 s (issue 15), 3 s in an ASan
/// build, where encoding a 1,024-entry table (outside the solver's time) runs several
/// times slower; a check that does not return is caught either way.
#if defined(__SANITIZE_ADDRESS__)
constexpr double kMarginMs = 3000.0;
#else
constexpr double kMarginMs = 1000.0;
#endif

/// The environment variable `name` as a number, or `fallback` when unset.
long env_or(const char* name, long fallback) {
  const char* text = std::getenv(name);
  return text ? std::strtol(text, nullptr, 10) : fallback;
}

// bench/soak.sh runs the same test longer: REDIST_SOAK_QUERIES queries, stopping early
// after REDIST_SOAK_SECONDS, in several processes told apart by REDIST_SOAK_SEED (the
// seed of the timeouts drawn and the plan the cycle starts at).
TEST(SolverSoak, EveryCheckReturnsWithinItsTimeout) {
  const std::vector<std::string> texts = {
      explicit_gather(32),
      explicit_rotation(256),
      // Synthesized-style plans, proved in a few ms: the deadline races the answer.
      "mesh {x:4, y:4, z:2}\nsource f32[{x,y}64, {z}32]\nall_to_all(src=0, dst=1, axes={y})\n",
      "mesh {x:4, y:2}\nsource f32[{x}16, {y}8]\nall_to_all(src=0, dst=1, axes={x:(2)2})\n"
      "collective_permute(to=f32[{y}16, {x}8])\n",
      // A two-device gather, answered within a few ms even in an ASan build on a slow
      // machine, where the plans above can all outlast 50 ms: some queries are answered.
      "mesh {x:2}\nsource f32[{x}4]\nall_gather(dim=0, axes={x})\n",
  };
  std::vector<Plan> plans;
  for (const auto& text : texts) {
    auto plan = parse_plan(text);
    ASSERT_TRUE(plan) << plan.error().to_string();
    plans.push_back(std::move(*plan));
  }
  const long queries_wanted = env_or("REDIST_SOAK_QUERIES", 2000);
  const auto stop_at = std::chrono::steady_clock::now() + std::chrono::seconds(env_or("REDIST_SOAK_SECONDS", 3600));
  constexpr int kQueries = 4;  // memory, correct, no_peak, transfers: each gets the timeout
  const long seed = env_or("REDIST_SOAK_SEED", 15);
  std::mt19937 rng(static_cast<unsigned>(seed));
  std::uniform_int_distribution<unsigned> timeout(1, 50);
  double worst_over_ms = -1e9;
  long checks = 0, queries = 0, unknown = 0, decided = 0;
  for (long i = 0; queries < queries_wanted && std::chrono::steady_clock::now() < stop_at; ++i, ++checks) {
    CheckOptions options;
    options.timeout_ms = timeout(rng);
    const Plan& plan = plans[static_cast<std::size_t>(i + seed) % plans.size()];
    const auto start = std::chrono::steady_clock::now();
    auto report = check_plan(plan, options);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(report) << report.error().to_string();
    ASSERT_LT(ms - kQueries * options.timeout_ms, kMarginMs)
        << "check " << i << " with timeout " << options.timeout_ms << " ms took " << ms << " ms";
    for (const PropertyResult* p : {&report->memory, &report->correct, &report->no_peak, &report->tight}) {
      if (p->solver_ms == 0) continue;  // not posed
      ++queries;
      (p->verdict == Verdict::unknown ? unknown : decided) += 1;
      worst_over_ms = std::max(worst_over_ms, p->solver_ms - options.timeout_ms);
      ASSERT_LT(p->solver_ms - options.timeout_ms, kMarginMs)
          << "check " << i << ": a query with timeout " << options.timeout_ms << " ms took " << p->solver_ms << " ms";
    }
  }
  // Both outcomes occur, so the bound was exercised on interrupted and answered queries.
  EXPECT_GT(unknown, 0);
  EXPECT_GT(decided, 0);
  std::printf("soak: %ld checks, %ld solver queries (%ld unknown, %ld answered), worst %.1f ms past the timeout\n",
              checks, queries, unknown, decided, worst_over_ms);
}

// Building the solver for a 1,024-device explicit table takes longer than a few ms, so
// the time is used up before the check starts: the check must still get a limit of 0
// (answer unknown at once), not the time left cast from a negative number (a limit of
// 2^32 ms, a check that never returned).
TEST(SolverSoak, TimeUsedUpBeforeTheCheckIsATimeout) {
  auto plan = parse_plan(explicit_gather(32));
  ASSERT_TRUE(plan) << plan.error().to_string();
  for (unsigned t = 1; t <= 16; ++t) {
    CheckOptions options;
    options.timeout_ms = t;
    const auto start = std::chrono::steady_clock::now();
    auto report = check_plan(*plan, options);
    const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    ASSERT_TRUE(report) << report.error().to_string();
    EXPECT_EQ(report->correct.verdict, Verdict::unknown) << "timeout " << t << " ms";
    ASSERT_LT(ms, 4 * t + kMarginMs) << "timeout " << t << " ms: the check took " << ms << " ms";
  }
}

}  // namespace
}  // namespace redist
