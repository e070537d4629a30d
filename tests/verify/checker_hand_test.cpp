// The checker on hand-written plans: proofs of right plans, and refutations (with a
// counterexample the interpreter confirms) of plans with a wrong lowering.

#include <gtest/gtest.h>

#include <string>

#include "checker_support.hpp"

namespace redist::testing {
namespace {

/// Expects every property proved and transfers tight.
void expect_verified_tight(const CheckReport& r) {
  EXPECT_EQ(r.correct.verdict, Verdict::proved) << r.correct.detail;
  EXPECT_EQ(r.memory.verdict, Verdict::proved) << r.memory.detail;
  EXPECT_EQ(r.no_peak.verdict, Verdict::proved) << r.no_peak.detail;
  EXPECT_EQ(r.transfers, Transfers::tight) << r.tight.detail;
  EXPECT_EQ(r.received_over_lower_bound, "1.0000");
  EXPECT_TRUE(r.verified());
  EXPECT_FALSE(r.correct.counterexample);
}

TEST(CheckerHand, AllToAllIsProvedTight) {
  const auto r = check_text(
      "mesh {x:8}\nsource f32[{x}16, 8]\nall_to_all(src=0, dst=1, axes={x})\ntarget f32[16, {x}8]\n");
  expect_verified_tight(r);
  EXPECT_EQ(r.bound_bytes, 64);
  EXPECT_EQ(r.peak_local_bytes, 64);
  EXPECT_EQ(r.transient_peak_bytes, 128);
  EXPECT_EQ(r.recv_bytes_max, 56);
  EXPECT_EQ(r.lower_bound_bytes_max, BigInt(56));
}

TEST(CheckerHand, WrongGroupOrderIsRefutedAndConfirmed) {
  const char* text =
      "mesh {x:4}\nsource f32[{x}8]\nall_gather(dim=0, axes={x}, groups=[[0, 2, 1, 3]])\ntarget f32[8]\n";
  const auto ce = refuted_and_confirmed(text);
  ASSERT_TRUE(ce);
  EXPECT_EQ(ce->step, 1) << ce->to_string();
  ASSERT_TRUE(ce->actual_global);
  EXPECT_NE(*ce->actual_global, ce->expected_global);
}

TEST(CheckerHand, GatherThenSliceHasAPeak) {
  const auto r = check_text(
      "mesh {x:2, y:2}\nsource f32[{x}8, 8]\nall_gather(dim=0, axes={x})\nall_slice(dim=1, axes={x})\n"
      "target f32[8, {x}8]\n");
  EXPECT_EQ(r.correct.verdict, Verdict::proved) << r.correct.detail;
  EXPECT_EQ(r.memory.verdict, Verdict::refuted);
  ASSERT_EQ(r.no_peak.verdict, Verdict::refuted);
  ASSERT_TRUE(r.no_peak.counterexample);
  EXPECT_EQ(r.no_peak.counterexample->step, 2) << r.no_peak.counterexample->to_string();
  EXPECT_EQ(r.transfers, Transfers::excess);
}

TEST(CheckerHand, PermuteReorderInDim) {
  const auto r = check_text(
      "mesh {x:2, y:2}\nsource f32[{x,y}8]\ncollective_permute(to=f32[{y,x}8])\ntarget f32[{y,x}8]\n");
  expect_verified_tight(r);
}

TEST(CheckerHand, CounterexampleFieldsOfAWrongGroupOrder) {
  const auto r = check_text(
      "mesh {x:2}\nsource f32[{x}4]\nall_gather(dim=0, axes={x}, groups=[[1, 0]])\ntarget f32[4]\n");
  ASSERT_EQ(r.correct.verdict, Verdict::refuted);
  const Counterexample& ce = *r.correct.counterexample;
  // Every device gets [shard of 1, shard of 0]: local index l holds global (l + 2) % 4.
  ASSERT_EQ(ce.coords.size(), 1u);
  EXPECT_EQ(ce.device, ce.coords[0]);
  ASSERT_EQ(ce.local_index.size(), 1u);
  EXPECT_EQ(ce.expected_global, std::vector<int64_t>{ce.local_index[0]});
  ASSERT_TRUE(ce.actual_global);
  EXPECT_EQ(*ce.actual_global, std::vector<int64_t>{(ce.local_index[0] + 2) % 4});
  EXPECT_EQ(ce.step, 1);
  EXPECT_NE(ce.reason.find("all_gather"), std::string::npos) << ce.reason;
  EXPECT_NE(ce.to_string().find("device"), std::string::npos);
  EXPECT_EQ(r.transfers, Transfers::unknown);  // only measured for a correct plan
}

TEST(CheckerHand, BudgetBelowTheBufferIsRefuted) {
  CheckOptions options;
  options.budget_bytes = BigInt(32);
  const auto r = check_text("mesh {x:2}\nsource f32[{x}16]\nall_gather(dim=0, axes={x})\n", options);
  EXPECT_EQ(r.correct.verdict, Verdict::proved);
  EXPECT_EQ(r.bound_bytes, 32);
  EXPECT_EQ(r.peak_local_bytes, 64);
  EXPECT_EQ(r.transient_peak_bytes, 96);
  ASSERT_EQ(r.memory.verdict, Verdict::refuted);
  EXPECT_EQ(r.memory.counterexample->step, 1);
  EXPECT_FALSE(r.verified());
}

TEST(CheckerHand, OffsetOutOfTheBufferIsRefuted) {
  auto lowered = lower(plan_of("mesh {x:2}\nsource f32[8]\nall_slice(dim=0, axes={x})\n"));
  ASSERT_TRUE(lowered.ok());
  const TypedState target = final_state(*lowered);
  std::get<LoweredSlice>(lowered->steps[0].op).offsets = std::vector<int64_t>{0, 5};  // device 1 reads 5..8
  auto r = check_lowered(*lowered, target);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->correct.verdict, Verdict::refuted);
  const Counterexample& ce = *r->correct.counterexample;
  EXPECT_EQ(ce.device, 1);
  EXPECT_EQ(ce.step, 1);
  EXPECT_FALSE(ce.actual_global && !ce.actual_global->empty()) << ce.to_string();
}

TEST(CheckerHand, SwappedSplitAndConcatDimsIsRefuted) {
  auto lowered = lower(plan_of("mesh {x:4}\nsource f32[{x}8, 8]\nall_to_all(src=0, dst=1, axes={x})\n"));
  ASSERT_TRUE(lowered.ok());
  const TypedState target = final_state(*lowered);
  auto& a = std::get<LoweredAllToAll>(lowered->steps[0].op);
  std::swap(a.parts[0].split_dim, a.parts[0].concat_dim);
  auto r = check_lowered(*lowered, target);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->correct.verdict, Verdict::refuted);
  EXPECT_EQ(r->correct.counterexample->step, 1);
  EXPECT_TRUE(r->correct.counterexample->local_index.empty());  // a shape fault, on every device
}

TEST(CheckerHand, DoubledSummandIsRefuted) {
  const char* text = "mesh {z:2}\nsource f32[4] sum{z}\ncollective_permute(to=f32[4] sum{z}, pairs=[(0, 0), (0, 1)])\n";
  const auto r = check_text(text);
  ASSERT_EQ(r.correct.verdict, Verdict::refuted);
  const Plan plan = plan_of(text);
  EXPECT_EQ(confirm_on_data(plan, {plan.mesh, plan.source}, *r.correct.counterexample), "");
  EXPECT_EQ(r.transfers, Transfers::unknown);
}

TEST(CheckerHand, SwappedSummandsAreStillCorrect) {
  const auto r = check_text(
      "mesh {z:2}\nsource f32[4] sum{z}\ncollective_permute(to=f32[4] sum{z}, pairs=[(1, 0), (0, 1)])\n");
  EXPECT_EQ(r.correct.verdict, Verdict::proved) << r.correct.detail;
  // Nothing is reduced (LB 0), yet every device receives its buffer: excess, shown.
  EXPECT_EQ(r.transfers, Transfers::excess) << r.tight.detail;
  ASSERT_TRUE(r.tight.counterexample.has_value());
}

TEST(CheckerHand, ReduceScatterIsProved) {
  const auto r = check_text("mesh {z:2}\nsource f32[4] sum{z}\nreduce_scatter(dim=0, axes={z})\n");
  EXPECT_EQ(r.correct.verdict, Verdict::proved) << r.correct.detail;
  EXPECT_EQ(r.no_peak.verdict, Verdict::proved) << r.no_peak.detail;
  EXPECT_EQ(r.memory.verdict, Verdict::proved);
  // LB(d): 1 transfer per element of the 4-element sum, shared by 2 devices: 8 bytes,
  // what the reduce_scatter receives.
  EXPECT_EQ(r.transfers, Transfers::tight) << r.tight.detail;
  EXPECT_TRUE(r.verified());
  ASSERT_TRUE(r.lower_bound_bytes_max.has_value());
  EXPECT_EQ(*r.lower_bound_bytes_max, 8);
  EXPECT_EQ(r.recv_bytes_max, 8);
}

TEST(CheckerHand, AllReduceIsExcessAgainstTheReductionShare) {
  const auto r = check_text("mesh {z:4}\nsource f32[16] sum{z}\nall_reduce(axes={z})\n");
  EXPECT_EQ(r.transfers, Transfers::excess) << r.tight.detail;
  EXPECT_NE(r.tight.detail.find("receive 96 bytes per device, the reductions' share of LB is 48"), std::string::npos)
      << r.tight.detail;
  EXPECT_TRUE(r.verified());
}

TEST(CheckerHand, ReduceScatterThenGatherIsTightOnlyInTheReduction) {
  // sum{z} -> replicated by reduce_scatter + all_gather: the gather's elements are
  // new to each device, the reduction receives its share; received = 2 * share.
  const auto r = check_text(
      "mesh {z:4}\nsource f32[16] sum{z}\nreduce_scatter(dim=0, axes={z})\nall_gather(dim=0, axes={z})\n");
  EXPECT_EQ(r.transfers, Transfers::excess) << r.tight.detail;
  const auto late = check_text(
      "mesh {z:2, y:2}\nsource f32[{y}8] sum{z}\nall_gather(dim=0, axes={y})\nreduce_scatter(dim=0, axes={z})\n");
  EXPECT_EQ(late.correct.verdict, Verdict::proved) << late.correct.detail;
  EXPECT_EQ(late.transfers, Transfers::unknown) << late.tight.detail;  // reduces after moving
}

TEST(CheckerHand, IssueReduceScatterIsProved) {
  const auto r = check_text(
      "mesh {dp:2, tp:4}\nsource bf16[{dp}8, 2048, 1024] sum{tp}\nreduce_scatter(dim=1, axes={tp})\n"
      "target bf16[{dp}8, {tp}2048, 1024]\n");
  EXPECT_EQ(r.correct.verdict, Verdict::proved) << r.correct.detail;
}

TEST(CheckerHand, AllReduceAndPendingSumsAreProved) {
  const auto all = check_text("mesh {a:2, b:2}\nsource f32[{a}8, 4] sum{b}\nall_reduce(axes={b})\n");
  EXPECT_EQ(all.correct.verdict, Verdict::proved) << all.correct.detail;
  const auto part = check_text(
      "mesh {a:2, b:2, c:2}\nsource f32[16, 16] sum{a,b,c}\nreduce_scatter(dim=0, axes={b})\n"
      "target f32[{b}16, 16] sum{a,c}\n");
  EXPECT_EQ(part.correct.verdict, Verdict::proved) << part.correct.detail;
}

TEST(CheckerHand, ReductionOverTheWrongPendingAxisIsRefuted) {
  // sum{a, b} -> sum{a}: the all_reduce must combine over b; over a it combines
  // summands of a twice and misses those of b.
  auto lowered = lower(plan_of("mesh {a:2, b:2}\nsource f32[8] sum{a,b}\nall_reduce(axes={b})\n"));
  ASSERT_TRUE(lowered.ok());
  const TypedState target = final_state(*lowered);
  std::get<LoweredAllReduce>(lowered->steps[0].op).group.axes = {AxisRef{"a", 1, 2, false}};
  auto r = check_lowered(*lowered, target);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->correct.verdict, Verdict::refuted);
  EXPECT_NE(r->correct.detail.find("combined twice"), std::string::npos) << r->correct.detail;
}

TEST(CheckerHand, ReductionOverAnAxisTheTypeDoesNotReduceIsBadInput) {
  auto lowered = lower(plan_of("mesh {a:2, b:2}\nsource f32[8] sum{b}\nall_reduce(axes={b})\n"));
  ASSERT_TRUE(lowered.ok());
  const TypedState target = final_state(*lowered);
  std::get<LoweredAllReduce>(lowered->steps[0].op).group.axes = {AxisRef{"a", 1, 2, false}};
  auto r = check_lowered(*lowered, target);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("step 1: the all_reduce reduces over a, which is not a reduction axis"),
            std::string::npos)
      << r.error().message;
}

TEST(CheckerHand, PaddedDimCarriedAlong) {
  const auto r = check_text("mesh {x:2, y:2}\nsource f32[{x}5, {y}4]\nall_gather(dim=1, axes={y})\n");
  EXPECT_EQ(r.correct.verdict, Verdict::proved) << r.correct.detail;
  EXPECT_EQ(r.transfers, Transfers::unknown);
  EXPECT_NE(r.tight.detail.find("padded"), std::string::npos);
}

TEST(CheckerHand, PaddedGatherIsProved) {
  // The anchor nested_uneven_gather: the padded chunks gathered, the padding dropped.
  const auto r = check_text("mesh {x:2, y:2}\nsource f32[{x,y}5, 3]\nall_gather(dim=0, axes={x,y})\ntarget f32[5, 3]\n");
  EXPECT_EQ(r.correct.verdict, Verdict::proved) << r.correct.detail;
  EXPECT_EQ(r.memory.verdict, Verdict::proved) << r.memory.detail;
  EXPECT_EQ(r.bound_bytes, 60);             // the target: 5 x 3 x 4 bytes
  EXPECT_EQ(r.recv_bytes_max, 72);  // three padded 2x3 chunks, padding included
  const auto nesting = check_text("mesh {x:2, y:2}\nsource f32[{x,y}7, 3]\nall_gather(dim=0, axes={y})\n");
  EXPECT_EQ(nesting.correct.verdict, Verdict::proved) << nesting.correct.detail;
}

TEST(CheckerHand, PaddedGatherInTheWrongOrderIsRefutedAndConfirmed) {
  // Members 0 and 2 swapped: global 4 (on device 2) lands where 0 belongs, padding at 4.
  const char* text =
      "mesh {x:2, y:2}\nsource f32[{x,y}5, 3]\nall_gather(dim=0, axes={x,y}, groups=[[2, 1, 0, 3]])\n"
      "target f32[5, 3]\n";
  const auto ce = refuted_and_confirmed(text);
  ASSERT_TRUE(ce);
}

/// The plan text of an all_gather over y on {x:a, y:b} with the groups written out, in
/// reverse order of groups (as an importer may list them), members in y order.
std::string gather_with_regular_groups(int a, int b) {
  std::string text = "mesh {x:" + std::to_string(a) + ", y:" + std::to_string(b) + "}\nsource f32[{x,y}" +
                     std::to_string(2 * a * b) + ", 4]\nall_gather(dim=0, axes={y}, groups=[";
  for (int i = a - 1; i >= 0; --i) {
    text += '[';
    for (int j = 0; j < b; ++j) text += (j ? "," : "") + std::to_string(i * b + j);
    text += i ? "]," : "]";
  }
  return text + "])\n";
}

TEST(CheckerHand, RegularTablesLowerToTheSymbolicForm) {
  // The groups y defines, listed in another order: no table. Members reordered: kept.
  auto regular = lower(plan_of(gather_with_regular_groups(2, 2)));
  ASSERT_TRUE(regular.ok());
  EXPECT_FALSE(std::get<LoweredGather>(regular->steps[0].op).group.table);
  auto irregular = lower(plan_of("mesh {x:2, y:2}\nsource f32[{x,y}8, 4]\n"
                                 "all_gather(dim=0, axes={y}, groups=[[1,0],[2,3]])\n"));
  ASSERT_TRUE(irregular.ok());
  ASSERT_TRUE(std::get<LoweredGather>(irregular->steps[0].op).group.table);
  EXPECT_EQ(*std::get<LoweredGather>(irregular->steps[0].op).group.table,
            (DeviceGroups{{1, 0}, {2, 3}}));
  // The pairs the types define, in another order: no table. A rotation: kept.
  auto pairs = lower(plan_of("mesh {x:4}\nsource f32[{x}8]\ncollective_permute(to=f32[{x}8], "
                             "pairs=[(3,3),(1,1),(0,0),(2,2)])\n"));
  ASSERT_TRUE(pairs.ok());
  EXPECT_FALSE(std::get<LoweredPermute>(pairs->steps[0].op).table);
  auto rotation = lower(plan_of("mesh {x:4}\nsource f32[{x}8]\ncollective_permute(to=f32[{x}8], "
                                "pairs=[(0,1),(1,2),(2,3),(3,0)])\n"));
  ASSERT_TRUE(rotation.ok());
  EXPECT_TRUE(std::get<LoweredPermute>(rotation->steps[0].op).table);
}

TEST(CheckerHand, RegularTableOf65536DevicesIsProvedTight) {
  // What an import of XLA's iota replica groups gives at pod scale (issue: such plans
  // were unknown from 4,096 devices on).
  const auto r = check_text(gather_with_regular_groups(256, 256));
  expect_verified_tight(r);
  EXPECT_EQ(r.recv_bytes_max, 255 * 2 * 4 * 4);
}

TEST(CheckerHand, TimeoutIsUnknownNeverProved) {
  CheckOptions options;
  options.timeout_ms = 1;
  const auto r = check_text(
      "mesh {a:16, b:16}\nsource bf16[{a}4096, {b}4096]\nall_to_all(src=0, dst=1, axes={a})\n"
      "all_to_all(src=1, dst=0, axes={a})\n",
      options);
  EXPECT_NE(r.correct.verdict, Verdict::proved);
  if (r.correct.verdict == Verdict::unknown) {
    EXPECT_NE(r.correct.detail.find("timeout"), std::string::npos) << r.correct.detail;
  }
}

TEST(CheckerHand, MalformedLoweringIsAnError) {
  auto plan = parse_plan("mesh {x:4}\nsource f32[{x}8]\nall_gather(dim=0, axes={x}, groups=[[0, 1], [2, 3]])\n");
  ASSERT_TRUE(plan.ok());
  const auto r = check_plan(*plan);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("step 1"), std::string::npos) << r.error().message;
}

TEST(CheckerHand, TargetOfAnotherArrayIsAnError) {
  auto lowered = lower(plan_of("mesh {x:2}\nsource f32[{x}8]\nall_gather(dim=0, axes={x})\n"));
  ASSERT_TRUE(lowered.ok());
  const Mesh mesh = lowered->source.mesh;
  EXPECT_FALSE(check_lowered(*lowered, {mesh, *parse_type("f32[16]", mesh)}).ok());
  EXPECT_FALSE(check_lowered(*lowered, {mesh, *parse_type("f32[8, 2]", mesh)}).ok());
}

TEST(CheckerHand, TargetOnAnotherDeviceOrderIsAnErrorNotAProof) {
  // Found by CheckerMutants.RandomPlansAgreeWithTheInterpreter (seed 4770265313716342590):
  // a plan that drops its device-order permute ended where the target's coordinates
  // name other devices, and the checker compared coordinates only and proved it.
  auto lowered = lower(plan_of("mesh {x:3, y:2} devices=[0,5,4,3,2,1]\nsource f32[{y}2]\n"
                               "all_gather(dim=0, axes={y})\nall_slice(dim=0, axes={x})\n"));
  ASSERT_TRUE(lowered.ok()) << lowered.error().to_string();
  const Mesh other = parse_mesh("{x:3, y:2} devices=[1,2,3,4,5,0]").value();
  auto r = check_lowered(*lowered, {other, *parse_type("f32[{x}2]", other)});
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("orders the devices otherwise"), std::string::npos) << r.error().message;
  // On its own device order the same plan is proved.
  const Mesh own = lowered->source.mesh;
  auto same = check_lowered(*lowered, {own, *parse_type("f32[{x}2]", own)});
  ASSERT_TRUE(same.ok()) << same.error().to_string();
  EXPECT_EQ(same->correct.verdict, Verdict::proved) << same->correct.detail;
}

TEST(CheckerHand, DeviceOrderChange) {
  const auto r = check_text(
      "mesh {x:2, y:2}\nsource f32[{x}8, {y}8]\n"
      "collective_permute(to=f32[{x}8, {y}8], mesh={x:2, y:2} devices=[0, 2, 1, 3])\n"
      "all_gather(dim=1, axes={y})\n");
  EXPECT_EQ(r.correct.verdict, Verdict::proved) << r.correct.detail;
  EXPECT_TRUE(r.verified());
}

}  // namespace
}  // namespace redist::testing
