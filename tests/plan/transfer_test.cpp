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
  // Other steps still run on meshes over 0..N-1; a transfer may start on other ids.
  EXPECT_NE(typing_error("mesh {x:4} devices=[4,5,6,7]\nsource f32[{x}8]\nall_gather(dim=0, axes={x})")
                .find("over device ids other than 0..3"),
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

}  // namespace
}  // namespace redist
