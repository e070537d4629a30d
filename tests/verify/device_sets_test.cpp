// Reshards between other device sets (docs/meshes.md "Other device sets"): each case of
// tests/data/device_sets.txt is planned as one transfer (with the reductions of its
// sides around it, or, for the `staged` cases under a cost model whose links between
// the meshes are slow, followed by an all_gather on the target mesh), proved by the checker (every verdict field asserted) and run by the
// interpreter from the source placement to the target placement, every element
// compared. A replicated source spreads its sends over the replicas. The checker is
// shown able to fail: transfers with a wrong sender, a wrong box, a missing send or a
// doubled one are refuted with a counterexample the interpreter confirms.

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "redist/core/semantics.hpp"
#include "redist/plan/figures.hpp"
#include "redist/plan/lowered.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/proofs/anchors.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/synthesize.hpp"
#include "redist/verify/checker.hpp"
#include "redist/verify/interpreter.hpp"
#include "synth/checker_checks.hpp"

namespace redist {
namespace {

/// The cases of tests/data/device_sets.txt.
std::vector<Anchor> cases() {
  std::ifstream in(REDIST_DEVICE_SETS_FILE);
  std::ostringstream text;
  text << in.rdbuf();
  auto parsed = parse_anchors(text.str());
  if (!parsed.ok()) throw std::runtime_error(parsed.error().to_string());
  return *parsed;
}

Anchor named(const std::string& name) {
  for (const auto& c : cases())
    if (c.name == name) return c;
  throw std::runtime_error("no case " + name);
}

std::vector<std::string> case_names() {
  std::vector<std::string> names;
  for (const auto& c : cases()) names.push_back(c.name);
  return names;
}

bool tagged(const Anchor& c, const std::string& tag) { return c.tags.find(tag) != std::string::npos; }

/// The plan of `c`: synthesize()'s, under tests/data/device_sets.cost for `staged` cases.
Plan plan_of(const Anchor& c) {
  SynthOptions options;
  auto model = read_cost_model(REDIST_DEVICE_SETS_COST_FILE);
  if (!model) throw std::runtime_error(model.error().to_string());
  if (tagged(c, "staged")) options.cost_model = &*model;
  auto plan = synthesize(c.mesh, c.source, c.target_mesh, c.target, options);
  if (!plan) throw std::runtime_error(plan.error().to_string());
  return *plan;
}

/// The sends of the plan's transfer step.
TransferTable sends_of(const Plan& plan) {
  auto lowered = lower(plan);
  if (!lowered) throw std::runtime_error(lowered.error().to_string());
  for (const auto& step : lowered->steps)
    if (const auto* t = std::get_if<LoweredTransfer>(&step.op)) return t->sends;
  throw std::runtime_error("the plan has no transfer");
}

class DeviceSets : public ::testing::TestWithParam<std::string> {};

TEST_P(DeviceSets, PlansProvesAndRuns) {
  const Anchor c = named(GetParam());
  ASSERT_NE(c.mesh.device_ids(), c.target_mesh.device_ids()) << "the case must change the device set";
  const std::optional<Plan> plan = plan_of(c);
  EXPECT_EQ(std::count_if(plan->steps.begin(), plan->steps.end(),
                          [](const Step& s) { return std::holds_alternative<Transfer>(s.op); }),
            1);
  // A staged plan: the transfer sends a type split further over the target's replica
  // axes, and one all_gather on the target mesh ends it.
  BigInt staged_bytes = local_bytes(c.target);
  if (tagged(c, "staged")) {
    ASSERT_EQ(plan->steps.size(), 2u) << to_string(*plan);
    const auto& sent = std::get<Transfer>(plan->steps[0].op).to;
    ASSERT_TRUE(std::holds_alternative<AllGather>(plan->steps[1].op)) << to_string(*plan);
    staged_bytes = local_bytes(sent);
    EXPECT_LT(staged_bytes, local_bytes(c.target));
  }
  auto reparsed = parse_plan(to_string(*plan));  // the plan text reads back
  ASSERT_TRUE(reparsed.ok()) << reparsed.error().to_string();
  EXPECT_EQ(*reparsed, *plan);

  auto report = check_plan(*plan);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_EQ(report->correct.verdict, Verdict::proved) << report->correct.detail;
  EXPECT_EQ(report->memory.verdict, Verdict::proved) << report->memory.detail;
  EXPECT_LE(report->peak_local_bytes, report->bound_bytes);
  EXPECT_EQ(report->bound_bytes, std::max(local_bytes(c.source), local_bytes(c.target)));
  // The transfer holds its input and output at once (an all_reduce may hold more), as
  // does a staged plan's all_gather.
  if (!tagged(c, "reduce")) {
    EXPECT_EQ(report->transient_peak_bytes,
              tagged(c, "staged") ? std::max(local_bytes(c.source) + staged_bytes, staged_bytes + local_bytes(c.target))
                                  : local_bytes(c.source) + local_bytes(c.target));
  }
  if (tagged(c, "padded")) {
    EXPECT_EQ(report->tight.verdict, Verdict::unknown) << report->tight.detail;
    EXPECT_EQ(report->transfers, Transfers::unknown);
    EXPECT_FALSE(report->verified());
  } else if (tagged(c, "reduce")) {  // measured in total (docs/checker.md "G3b with reductions")
    EXPECT_EQ(report->no_peak.verdict, Verdict::proved) << report->no_peak.detail;
    const bool excess = tagged(c, "excess");
    EXPECT_EQ(report->tight.verdict, excess ? Verdict::refuted : Verdict::proved) << report->tight.detail;
    EXPECT_EQ(report->transfers, excess ? Transfers::excess : Transfers::tight);
    EXPECT_TRUE(report->verified());
  } else {
    EXPECT_EQ(report->no_peak.verdict, Verdict::proved) << report->no_peak.detail;
    EXPECT_EQ(report->tight.verdict, Verdict::proved) << report->tight.detail;
    EXPECT_EQ(report->transfers, Transfers::tight);
    EXPECT_TRUE(report->verified());
    // Received = LB on every device: the maxima agree and match the figures.
    const auto figures = plan_figures(*plan);
    ASSERT_TRUE(figures.ok());
    ASSERT_TRUE(figures->lower_bound.has_value());
    EXPECT_EQ(figures->recv_bytes_max, figures->lower_bound->max);
    EXPECT_EQ(figures->recv_bytes_total, figures->lower_bound->total);
    ASSERT_TRUE(report->lower_bound_bytes_max.has_value());
    EXPECT_EQ(report->recv_bytes_max, *report->lower_bound_bytes_max);
  }

  // Every target element, from the source placement, by the interpreter.
  auto data = run_plan(*plan, distribute(c.mesh, c.source));
  ASSERT_TRUE(data.ok()) << data.error().to_string();
  const auto mismatch = compare(c.target_mesh, c.target, *data);
  EXPECT_FALSE(mismatch.has_value()) << mismatch->to_string();
  // Devices only in the source end empty.
  for (int64_t d : c.mesh.device_ids())
    if (!c.target_mesh.has_device(d)) {
      EXPECT_TRUE((*data)[static_cast<std::size_t>(d)].values.empty()) << d;
    }

  // Each target element is sent once; a device in both meshes keeps what it holds.
  const auto sends = sends_of(*plan);
  if (tagged(c, "spread")) {  // each receiver its own sender
    std::set<int64_t> senders, receivers;
    for (const auto& box : sends) {
      senders.insert(box.from);
      receivers.insert(box.to);
    }
    EXPECT_EQ(senders.size(), receivers.size());
  }
}

INSTANTIATE_TEST_SUITE_P(Cases, DeviceSets, ::testing::ValuesIn(case_names()));

TEST(DeviceSetsTest, CorpusHasTheIssueCases) {
  const auto all = cases();
  EXPECT_GE(all.size(), 10u);
  int disjoint = 0, overlapping = 0;
  for (const auto& c : all) {
    const auto ids = c.target_mesh.device_ids();
    const bool shared = std::any_of(ids.begin(), ids.end(), [&c](int64_t d) { return c.mesh.has_device(d); });
    (shared ? overlapping : disjoint) += 1;
  }
  EXPECT_GE(disjoint, 3);
  EXPECT_GE(overlapping, 3);
}

TEST(DeviceSetsTest, OverlappingDeviceKeepsWhatItHolds) {
  const Anchor c = named("four_to_eight_superset");
  const std::optional<Plan> plan = plan_of(c);
  int stays = 0;
  for (const auto& box : sends_of(*plan)) {
    if (box.from != box.to) continue;
    ++stays;
    EXPECT_TRUE(c.mesh.has_device(box.to));
  }
  EXPECT_EQ(stays, 4);  // devices 0..3 hold a quarter of their target column block already
}

/// `plan` with its transfer's table replaced by `edit(table)`.
Plan with_sends(Plan plan, const std::function<void(TransferTable&)>& edit) {
  TransferTable table = sends_of(plan);
  edit(table);
  for (auto& step : plan.steps)
    if (auto* t = std::get_if<Transfer>(&step.op)) t->table = table;
  return plan;
}

/// The plan of case `name` with its transfer's table replaced by `edit(table)`.
Plan with_sends(const std::string& name, const std::function<void(TransferTable&)>& edit) {
  return with_sends(plan_of(named(name)), edit);
}

/// `{x:n} f32[{x}16n, 4n]` -> `{y:n}` on devices n..2n-1 `f32[16n, {y}4n]`: every
/// source device sends a block to every target device (n^2 sends).
Anchor all_to_all_transfer(int64_t n) {
  std::string ids;
  for (int64_t d = n; d < 2 * n; ++d) ids += (ids.empty() ? "" : ",") + std::to_string(d);
  const std::string text = fmt::format(
      "all_to_all_transfer | {{x:{0}}} | f32[{{x}}{1}, {2}] | f32[{1}, {{y}}{2}] | {{y:{0}}} devices=[{3}]\n", n, 16 * n,
      4 * n, ids);
  auto parsed = parse_anchors(text);
  if (!parsed.ok()) throw std::runtime_error(parsed.error().to_string());
  return parsed->front();
}

/// Checks that `plan` is refuted on `property` and that the interpreter shows the
/// counterexample's device to hold a wrong element.
void expect_refuted_and_confirmed(const Plan& plan, PropertyResult CheckReport::*property) {
  auto report = check_plan(plan);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  const PropertyResult& r = (*report).*property;
  ASSERT_EQ(r.verdict, Verdict::refuted) << r.detail;
  ASSERT_TRUE(r.counterexample.has_value());
  EXPECT_FALSE(report->verified());
  auto data = run_plan(plan, distribute(plan.mesh, plan.source));
  ASSERT_TRUE(data.ok()) << data.error().to_string();
  const auto states = type_plan(plan);
  ASSERT_TRUE(states.ok());
  const auto mismatch = compare(states->back().mesh, states->back().type, *data);
  ASSERT_TRUE(mismatch.has_value());
  EXPECT_EQ(mismatch->device, r.counterexample->device) << r.detail << " / " << mismatch->to_string();
}

TEST(DeviceSetsTest, WrongSenderIsRefutedAndConfirmed) {
  // Device 4's first box read from device 1 instead of device 0.
  const Plan plan = with_sends("disjoint_four_to_four", [](TransferTable& t) {
    for (auto& box : t)
      if (box.to == 4 && box.from == 0) box.from = 1;
  });
  expect_refuted_and_confirmed(plan, &CheckReport::correct);
}

TEST(DeviceSetsTest, WrongBoxIsRefutedAndConfirmed) {
  const Plan plan = with_sends("disjoint_four_to_four", [](TransferTable& t) {
    for (auto& box : t)
      if (box.to == 5) {  // read one column to the right of where the element sits
        box.src_start[1] = 1;
        box.extent[1] = 1;
        box.dst_start[1] = 0;
      }
  });
  expect_refuted_and_confirmed(plan, &CheckReport::correct);
}

TEST(DeviceSetsTest, MissingSendIsRefutedAndConfirmed) {
  // Without the step's constraint for device 6 its elements have no source: the
  // coverage query finds one (the proof does not hold vacuously).
  const Plan plan = with_sends("disjoint_four_to_four", [](TransferTable& t) {
    t.erase(std::remove_if(t.begin(), t.end(), [](const TransferBox& b) { return b.to == 6; }), t.end());
  });
  expect_refuted_and_confirmed(plan, &CheckReport::correct);
  const Plan none = with_sends("disjoint_four_to_four", [](TransferTable& t) { t.clear(); });
  auto report = check_plan(none);
  ASSERT_TRUE(report.ok());
  EXPECT_EQ(report->correct.verdict, Verdict::refuted) << report->correct.detail;
}

TEST(DeviceSetsTest, DoubledSendIsExcess) {
  int64_t receiver = -1;
  const Plan plan = with_sends("half_replicated_spread", [&receiver](TransferTable& t) {
    TransferBox again = t.front();  // the same box from the other replica as well
    again.from = again.from == 0 ? 1 : 0;
    receiver = again.to;
    t.push_back(again);
  });
  auto report = check_plan(plan);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_EQ(report->correct.verdict, Verdict::proved) << report->correct.detail;  // still the right values
  EXPECT_EQ(report->tight.verdict, Verdict::refuted) << report->tight.detail;
  ASSERT_TRUE(report->tight.counterexample.has_value());
  EXPECT_EQ(report->tight.counterexample->device, receiver);
  EXPECT_EQ(report->transfers, Transfers::excess);
}

/// True when `device` is a device of the mesh `plan` ends on.
bool ends_on_device(const Plan& plan, int64_t device) {
  auto states = type_plan(plan);
  return states.ok() && states->back().mesh.has_device(device);
}

/// Checks that G1 refutes `plan` with a counterexample at step 2 on a device of the
/// final mesh (rank-2 types), which the interpreter confirms (checker_checks.hpp).
void expect_wrong_element_at_step_2(const Plan& plan) {
  const auto ce = redist::testing::expect_refuted_and_confirmed(plan);
  ASSERT_TRUE(ce.has_value());
  EXPECT_TRUE(ends_on_device(plan, ce->device));
  EXPECT_EQ(ce->step, 2);
  EXPECT_EQ(ce->local_index.size(), 2u);
  EXPECT_EQ(ce->expected_global.size(), 2u);
}

TEST(DeviceSetsTest, StagedGatherOverTheWrongDevicesIsRefutedAndConfirmed) {
  // The staged plan gathers along dp on {dp:2, tp:2} devices=[4,5,6,7]: groups {4,6}
  // and {5,7}. Given the tp groups {4,5}, {6,7} instead, device 4 concatenates its
  // block with device 5's, which holds other columns.
  Plan plan = plan_of(named("fsdp_to_replicated_tp"));
  ASSERT_EQ(plan.steps.size(), 2u);
  auto right = lower(plan);
  ASSERT_TRUE(right.ok()) << right.error().to_string();
  EXPECT_EQ(group_table(std::get<LoweredGather>(right->steps[1].op).group, right->steps[1].before.mesh),
            (DeviceGroups{{4, 6}, {5, 7}}));
  plan.steps[1].groups = DeviceGroups{{4, 5}, {6, 7}};
  expect_wrong_element_at_step_2(plan);
  // Groups naming a device outside the mesh are an error, not a verdict.
  plan.steps[1].groups = DeviceGroups{{0, 6}, {5, 7}};
  auto report = check_plan(plan);
  ASSERT_FALSE(report.ok());
  EXPECT_NE(report.error().message.find("device 0 in groups is not a device of {dp:2, tp:2} devices=[4,5,6,7]"),
            std::string::npos)
      << report.error().message;
}

TEST(DeviceSetsTest, StagedOnlyWhereTheModelMakesItCheaper) {
  const Anchor c = named("fsdp_to_replicated_tp");
  auto steps_under = [&c](const std::string& config) {
    auto model = parse_cost_model(config);
    if (!model) throw std::runtime_error(model.error().to_string());
    SynthOptions options;
    options.cost_model = &*model;
    auto plan = synthesize(c.mesh, c.source, c.target_mesh, c.target, options);
    if (!plan) throw std::runtime_error(plan.error().to_string());
    return plan->steps.size();
  };
  EXPECT_EQ(steps_under(""), 2u);  // the default classes: the links between the meshes are slow
  // The bytes model: the same bytes either way, and one collective less direct.
  auto direct = synthesize(c.mesh, c.source, c.target_mesh, c.target);
  ASSERT_TRUE(direct.ok());
  EXPECT_EQ(direct->steps.size(), 1u) << to_string(*direct);
  EXPECT_EQ(steps_under("transfer.link = intra\n"), 1u);  // the links between the meshes are fast
  EXPECT_EQ(steps_under("dp = inter\n"), 1u);             // the gather would cross the slow link too
  // Per device the staged transfer receives half of what the direct one does.
  auto model = parse_cost_model("");
  ASSERT_TRUE(model.ok());
  const Plan staged = plan_of(c);
  auto staged_cost = plan_cost(*model, staged), direct_cost = plan_cost(*model, *direct);
  ASSERT_TRUE(staged_cost.ok() && direct_cost.ok());
  EXPECT_EQ(staged_cost->steps[0].wire_bytes * 2, direct_cost->steps[0].wire_bytes);
  EXPECT_LT(staged_cost->time_us, direct_cost->time_us);
}

TEST(DeviceSetsTest, ReductionOverTheWrongDevicesOfOtherIdsIsRefutedAndConfirmed) {
  // {x:2, r:2} devices=[4,5,6,7] reduce-scatters over r (groups {4,5}, {6,7}) before
  // the transfer. Given the x groups {4,6}, {5,7} instead, it sums blocks of other rows.
  Plan plan = plan_of(named("pending_sum_on_other_ids"));
  ASSERT_TRUE(std::holds_alternative<ReduceScatter>(plan.steps.at(0).op)) << to_string(plan);
  auto right = lower(plan);
  ASSERT_TRUE(right.ok()) << right.error().to_string();
  EXPECT_EQ(group_table(std::get<LoweredReduceScatter>(right->steps[0].op).group, right->steps[0].before.mesh),
            (DeviceGroups{{4, 5}, {6, 7}}));
  auto correct = run_plan(plan, distribute(plan.mesh, plan.source));
  ASSERT_TRUE(correct.ok()) << correct.error().to_string();
  plan.steps[0].groups = DeviceGroups{{4, 6}, {5, 7}};
  auto report = check_plan(plan);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  ASSERT_EQ(report->correct.verdict, Verdict::refuted) << report->correct.detail;
  ASSERT_TRUE(report->correct.counterexample.has_value());
  EXPECT_FALSE(report->verified());
  // The interpreter: the counterexample's device (on the target mesh {u:4}, ids 0-3)
  // ends with other values than under the right groups, and the target is not met.
  const int64_t device = report->correct.counterexample->device;
  EXPECT_TRUE(ends_on_device(plan, device)) << device;
  auto wrong = run_plan(plan, distribute(plan.mesh, plan.source));
  ASSERT_TRUE(wrong.ok()) << wrong.error().to_string();
  EXPECT_NE((*wrong)[static_cast<std::size_t>(device)].values, (*correct)[static_cast<std::size_t>(device)].values);
  const Anchor c = named("pending_sum_on_other_ids");
  EXPECT_TRUE(compare(c.target_mesh, c.target, *wrong).has_value());
  EXPECT_FALSE(compare(c.target_mesh, c.target, *correct).has_value());
}

/// The anchor of one line of tests/data/device_sets.txt's format.
Anchor anchor_of(const std::string& line) {
  auto parsed = parse_anchors(line + "\n");
  if (!parsed.ok()) throw std::runtime_error(parsed.error().to_string());
  return parsed->front();
}

TEST(DeviceSetsTest, PendingSumIsReduceScatteredBeforeTheTransfer) {
  // The reduction group r splits dim 1 evenly: a reduce_scatter (half an all_reduce's
  // bytes), after which each piece has one holder, so every device receives exactly LB.
  const Plan plan = plan_of(named("pending_sum_source"));
  ASSERT_EQ(plan.steps.size(), 2u);
  const auto* scatter = std::get_if<ReduceScatter>(&plan.steps[0].op);
  ASSERT_NE(scatter, nullptr) << to_string(plan);
  EXPECT_EQ(scatter->dim, 1);
  const auto figures = plan_figures(plan);
  ASSERT_TRUE(figures.ok());
  ASSERT_TRUE(figures->lower_bound.has_value());
  EXPECT_EQ(figures->recv_bytes_max, figures->lower_bound->max);
  EXPECT_EQ(figures->recv_bytes_total, figures->lower_bound->total);
  // No dim splits evenly over r:3 (local 4 x 8): an all_reduce, as before.
  const Plan uneven = plan_of(anchor_of(
      "three_summands | {x:2, r:3} | f32[{x}8, 8] sum{r} | f32[8, {y}8] | {y:4} devices=[6,7,8,9]"));
  ASSERT_FALSE(uneven.steps.empty());
  EXPECT_TRUE(std::holds_alternative<AllReduce>(uneven.steps[0].op)) << to_string(uneven);
  auto report = check_plan(uneven);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_EQ(report->correct.verdict, Verdict::proved) << report->correct.detail;
}

/// Checks that `plan` of case `c` is proved (G1, G2, G3a, G3b tight) and that the
/// interpreter delivers every target element.
void expect_tight_and_delivered(const Anchor& c, const Plan& plan) {
  redist::testing::expect_proved_and_tight(plan);
  auto data = run_plan(plan, distribute(c.mesh, c.source));
  ASSERT_TRUE(data.ok()) << data.error().to_string();
  const auto mismatch = compare(c.target_mesh, c.target, *data);
  EXPECT_FALSE(mismatch.has_value()) << mismatch->to_string();
}

TEST(DeviceSetsTest, AllToAllTransferOf64DevicesIsProvedTight) {
  // 4,096 sends given as a table (sends=, so not the symbolic relation): proved because
  // the relation and the coverage and sends-once queries split on the receiver
  // (docs/checker.md "Transfers"); one flat disjunction was `unknown` at the default
  // timeout.
  const Anchor c = all_to_all_transfer(64);
  const Plan plan = with_sends(plan_of(c), [](TransferTable&) {});
  EXPECT_EQ(sends_of(plan).size(), 4096u);
  auto lowered = lower(plan);
  ASSERT_TRUE(lowered.ok());
  EXPECT_FALSE(std::get<LoweredTransfer>(lowered->steps[0].op).symbolic);
  expect_tight_and_delivered(c, plan);
}

TEST(DeviceSetsTest, MeshesOfOtherShapesInTheImplicitOrderAreComparedByDevice) {
  // Whether a device already held an element it receives is asked of one device seen on
  // both meshes. On {x:8} and {y:2, z:2}, both in the implicit order, devices 0-3 are on
  // both, but their digits do not pair up (three on x against one on y and one on z), so
  // the checker compares their device numbers. Paired digit by digit, it read past the
  // target's digits (ASan: heap-buffer-overflow), crashed one run in three of
  // TransferSenders.SynthesizedPlansWithSearchedSendersAreProved, and called the first
  // of these transfers excess: device 2 holds element 2 and needs 4-7, device 0 holds
  // element 0 and needs 0-3, and each receives exactly what it lacks.
  const char* lines[] = {
      "shapes_8_to_2x2 | {x:8} | f32[{x}8] | f32[{y}8] | {y:2, z:2}\n",
      "shapes_2x4_to_4 | {x:2, y:4} | f32[{x,y}8] | f32[{z}8] | {z:4}\n",
  };
  for (const char* line : lines) {
    auto parsed = parse_anchors(line);
    ASSERT_TRUE(parsed.ok()) << parsed.error().to_string();
    const Anchor& c = parsed->front();
    SCOPED_TRACE(c.name);
    expect_tight_and_delivered(c, plan_of(c));
  }
}

TEST(DeviceSetsTest, SymbolicTransferOf256DevicesIsProvedTight) {
  // 65,536 sends, four times the most a table is posed with: every source element has
  // one holder, so the checker encodes the lowering's table as the holder relation
  // (docs/checker.md "Transfers") and proves G1-G3 without enumerating the sends.
  const Anchor c = all_to_all_transfer(256);
  const Plan plan = plan_of(c);
  auto lowered = lower(plan);
  ASSERT_TRUE(lowered.ok());
  const auto& transfer = std::get<LoweredTransfer>(lowered->steps[0].op);
  EXPECT_TRUE(transfer.symbolic);
  EXPECT_EQ(transfer.sends.size(), 65536u);
  expect_tight_and_delivered(c, plan);
}

TEST(DeviceSetsTest, WrongGatherAfterASymbolicTransferIsRefutedAndConfirmed) {
  // The symbolic relation is not vacuous: after a 16-device transfer (symbolic at any
  // size), a gather over y whose one group lists devices 16 and 17 the other way round
  // puts device 17's columns where 16's belong; G1 is refuted through the transfer and
  // the interpreter agrees.
  const Anchor c = all_to_all_transfer(16);
  Plan plan = plan_of(c);
  auto lowered = lower(plan);
  ASSERT_TRUE(lowered.ok());
  EXPECT_TRUE(std::get<LoweredTransfer>(lowered->steps[0].op).symbolic);
  std::vector<int64_t> group;
  for (int64_t d = 16; d < 32; ++d) group.push_back(d);
  std::swap(group[0], group[1]);
  plan.steps.push_back(Step{AllGather{1, {AxisRef{"y", 1, 16, false}}}, DeviceGroups{group}});
  plan.target = parse_type("f32[256, 64]", c.target_mesh).value();
  expect_wrong_element_at_step_2(plan);
}

TEST(DeviceSetsTest, WrongSenderAmong4096SendsIsRefutedAndConfirmed) {
  // Device 100's block from source device 7 read from device 8 instead.
  const Plan plan = with_sends(plan_of(all_to_all_transfer(64)), [](TransferTable& t) {
    for (auto& box : t)
      if (box.to == 100 && box.from == 7) box.from = 8;
  });
  expect_refuted_and_confirmed(plan, &CheckReport::correct);
}

TEST(DeviceSetsTest, PartlyOverlappingSendsAreExcess) {
  // Half of one box sent again from the other replica: the two boxes overlap without
  // being equal, so the pair passes the interval test and Z3 finds the element.
  int64_t receiver = -1;
  const Plan plan = with_sends("half_replicated_spread", [&receiver](TransferTable& t) {
    TransferBox half = t.front();
    half.from = half.from == 0 ? 1 : 0;
    ASSERT_GE(half.extent[0], 2);
    half.extent[0] /= 2;
    receiver = half.to;
    t.push_back(half);
  });
  auto report = check_plan(plan);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_EQ(report->correct.verdict, Verdict::proved) << report->correct.detail;
  EXPECT_EQ(report->tight.verdict, Verdict::refuted) << report->tight.detail;
  ASSERT_TRUE(report->tight.counterexample.has_value());
  EXPECT_EQ(report->tight.counterexample->device, receiver);
  EXPECT_EQ(report->transfers, Transfers::excess);
}

/// The plan of `text`; throws when it does not parse.
Plan parsed(const std::string& text) {
  auto plan = parse_plan(text);
  if (!plan.ok()) throw std::runtime_error(plan.error().to_string());
  return *plan;
}

/// A gather on {x:2} over devices 0 and 1, a transfer to {y:2} on `order`, then a slice
/// by y: what a device received in the gather crosses the transfer (it stays on its
/// device) and the slice keeps or drops it.
Plan gather_transfer_slice(const std::string& order) {
  return parsed(fmt::format(
      "mesh {{x:2}}\nsource f32[{{x}}8, 8]\nall_gather(dim=0, axes={{x}})\n"
      "transfer(mesh={{y:2}} devices=[{}], to=f32[8, 8])\nall_slice(dim=0, axes={{y}})\ntarget f32[{{y}}8, 8]\n",
      order));
}

TEST(DeviceSetsTest, ArrivalsAreFollowedAcrossATransfer) {
  // devices=[1,0]: device 1 (y=0) keeps rows 0-3, which it received in the gather, and
  // drops rows 4-7, which it held; device 0 the other way round. Received = LB on both.
  auto kept = check_plan(gather_transfer_slice("1,0"));
  ASSERT_TRUE(kept.ok()) << kept.error().to_string();
  EXPECT_EQ(kept->correct.verdict, Verdict::proved) << kept->correct.detail;
  EXPECT_EQ(kept->memory.verdict, Verdict::refuted) << kept->memory.detail;  // the gathered 8 x 8
  EXPECT_EQ(kept->no_peak.verdict, Verdict::proved) << kept->no_peak.detail;
  EXPECT_EQ(kept->tight.verdict, Verdict::proved) << kept->tight.detail;
  EXPECT_EQ(kept->transfers, Transfers::tight);

  // devices=[0,1]: device 0 (y=0) drops rows 4-7, received in the gather and kept
  // through the transfer: a peak, found only by following the arrival across it.
  const Plan plan = gather_transfer_slice("0,1");
  auto dropped = check_plan(plan);
  ASSERT_TRUE(dropped.ok()) << dropped.error().to_string();
  EXPECT_EQ(dropped->correct.verdict, Verdict::proved) << dropped->correct.detail;
  ASSERT_EQ(dropped->no_peak.verdict, Verdict::refuted) << dropped->no_peak.detail;
  ASSERT_TRUE(dropped->no_peak.counterexample.has_value());
  const Counterexample& ce = *dropped->no_peak.counterexample;
  EXPECT_EQ(ce.device, 0);
  EXPECT_EQ(ce.coords, std::vector<int64_t>{0});
  EXPECT_EQ(ce.step, 3);
  ASSERT_EQ(ce.local_index.size(), 2u);
  EXPECT_GE(ce.local_index[0], 4);  // a row device 0 did not hold in the source
  EXPECT_EQ(ce.expected_global, ce.local_index);
  EXPECT_EQ(dropped->tight.verdict, Verdict::refuted) << dropped->tight.detail;
  EXPECT_EQ(dropped->transfers, Transfers::excess);
  EXPECT_FALSE(dropped->verified());

  // The interpreter confirms: device 0 lacks the element in the source, holds it after
  // the transfer at the counterexample's index, and no longer holds it after the slice.
  const auto states = type_plan(plan);
  ASSERT_TRUE(states.ok());
  const int64_t value = element_value(plan.source, ce.expected_global);
  auto holds = [value](const LocalBuffer& b) { return std::count(b.values.begin(), b.values.end(), value) > 0; };
  MeshData data = distribute(plan.mesh, plan.source);
  EXPECT_FALSE(holds(data[0]));
  for (std::size_t k = 0; k < 2; ++k) {
    auto next = run_step(k == 0 ? TypedState{plan.mesh, plan.source} : (*states)[k - 1], plan.steps[k], data);
    ASSERT_TRUE(next.ok()) << next.error().to_string();
    data = std::move(*next);
  }
  EXPECT_EQ(data[0].values[static_cast<std::size_t>(ce.local_index[0] * 8 + ce.local_index[1])], value);
  auto sliced = run_step((*states)[1], plan.steps[2], data);
  ASSERT_TRUE(sliced.ok()) << sliced.error().to_string();
  EXPECT_FALSE(holds((*sliced)[0]));
}

TEST(DeviceSetsTest, ReductionsBesideATransferAreMeasuredInTotal) {
  // A reduce_scatter on the source's devices, then the transfer: the reducing devices
  // are not the ones LB spreads the reductions' share over, so G3b is measured in total:
  // the reduce_scatter receives the share (256 bytes over the 4 source devices), and
  // the transfer is tight per device (Z3).
  auto report = check_plan(plan_of(named("pending_sum_source")));
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_EQ(report->correct.verdict, Verdict::proved) << report->correct.detail;
  EXPECT_EQ(report->no_peak.verdict, Verdict::proved) << report->no_peak.detail;
  EXPECT_EQ(report->tight.verdict, Verdict::proved) << report->tight.detail;
  EXPECT_EQ(report->transfers, Transfers::tight);
  EXPECT_NE(report->tight.detail.find("in total over the devices (the reducing ones are the source's, the share of LB "
                                      "is spread over the target's): the reducing steps receive 256 bytes, the "
                                      "reductions' share of LB is 256"),
            std::string::npos)
      << report->tight.detail;
  EXPECT_TRUE(report->verified());
  // An all_reduce (no dim splits over r:3) receives 2(g-1)/g of the buffer on each of the
  // 6 source devices: 1,008 bytes against a share of 512, an excess by count.
  const Plan all_reduce = plan_of(
      anchor_of("three_summands | {x:2, r:3} | f32[{x}8, 8] sum{r} | f32[8, {y}8] | {y:4} devices=[6,7,8,9]"));
  auto counted = check_plan(all_reduce);
  ASSERT_TRUE(counted.ok()) << counted.error().to_string();
  EXPECT_EQ(counted->tight.verdict, Verdict::refuted) << counted->tight.detail;
  EXPECT_EQ(counted->transfers, Transfers::excess);
  EXPECT_NE(counted->tight.detail.find("the reducing steps receive 1008 bytes, the reductions' share of LB is 512"),
            std::string::npos)
      << counted->tight.detail;
  EXPECT_TRUE(counted->verified());  // excess is a proved measurement
}

/// Checks with the interpreter that counterexample `ce` of an excess (a target element
/// device ce.device holds in the source and receives again in step 2 of `plan`) is what
/// happens: the device holds the element's value in the source, not after step 1, and
/// again after step 2.
void expect_held_dropped_and_received_again(const Plan& plan, const Counterexample& ce) {
  ASSERT_EQ(ce.step, 2);
  ASSERT_EQ(ce.expected_global.size(), 2u);
  const auto states = type_plan(plan);
  ASSERT_TRUE(states.ok());
  const auto d = static_cast<std::size_t>(ce.device);
  auto held = [&](const MeshData& data, const TypedState& state) {
    if (!state.mesh.has_device(ce.device)) return false;
    const auto box = shard_box(state.mesh, state.type, state.mesh.coords_of_device(ce.device));
    for (std::size_t i = 0; i < 2; ++i)
      if (ce.expected_global[i] < box[i].start || ce.expected_global[i] >= box[i].start + box[i].size) return false;
    const int64_t at = (ce.expected_global[0] - box[0].start) * data[d].shape[1] + ce.expected_global[1] - box[1].start;
    return data[d].values[static_cast<std::size_t>(at)] == element_value(state.type, ce.expected_global);
  };
  MeshData data = distribute(plan.mesh, plan.source);
  EXPECT_TRUE(held(data, TypedState{plan.mesh, plan.source}));
  for (std::size_t k = 0; k < 2; ++k) {
    auto next = run_step(k == 0 ? TypedState{plan.mesh, plan.source} : (*states)[k - 1], plan.steps[k], data);
    ASSERT_TRUE(next.ok()) << next.error().to_string();
    data = std::move(*next);
    EXPECT_EQ(held(data, (*states)[k]), k == 1) << "after step " << k + 1;
  }
}

TEST(DeviceSetsTest, ReceivedAgainBeforeAnAddPendingIsExcessAndConfirmed) {
  // {x:2} -> {y:2, z:2} f32[{y}8, 8] sum{z}: the plan splits the transfer over z and
  // gathers after it, so device 0, which holds rows 0-3 in the source, keeps rows 0-1
  // and receives rows 2-3 again in the gather. G3b says so with that element.
  const Plan plan = plan_of(named("pending_sum_target"));
  ASSERT_EQ(plan.steps.size(), 3u) << to_string(plan);
  auto report = check_plan(plan);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_EQ(report->correct.verdict, Verdict::proved) << report->correct.detail;
  ASSERT_EQ(report->tight.verdict, Verdict::refuted) << report->tight.detail;
  EXPECT_EQ(report->transfers, Transfers::excess);
  ASSERT_TRUE(report->tight.counterexample.has_value());
  const Counterexample& ce = *report->tight.counterexample;
  EXPECT_EQ(ce.device, 0);
  // The interpreter: device 0 holds the element in the source, not after the transfer,
  // and again after the gather.
  expect_held_dropped_and_received_again(plan, ce);
}

TEST(DeviceSetsTest, TheExcessReportedIsTheCaseTheSolverFound) {
  // A staged transfer onto devices 4-11 from {x:4, y:2} on 0-7: device 6 holds rows
  // 48-55 in the source, the transfer sends it rows 0-31 (its dp half) and the gather
  // brings rows 48-55 back. The counterexample is that element, read from the case the
  // solver satisfied; a case of another component, whose variables the model leaves
  // free, is never reported (it once named an all_gather that "sent away" an element).
  const Plan plan = parse_plan(
                        "mesh {x:4, y:2}\nsource f32[{x,y}64, 16]\n"
                        "transfer(mesh={dp:2, tp:4} devices=[4,5,6,7,8,9,10,11], to=f32[{dp}64, {tp}16])\n"
                        "all_gather(dim=0, axes={dp})\ntarget f32[64, {tp}16]\n")
                        .value();
  auto report = check_plan(plan);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_EQ(report->correct.verdict, Verdict::proved) << report->correct.detail;
  ASSERT_EQ(report->tight.verdict, Verdict::refuted) << report->tight.detail;
  ASSERT_TRUE(report->tight.counterexample.has_value());
  const Counterexample& ce = *report->tight.counterexample;
  EXPECT_NE(ce.reason.find("holds target element"), std::string::npos) << ce.reason;
  expect_held_dropped_and_received_again(plan, ce);
}

}  // namespace
}  // namespace redist
