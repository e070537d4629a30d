// The checker on add_pending (Replicate -> Partial, docs/checker.md "add_pending"): right
// plans are proved (G1 with live paths, G3 tight with zero bytes received); the mutant
// that keeps the value on every coordinate of the new pending axes (no identity fill)
// is refuted with a counterexample the interpreter confirms: run without the fill, the
// pending sum of the element it names is not the element. A max / min fill and the
// typing rule's refusals are checked too.

#include <gtest/gtest.h>

#include <string>

#include "checker_support.hpp"
#include "redist/plan/lowering.hpp"

namespace redist::testing {
namespace {

/// Expects every property proved, transfers tight with `received` bytes per device.
void expect_verified(const CheckReport& r, int64_t received) {
  EXPECT_EQ(r.correct.verdict, Verdict::proved) << r.correct.detail;
  EXPECT_EQ(r.memory.verdict, Verdict::proved) << r.memory.detail;
  EXPECT_EQ(r.no_peak.verdict, Verdict::proved) << r.no_peak.detail;
  EXPECT_EQ(r.transfers, Transfers::tight) << r.tight.detail;
  EXPECT_EQ(r.recv_bytes_max, received);
  EXPECT_EQ(r.lower_bound_bytes_max, BigInt(received));
  EXPECT_TRUE(r.verified());
}

TEST(CheckerAddPending, ReplicateToPartialIsProvedWithNothingReceived) {
  expect_verified(check_text("mesh {dp:2, tp:4}\nsource f32[{dp}8, 16]\nadd_pending(axes={tp}, op=sum)\n"
                             "target f32[{dp}8, 16] sum{tp}\n"),
                  0);
  expect_verified(check_text("mesh {x:8}\nsource f32[{x:(1)2}16, 8]\nadd_pending(axes={x:(2)4}, op=sum)\n"
                             "target f32[{x:(1)2}16, 8] sum{x:(2)4}\n"),
                  0);
  expect_verified(check_text("mesh {x:2, y:2, z:2}\nsource f32[{x}8, 4] min{y}\nadd_pending(axes={z}, op=min)\n"
                             "target f32[{x}8, 4] min{y,z}\n"),
                  0);
}

TEST(CheckerAddPending, AddThenMoveAndAddThenReduceAreProved) {
  // tp moves to dim 1 after a max over dp is added: the all_to_all receives 3/4 of 128 bytes.
  expect_verified(check_text("mesh {dp:2, tp:4}\nsource f32[{tp}8, 16]\nadd_pending(axes={dp}, op=max)\n"
                             "all_to_all(src=0, dst=1, axes={tp})\ntarget f32[8, {tp}16] max{dp}\n"),
                  96);
  // Adding a pending sum and reducing it again is correct (the identity combines nothing).
  const auto r = check_text("mesh {x:4}\nsource f32[16]\nadd_pending(axes={x}, op=sum)\nall_reduce(axes={x})\n"
                            "target f32[16]\n");
  EXPECT_EQ(r.correct.verdict, Verdict::proved) << r.correct.detail;
}

/// The group of device `d` over `axes` on `mesh` (physical ids).
std::vector<int64_t> group_of(const Mesh& mesh, const std::vector<AxisRef>& axes, int64_t d) {
  for (const auto& group : device_groups(mesh, axes))
    if (std::find(group.begin(), group.end(), d) != group.end()) return group;
  return {};
}

TEST(CheckerAddPending, KeepingTheValueOnEveryCoordinateIsRefutedAndConfirmed) {
  struct Case {
    const char* text;
    const char* dropped;  // the plan without the fill: what the mutant runs
  };
  const Case cases[] = {
      {"mesh {dp:2, tp:4}\nsource f32[{dp}8, 16]\nadd_pending(axes={tp}, op=sum)\ntarget f32[{dp}8, 16] sum{tp}\n",
       "mesh {dp:2, tp:4}\nsource f32[{dp}8, 16]\n"},
      {"mesh {dp:2, tp:4}\nsource f32[{tp}8, 16]\nadd_pending(axes={dp}, op=sum)\n"
       "all_to_all(src=0, dst=1, axes={tp})\ntarget f32[8, {tp}16] sum{dp}\n",
       "mesh {dp:2, tp:4}\nsource f32[{tp}8, 16]\nall_to_all(src=0, dst=1, axes={tp})\n"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    const Plan plan = plan_of(c.text);
    auto lowered = lower(plan);
    ASSERT_TRUE(lowered.ok()) << lowered.error().to_string();
    const TypedState target = final_state(*lowered);
    // The mutant: the add_pending's groups are single devices, so every device keeps.
    LoweredPlan mutant = *lowered;
    auto& add = std::get<LoweredAddPending>(mutant.steps[0].op);
    add.group = GroupSpec{{}, std::nullopt, 1};
    auto report = check_lowered(mutant, target);
    ASSERT_TRUE(report.ok()) << report.error().to_string();
    const PropertyResult& g1 = report->correct;
    ASSERT_EQ(g1.verdict, Verdict::refuted) << g1.detail;
    ASSERT_TRUE(g1.counterexample.has_value());
    const Counterexample& ce = *g1.counterexample;
    EXPECT_NE(ce.reason.find("combined twice"), std::string::npos) << ce.reason;

    // The interpreter runs the plan without the fill and sums the element over the
    // target's pending group: it is g times the element, not the element (each value
    // one more than its linear index, so that element 0 is not 0 either).
    const Plan dropped = plan_of(c.dropped);
    MeshData source = distribute(dropped.mesh, dropped.source);
    for (auto& buffer : source)
      for (auto& v : buffer.values) v += 1;
    auto data = run_plan(dropped, source);
    ASSERT_TRUE(data.ok()) << data.error().to_string();
    ASSERT_EQ((*data)[0].shape, local_shape(target.type));
    int64_t flat = 0;
    for (std::size_t i = 0; i < ce.local_index.size(); ++i) flat = flat * (*data)[0].shape[i] + ce.local_index[i];
    const auto group = group_of(target.mesh, target.type.reduce_axes, ce.device);
    ASSERT_EQ(static_cast<int64_t>(group.size()), product_of_sizes(target.type.reduce_axes));
    int64_t sum = 0;
    for (int64_t d : group) sum += (*data)[static_cast<std::size_t>(d)].values[static_cast<std::size_t>(flat)];
    const int64_t expected = element_value(target.type, ce.expected_global) + 1;
    EXPECT_NE(sum, expected);
    EXPECT_EQ(sum, expected * static_cast<int64_t>(group.size()));
    // And the right plan's run is right everywhere.
    auto right = run_plan(plan, distribute(plan.mesh, plan.source));
    ASSERT_TRUE(right.ok());
    EXPECT_FALSE(compare(target.mesh, target.type, *right).has_value());
  }
}

TEST(CheckerAddPending, FillsTheIdentityOfTheOp) {
  const Plan plan = plan_of("mesh {x:2}\nsource s32[4]\nadd_pending(axes={x}, op=max)\ntarget s32[4] max{x}\n");
  auto data = run_plan(plan, distribute(plan.mesh, plan.source));
  ASSERT_TRUE(data.ok());
  EXPECT_EQ((*data)[0].values, (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ((*data)[1].values, std::vector<int64_t>(4, std::numeric_limits<int64_t>::min()));
  const Plan min = plan_of("mesh {x:2}\nsource s32[4]\nadd_pending(axes={x}, op=min)\ntarget s32[4] min{x}\n");
  auto low = run_plan(min, distribute(min.mesh, min.source));
  ASSERT_TRUE(low.ok());
  EXPECT_EQ((*low)[1].values, std::vector<int64_t>(4, std::numeric_limits<int64_t>::max()));
}

TEST(CheckerAddPending, TypingRefusesTiledAxesOtherOpsAndTables) {
  auto refused = [](const char* text, const std::string& part) {
    auto plan = parse_plan(text);
    ASSERT_TRUE(plan.ok()) << plan.error().to_string();
    auto states = type_plan(*plan);
    ASSERT_FALSE(states.ok()) << text;
    EXPECT_NE(states.error().message.find(part), std::string::npos) << states.error().message;
  };
  refused("mesh {x:2, y:2}\nsource f32[{y}4]\nadd_pending(axes={y}, op=sum)\n",
          "step 1 (add_pending(axes={y}, op=sum)): axis y is used by dim 0 of f32[{y}4]; only replicated axes");
  refused("mesh {x:2, y:2}\nsource f32[4] sum{x}\nadd_pending(axes={y}, op=max)\n",
          "the op max differs from the pending sum");
  refused("mesh {x:2}\nsource f32[4]\nadd_pending(axes={x}, op=sum, groups=[[0, 1]])\n", "it takes no groups=");
  auto bad_op = parse_plan("mesh {x:2}\nsource f32[4]\nadd_pending(axes={x}, op=mean)\n");
  ASSERT_FALSE(bad_op.ok());
  EXPECT_NE(bad_op.error().message.find("unknown reduction op 'mean' (expected sum, max or min)"), std::string::npos)
      << bad_op.error().message;
  EXPECT_EQ(bad_op.error().position, std::string("mesh {x:2}\nsource f32[4]\nadd_pending(axes={x}, op=").size());
}

}  // namespace
}  // namespace redist::testing
