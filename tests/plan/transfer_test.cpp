// The transfer step's plan text, typing, lowering and figures (docs/meshes.md "Other
// device sets"): the text round-trips with and without sends=, bad steps and bad send
// tables are refused with the send and the reason, the lowering sends each target
// element once (a device in both meshes keeps its part, replicas share the sending),
// and the figures and the cost model price what the lowering sends.

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "redist/plan/figures.hpp"
#include "redist/plan/lowered.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/plan/typing.hpp"
#include "redist/synth/cost_model.hpp"

namespace redist {
namespace {

const std::string kPlan =
    "mesh {x:2, r:2}\n"
    "source f32[{x}8, 4]\n"
    "transfer(mesh={y:4} devices=[4,5,6,7], to=f32[{y}8, 4])\n";

Plan parsed(const std::string& text) {
  auto plan = parse_plan(text);
  if (!plan) throw std::runtime_error(plan.error().to_string());
  return *plan;
}

TEST(TransferText, RoundTripsWithAndWithoutSends) {
  const Plan plan = parsed(kPlan);
  ASSERT_EQ(plan.steps.size(), 1u);
  const auto& t = std::get<Transfer>(plan.steps[0].op);
  EXPECT_EQ(to_string(t.to_mesh), "{y:4} devices=[4,5,6,7]");
  EXPECT_FALSE(t.table.has_value());
  EXPECT_EQ(to_string(plan), kPlan);
  Plan explicit_plan = plan;
  std::get<Transfer>(explicit_plan.steps[0].op).table =
      TransferTable{{0, 4, {0, 0}, {0, 0}, {2, 4}}, {1, 5, {2, 0}, {0, 0}, {2, 4}}};
  const std::string text = to_string(explicit_plan);
  EXPECT_NE(text.find("sends=[(0, 4, [0, 0], [0, 0], [2, 4]), (1, 5, [2, 0], [0, 0], [2, 4])]"), std::string::npos)
      << text;
  EXPECT_EQ(parsed(text), explicit_plan);
}

TEST(TransferText, BadStepsNameTheReason) {
  auto error = [](const std::string& step) {
    auto plan = parse_plan("mesh {x:4}\nsource f32[{x}8]\n" + step + "\n");
    EXPECT_FALSE(plan.ok()) << step;
    return plan.ok() ? std::string() : plan.error().message;
  };
  EXPECT_NE(error("transfer(to=f32[{y}8], mesh={y:4})").find("transfer takes mesh= before to="), std::string::npos);
  EXPECT_NE(error("transfer(mesh={y:4} devices=[4,5,6,7])").find("missing the key to="), std::string::npos);
  EXPECT_NE(error("transfer(mesh={y:4}, to=f32[{y}8], pairs=[(0, 1)])").find("unknown key 'pairs'"),
            std::string::npos);
  EXPECT_NE(error("transfer(mesh={y:4}, to=f32[{y}8], sends=[(0, 4, [0], [0])])").find("expected ','"),
            std::string::npos);
}

TEST(TransferTyping, RefusesOtherArraysPendingSumsAndBadSends) {
  auto typing_error = [](const std::string& text) {
    auto states = type_plan(parsed(text));
    EXPECT_FALSE(states.ok()) << text;
    return states.ok() ? std::string() : states.error().message;
  };
  const std::string head = "mesh {x:4}\nsource f32[{x}8]\n";
  EXPECT_NE(typing_error(head + "transfer(mesh={y:4} devices=[4,5,6,7], to=bf16[{y}8])").find("element types differ"),
            std::string::npos);
  EXPECT_NE(typing_error(head + "transfer(mesh={y:4} devices=[4,5,6,7], to=f32[{y}16])").find("global shapes"),
            std::string::npos);
  EXPECT_NE(typing_error("mesh {x:2, r:2}\nsource f32[{x}8] sum{r}\ntransfer(mesh={y:4} devices=[4,5,6,7], to=f32[{y}8])")
                .find("reduce f32[{x}8] sum{r} on its mesh first"),
            std::string::npos);
  EXPECT_NE(typing_error(head + "transfer(mesh={y:4} devices=[4,5,6,7], to=f32[{y}8], sends=[(9, 4, [0], [0], [2])])")
                .find("send 1 is from device 9, which is not in {x:4}"),
            std::string::npos);
  EXPECT_NE(typing_error(head + "transfer(mesh={y:4} devices=[4,5,6,7], to=f32[{y}8], sends=[(0, 4, [1], [0], [2])])")
                .find("send 1 reaches outside the local buffers in dim 0"),
            std::string::npos);
  // Every step runs on meshes over any ids; a permute keeps the device set (a transfer
  // moves between sets).
  auto gathered = type_plan(parsed("mesh {x:4} devices=[4,5,6,7]\nsource f32[{x}8]\nall_gather(dim=0, axes={x})"));
  ASSERT_TRUE(gathered.ok()) << gathered.error().to_string();
  EXPECT_EQ(to_string(gathered->back().type), "f32[8]");
  EXPECT_EQ(gathered->back().mesh.device_ids(), (std::vector<int64_t>{4, 5, 6, 7}));
  EXPECT_NE(typing_error(head + "collective_permute(to=f32[{x}8], mesh={x:4} devices=[4,5,6,7])")
                .find("is over other devices than the current mesh {x:4}: a transfer moves an array between device sets"),
            std::string::npos);
  EXPECT_FALSE(type_plan(parsed("mesh {x:4} devices=[4,5,6,7]\nsource f32[{x}8]\ntransfer(mesh={y:2}, to=f32[8, {y}2])"))
                   .ok());  // f32[8, {y}2] is another array
  EXPECT_TRUE(type_plan(parsed("mesh {x:4} devices=[4,5,6,7]\nsource f32[{x}8]\ntransfer(mesh={y:2}, to=f32[{y}8])"))
                  .ok());
}

TEST(TransferLowering, EachElementOnceKeptWhereHeldSpreadOverReplicas) {
  // {x:2, r:2}: devices 0, 1 hold rows 0-3, devices 2, 3 rows 4-7; the four receivers
  // each need two rows.
  const Plan plan = parsed(kPlan);
  auto lowered = lower(plan);
  ASSERT_TRUE(lowered.ok());
  const auto& sends = std::get<LoweredTransfer>(lowered->steps[0].op).sends;
  ASSERT_EQ(sends.size(), 4u);
  std::map<int64_t, int64_t> from;
  for (const auto& s : sends) from[s.to] = s.from;
  EXPECT_EQ(from, (std::map<int64_t, int64_t>{{4, 0}, {5, 1}, {6, 2}, {7, 3}}));  // every replica sends once
  // Overlapping: device 2 and 3 are in both meshes and keep their rows.
  const Plan overlap = parsed("mesh {x:4}\nsource f32[{x}8]\ntransfer(mesh={y:4} devices=[2,3,4,5], to=f32[{y}8])\n");
  const auto overlap_lowered = lower(overlap);
  ASSERT_TRUE(overlap_lowered.ok());
  const auto& kept = std::get<LoweredTransfer>(overlap_lowered->steps[0].op).sends;
  std::set<std::pair<int64_t, int64_t>> pairs;
  for (const auto& s : kept) pairs.insert({s.from, s.to});
  EXPECT_EQ(pairs, (std::set<std::pair<int64_t, int64_t>>{{0, 2}, {1, 3}, {2, 4}, {3, 5}}));
  const Plan shifted = parsed("mesh {x:4}\nsource f32[{x}8]\ntransfer(mesh={y:4} devices=[0,1,4,5], to=f32[{y}8])\n");
  const auto shifted_lowered = lower(shifted);
  ASSERT_TRUE(shifted_lowered.ok());
  int stays = 0;
  for (const auto& s : std::get<LoweredTransfer>(shifted_lowered->steps[0].op).sends) stays += s.from == s.to;
  EXPECT_EQ(stays, 2);  // devices 0 and 1 hold their target rows already
}

TEST(TransferFigures, ReceivedIsTheLowerBoundAndPricedOnTheTransferLink) {
  const Plan plan = parsed(kPlan);
  auto f = plan_figures(plan);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->recv_bytes_max, 32);  // 2 rows of 4 f32
  EXPECT_EQ(f->recv_bytes_total, 128);
  ASSERT_TRUE(f->lower_bound.has_value());
  EXPECT_EQ(f->lower_bound->max, 32);
  EXPECT_EQ(f->lower_bound->total, 128);
  EXPECT_EQ(f->steps[0].send_bytes_max, 32);
  CostModel model;
  auto inter = plan_cost(model, plan);
  ASSERT_TRUE(inter.ok());
  EXPECT_EQ(inter->steps[0].link, LinkClass::inter);
  EXPECT_EQ(inter->steps[0].wire_bytes, 32);
  EXPECT_DOUBLE_EQ(inter->time_us, 5 + 32 / 25e3);
  auto intra_model = parse_cost_model("transfer.link = intra\n");
  ASSERT_TRUE(intra_model.ok());
  EXPECT_EQ(intra_model->transfer_link, LinkClass::intra);
  EXPECT_DOUBLE_EQ(plan_cost(*intra_model, plan)->time_us, 1 + 32 / 300e3);
  EXPECT_FALSE(parse_cost_model("transfer.link = fast\n").ok());
  EXPECT_FALSE(parse_cost_model("transfer.speed = inter\n").ok());
}

// Nodes (transfer.node_size): {dp:2, fsdp:2} on ranks 0,1 | 4,5 (one replica per node
// of 4) to {tp:4} on 2,3 | 6,7. Spread without nodes, receiver 3 reads row block 0 from
// 4 and block 1 from 5, across nodes; with nodes every receiver reads its own node's
// replica, and the cost model prices the sends within a node on the intra class.
const std::string kNodes =
    "mesh {dp:2, fsdp:2} devices=[0,1,4,5]\n"
    "source f32[{fsdp}8, 12]\n"
    "transfer(mesh={tp:4} devices=[2,3,6,7], to=f32[8, {tp}12])\n";

TEST(TransferNodes, SendersOnTheReceiversNode) {
  const Plan plan = parsed(kNodes);
  auto states = type_plan(plan);
  ASSERT_TRUE(states.ok());
  const TypedState before{plan.mesh, plan.source};
  std::map<std::pair<int64_t, int64_t>, int64_t> spread, near;  // (receiver, row start) -> sender
  for (const auto& box : transfer_table(before, (*states)[0])) spread[{box.to, box.dst_start[0]}] = box.from;
  for (const auto& box : transfer_table(before, (*states)[0], 4)) near[{box.to, box.dst_start[0]}] = box.from;
  const std::map<std::pair<int64_t, int64_t>, int64_t> spread_expected{
      {{2, 0}, 0}, {{2, 4}, 1}, {{3, 0}, 4}, {{3, 4}, 5}, {{6, 0}, 0}, {{6, 4}, 1}, {{7, 0}, 4}, {{7, 4}, 5}};
  const std::map<std::pair<int64_t, int64_t>, int64_t> near_expected{
      {{2, 0}, 0}, {{2, 4}, 1}, {{3, 0}, 0}, {{3, 4}, 1}, {{6, 0}, 4}, {{6, 4}, 5}, {{7, 0}, 4}, {{7, 4}, 5}};
  EXPECT_EQ(spread, spread_expected);
  EXPECT_EQ(near, near_expected);
}

TEST(TransferNodes, SendsWithinANodeArePricedOnTheIntraClass) {
  Plan spread = parsed(kNodes);
  auto states = type_plan(spread);
  ASSERT_TRUE(states.ok());
  Plan near = spread;
  std::get<Transfer>(near.steps[0].op).table = transfer_table({spread.mesh, spread.source}, (*states)[0], 4);
  auto model = parse_cost_model("transfer.node_size = 4\n");
  ASSERT_TRUE(model.ok()) << model.error().to_string();
  EXPECT_EQ(model->transfer_node_size, 4);
  // Each receiver gets 2 boxes of 4 x 3 f32 (96 bytes). Spread: 3 and 6 get both
  // across, 2 and 7 both within: 96 bytes across and 96 within on the busiest devices.
  // Near: all within.
  auto spread_cost = plan_cost(*model, spread), near_cost = plan_cost(*model, near);
  ASSERT_TRUE(spread_cost.ok() && near_cost.ok());
  EXPECT_DOUBLE_EQ(spread_cost->time_us, (5 + 96 / 25e3) + (1 + 96 / 300e3));
  EXPECT_EQ(spread_cost->steps[0].link, LinkClass::inter);
  EXPECT_DOUBLE_EQ(near_cost->time_us, 1 + 96 / 300e3);
  EXPECT_EQ(near_cost->steps[0].link, LinkClass::intra);
  EXPECT_EQ(near_cost->steps[0].wire_bytes, 96);
  // Without nodes both tables cost the transfer.link term of the busiest device.
  EXPECT_DOUBLE_EQ(plan_cost(CostModel{}, near)->time_us, 5 + 96 / 25e3);
  for (const char* bad : {"transfer.node_size = 0\n", "transfer.node_size = 2.5\n", "transfer.node_size = -4\n",
                          "transfer.node_size = many\n", "transfer.node_size = 1e300\n",
                          "transfer.node_size = 0777777777777777777777777777777777777777\n"})
    EXPECT_FALSE(parse_cost_model(bad).ok()) << bad;
}

TEST(TransferLowering, SymbolicWhereEveryElementHasOneHolder) {
  // The checker encodes these transfers as the holder relation (docs/checker.md
  // "Transfers"): the lowering's own table, a source without a replicated axis, no padding.
  auto symbolic = [](const std::string& text) {
    auto lowered = lower(parsed(text));
    EXPECT_TRUE(lowered.ok()) << text;
    return std::get<LoweredTransfer>(lowered->steps.at(0).op).symbolic;
  };
  EXPECT_TRUE(symbolic("mesh {x:4}\nsource f32[{x}8, 4]\ntransfer(mesh={y:4} devices=[4,5,6,7], to=f32[8, {y}4])"));
  EXPECT_TRUE(symbolic("mesh {x:2, y:2}\nsource f32[{y}8, {x}4]\ntransfer(mesh={u:2} devices=[2,9], to=f32[8, 4])"));
  EXPECT_FALSE(symbolic(kPlan));  // replicated over r: the table says which replica sends
  EXPECT_FALSE(symbolic("mesh {x:4}\nsource f32[{x}8, 4]\ntransfer(mesh={y:4} devices=[4,5,6,7], to=f32[8, {y}4], "
                        "sends=[(0, 4, [0, 0], [0, 0], [2, 1]), (1, 4, [0, 0], [2, 0], [2, 1]), "
                        "(2, 4, [0, 0], [4, 0], [2, 1]), (3, 4, [0, 0], [6, 0], [2, 1]), "
                        "(0, 5, [0, 1], [0, 0], [2, 1]), (1, 5, [0, 1], [2, 0], [2, 1]), "
                        "(2, 5, [0, 1], [4, 0], [2, 1]), (3, 5, [0, 1], [6, 0], [2, 1]), "
                        "(0, 6, [0, 2], [0, 0], [2, 1]), (1, 6, [0, 2], [2, 0], [2, 1]), "
                        "(2, 6, [0, 2], [4, 0], [2, 1]), (3, 6, [0, 2], [6, 0], [2, 1]), "
                        "(0, 7, [0, 3], [0, 0], [2, 1]), (1, 7, [0, 3], [2, 0], [2, 1]), "
                        "(2, 7, [0, 3], [4, 0], [2, 1]), (3, 7, [0, 3], [6, 0], [2, 1])])"));  // explicit
  EXPECT_FALSE(symbolic("mesh {x:3}\nsource f32[{x}7, 4]\ntransfer(mesh={y:2} devices=[2,7], to=f32[{y}7, 4])"));
}

}  // namespace
}  // namespace redist
