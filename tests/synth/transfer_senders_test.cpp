// The senders of a transfer searched under the cost model (synth/src/transfer_senders.hpp):
// a worked example where the lowering's rule pays both links' latencies and the search
// one, and a property over random device-set pairs with nodes: never slower than the
// rule, never below the bound, every element delivered (the interpreter), and proved by
// Z3 on some.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <string>

#include <fmt/format.h>

#include "redist/plan/lowered.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/synthesize.hpp"
#include "redist/verify/checker.hpp"
#include "redist/verify/interpreter.hpp"
#include "synth/src/transfer_senders.hpp"

namespace redist::testing {
namespace {

/// The typed states before and after the one transfer of `src` on `mesh` to `dst` on
/// `target_mesh`.
std::pair<TypedState, TypedState> transfer_states(const std::string& mesh, const std::string& src,
                                                  const std::string& target_mesh, const std::string& dst) {
  const Mesh m = parse_mesh(mesh).value(), t = parse_mesh(target_mesh).value();
  return {TypedState{m, parse_type(src, m).value()}, TypedState{t, parse_type(dst, t).value()}};
}

/// The modeled time of the transfer with sends `table` under `model`.
double time_of(const std::pair<TypedState, TypedState>& s, const TransferTable& table, const CostModel& model) {
  Step step{Transfer{s.second.type, s.second.mesh, table}};
  return step_cost(model, s.first, s.second, step).time_us;
}

TEST(TransferSenders, OneLinkInsteadOfTwo) {
  // Nodes of 4. Receiver 3 (node 0) needs rows 0-31, held by 1 (node 0) and 14 (node
  // 3); receiver 10 (node 2) needs rows 32-63, held by 4 and 5 (node 1): across in any
  // table. The rule reads receiver 3's rows from 1, on its node, so the transfer pays
  // the intra term besides the inter one; reading them from 14 costs the same inter
  // term (2,048 bytes on each receiver) and no intra term.
  const auto s = transfer_states("{r:2, x:2} devices=[1,4,14,5]", "f32[{x}64, 16]", "{y:2} devices=[3,10]",
                                 "f32[{y}64, 16]");
  const CostModel model = parse_cost_model("transfer.node_size = 4\ninter.latency_us = 1\n").value();
  const TransferTable rule = transfer_table(s.first, s.second, 4);
  ASSERT_EQ(rule.size(), 2u);
  EXPECT_EQ(rule[0].from, 1);
  EXPECT_EQ(rule[1].from, 4);
  EXPECT_DOUBLE_EQ(time_of(s, rule, model), (1 + 2048 / 25e3) + (1 + 2048 / 300e3));
  const auto searched = synth_detail::search_senders(s.first, s.second, model);
  ASSERT_EQ(searched.table.size(), 2u);
  EXPECT_EQ(searched.table[0].to, 3);
  EXPECT_EQ(searched.table[0].from, 14);
  EXPECT_EQ(searched.table[1].from, 4);
  EXPECT_DOUBLE_EQ(searched.time_us, 1 + 2048 / 25e3);
  EXPECT_DOUBLE_EQ(time_of(s, searched.table, model), searched.time_us);
  EXPECT_DOUBLE_EQ(searched.bound_us, 1 + 2048 / 25e3);  // optimal
  // synthesize() lists the searched senders; the plan is proved and runs.
  SynthOptions options;
  options.cost_model = &model;
  auto plan = synthesize(s.first.mesh, s.first.type, s.second.mesh, s.second.type, options);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  ASSERT_EQ(plan->steps.size(), 1u);
  EXPECT_EQ(std::get<Transfer>(plan->steps[0].op).table, searched.table) << to_string(*plan);
  auto report = check_plan(*plan);
  ASSERT_TRUE(report.ok()) << report.error().to_string();
  EXPECT_TRUE(report->verified()) << report->correct.detail << report->tight.detail;
  auto data = run_plan(*plan, distribute(s.first.mesh, s.first.type));
  ASSERT_TRUE(data.ok()) << data.error().to_string();
  EXPECT_FALSE(compare(s.second.mesh, s.second.type, *data).has_value());
}

TEST(TransferSenders, WithoutNodesTheRuleIsKept) {
  // A replicated source: the rule spreads the receivers over the replicas, which meets
  // the bound, and the search keeps it.
  const auto s = transfer_states("{r:4}", "f32[8, 8]", "{y:4} devices=[4,5,6,7]", "f32[8, {y}8]");
  const CostModel model;
  const auto searched = synth_detail::search_senders(s.first, s.second, model);
  EXPECT_EQ(searched.table, transfer_table(s.first, s.second));
  EXPECT_DOUBLE_EQ(searched.time_us, 5 + 64 / 25e3);
  EXPECT_DOUBLE_EQ(searched.bound_us, searched.time_us);
}

/// A random pair between device sets of at most 16 ids: a source replicated over r
/// and split over x, a target split over y on other (possibly shared) ids.
struct SetsCase {
  std::string mesh, src, target_mesh, dst;
  int64_t node_size = 2;
};

rc::Gen<SetsCase> sets_case() {
  return rc::gen::exec([] {
    const int r = *rc::gen::element(2, 3, 4), x = *rc::gen::element(1, 2, 4), y = *rc::gen::element(2, 4, 8);
    std::vector<int> ids(16);
    for (int i = 0; i < 16; ++i) ids[static_cast<std::size_t>(i)] = i;
    const auto shuffled = *rc::gen::container<std::vector<int>>(16, rc::gen::inRange(0, 1000));
    std::sort(ids.begin(), ids.end(), [&](int a, int b) {
      return std::make_pair(shuffled[static_cast<std::size_t>(a)], a) < std::make_pair(shuffled[static_cast<std::size_t>(b)], b);
    });
    const std::vector<int> source(ids.begin(), ids.begin() + r * x);
    const int offset = *rc::gen::inRange(0, 16 - y + 1);  // the target may share ids
    std::vector<int> target(ids.begin() + offset, ids.begin() + offset + y);
    if (std::is_permutation(source.begin(), source.end(), target.begin(), target.end())) std::swap(target[0], target[1]);
    const int rows = 8 * r * x * y, cols = 8 * y;
    SetsCase c;
    c.mesh = fmt::format("{{r:{}, x:{}}} devices=[{}]", r, x, fmt::join(source, ","));
    c.src = x > 1 ? fmt::format("f32[{{x}}{}, {}]", rows, cols) : fmt::format("f32[{}, {}]", rows, cols);
    c.target_mesh = fmt::format("{{y:{}}} devices=[{}]", y, fmt::join(target, ","));
    c.dst = *rc::gen::element(fmt::format("f32[{{y}}{}, {}]", rows, cols), fmt::format("f32[{}, {{y}}{}]", rows, cols));
    c.node_size = *rc::gen::element(2, 4);
    return c;
  });
}

RC_GTEST_PROP(TransferSenders, NeverSlowerThanTheRuleNorBelowTheBound, ()) {
  const SetsCase c = *sets_case();
  RC_TAG(c.node_size);
  const auto s = transfer_states(c.mesh, c.src, c.target_mesh, c.dst);
  RC_PRE(s.first.mesh.device_ids() != s.second.mesh.device_ids());
  const double inter_gbps = *rc::gen::element(25.0, 100.0, 300.0);
  const CostModel model =
      parse_cost_model(fmt::format("transfer.node_size = {}\ninter.bandwidth_gbps = {}\n", c.node_size, inter_gbps))
          .value();
  const auto searched = synth_detail::search_senders(s.first, s.second, model);
  const double rule = time_of(s, transfer_table(s.first, s.second, c.node_size), model);
  RC_ASSERT(searched.time_us <= rule * (1 + 1e-12));
  RC_ASSERT(std::abs(time_of(s, searched.table, model) - searched.time_us) <= 1e-9 * searched.time_us);
  RC_ASSERT(searched.bound_us <= searched.time_us * (1 + 1e-12));
  RC_TAG(searched.time_us < rule * (1 - 1e-9) ? "faster than the rule" : "as the rule");
  // The searched table is a valid transfer that delivers every element.
  RC_ASSERT(check_sends(searched.table, s.first, s.second).ok());
  Plan plan{s.first.mesh, s.first.type, {Step{Transfer{s.second.type, s.second.mesh, searched.table}}}, s.second.type};
  auto data = run_plan(plan, distribute(s.first.mesh, s.first.type));
  RC_ASSERT(data.ok());
  RC_ASSERT(!compare(s.second.mesh, s.second.type, *data).has_value());
}

RC_GTEST_PROP(TransferSenders, SynthesizedPlansWithSearchedSendersAreProved, ()) {
  // synthesize() under a model with nodes lists the searched senders; Z3 proves the
  // plan (G1 correct, G2 memory, G3 tight: every device receives exactly LB).
  const SetsCase c = *sets_case();
  const auto s = transfer_states(c.mesh, c.src, c.target_mesh, c.dst);
  RC_PRE(s.first.mesh.device_ids() != s.second.mesh.device_ids());
  const CostModel model = parse_cost_model(fmt::format("transfer.node_size = {}\n", c.node_size)).value();
  SynthOptions options;
  options.cost_model = &model;
  auto plan = synthesize(s.first.mesh, s.first.type, s.second.mesh, s.second.type, options);
  RC_ASSERT(plan.ok());
  RC_ASSERT(plan->steps.size() == 1u);
  const auto searched = synth_detail::search_senders(s.first, s.second, model);
  const auto& listed = std::get<Transfer>(plan->steps[0].op).table;
  RC_ASSERT((listed ? *listed : transfer_table(s.first, s.second)) == searched.table);
  auto report = check_plan(*plan);
  RC_ASSERT(report.ok());
  RC_ASSERT(report->correct.verdict == Verdict::proved);
  RC_ASSERT(report->memory.verdict == Verdict::proved);
  RC_ASSERT(report->tight.verdict == Verdict::proved);
  RC_ASSERT(report->verified());
}

}  // namespace
}  // namespace redist::testing
