// Property tests of synthesize() on random meshes and random divisible type pairs: a
// plan always exists, is deterministic, correct on every element, within
// max(source, target) bytes, and its figures match the interpreter.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "redist/core/bigint.hpp"
#include "redist/synth/synthesize.hpp"
#include "synth/synthesis_cases.hpp"
#include "synth/synthesis_checks.hpp"

namespace redist::testing {
namespace {

/// Asserts every property of synthesize() on `c`.
void check_case(const ReshardCase& c) {
  RC_LOG() << c << "\n";
  auto plan = synthesize(c.mesh, c.src, c.target_mesh, c.dst);
  if (!plan) RC_FAIL("no plan: " + plan.error().to_string());
  // A valley exists for nearly every pair; when none does (a fully used mesh without
  // room to reorder), the plan gathers earlier but stays within the bound.
  RC_CLASSIFY(!is_valley(*plan), "not a valley");
  auto again = synthesize(c.mesh, c.src, c.target_mesh, c.dst);
  RC_ASSERT(again.ok() && *again == *plan);
  const BigInt bound = std::max(local_bytes(c.src), local_bytes(c.dst));
  const std::string problem = plan_problem(*plan, c.mesh, c.src, c.target_mesh, c.dst, bound);
  if (!problem.empty()) RC_FAIL(problem);
}

RC_GTEST_PROP(SynthesizeRandom, PlansAreCorrectBoundedAndMatchTheirFigures, ()) {
  check_case(*gen_reshard_case());
}

RC_GTEST_PROP(SynthesizeRandom, SmallMeshesAlwaysInterpreted, ()) {
  MeshOptions small;
  small.max_devices = 16;
  small.max_axis_size = 6;
  check_case(*gen_reshard_case(small, 3));
}

RC_GTEST_PROP(SynthesizeRandom, RankFourOnFourAxes, ()) {
  MeshOptions four;
  four.max_axis_size = 4;
  four.max_devices = 64;
  check_case(*gen_reshard_case(four, 4));
}

}  // namespace
}  // namespace redist::testing
