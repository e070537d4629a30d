// Permutes that move nothing on a change of device order (synth/src/same_blocks.hpp):
// where a type on the new order gives every device the block the source gives it, the
// default plan starts with a permute whose pairs keep every buffer in place and plans
// the rest on the new order, so a replicated array, or one whose order change only
// transposes the mesh, is sliced where it lies instead of moved. Each plan is run by the
// interpreter (every element), proved by Z3, and a wrong table is refuted.

#include <gtest/gtest.h>

#include <fmt/format.h>

#include <fstream>
#include <sstream>

#include "redist/plan/figures.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/proofs/anchors.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/optimal.hpp"
#include "redist/synth/synthesize.hpp"
#include "redist/verify/checker.hpp"
#include "synth/src/same_blocks.hpp"
#include "synth/checker_checks.hpp"
#include "synth/synthesis_cases.hpp"
#include "synth/synthesis_checks.hpp"

namespace redist::testing {
namespace {

using Pair = ReshardCase;

/// The identity pairs of `mesh`'s devices, in its order.
DevicePairs staying_pairs(const Mesh& mesh) {
  DevicePairs pairs;
  for (int64_t p = 0; p < mesh.num_devices(); ++p) pairs.emplace_back(mesh.device_at(p), mesh.device_at(p));
  return pairs;
}

/// Checks that `plan` (for `p`) passes the interpreter's element checks, that Z3 proves
/// it correct, within the bound, free of peaks and tight, that it receives nothing, and
/// that its modeled time is 0.
void expect_moves_nothing(const Pair& p, const Plan& plan) {
  EXPECT_EQ(plan_problem(plan, p.mesh, p.src, p.target_mesh, p.dst, std::max(local_bytes(p.src), local_bytes(p.dst))),
            "");
  auto figures = plan_figures(plan);
  ASSERT_TRUE(figures.ok()) << figures.error().to_string();
  EXPECT_EQ(figures->recv_bytes_total, 0);
  ASSERT_TRUE(figures->lower_bound.has_value());
  EXPECT_EQ(figures->lower_bound->total, 0);
  EXPECT_EQ(plan_cost(CostModel{}, plan)->time_us, 0);
  expect_proved_and_tight(plan);
}

TEST(SameBlocks, AReplicatedArrayIsSlicedOnTheNewOrder) {
  // Before: all_slice on the old order, then a permute that sent every half across
  // (3,200 bytes received where the lower bound is 0).
  const Pair p = parsed_case("{x:2}", "{x:2} devices=[1,0]", "bf16[80, 20]", "bf16[{x}80, 20]");
  auto plan = synthesize(p.mesh, p.src, p.target_mesh, p.dst);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  ASSERT_EQ(plan->steps.size(), 2u) << to_string(*plan);
  EXPECT_EQ(to_string(plan->steps[0]),
            "collective_permute(to=bf16[80, 20], mesh={x:2} devices=[1,0], pairs=[(1, 1), (0, 0)])");
  EXPECT_TRUE(moves_nothing(plan->steps[0]));
  EXPECT_EQ(to_string(plan->steps[1]), "all_slice(dim=0, axes={x})");
  expect_moves_nothing(p, *plan);
}

TEST(SameBlocks, AnOrderChangeAlongAReplicatedAxisKeepsTheTiledOne) {
  // devices=[1,0,3,2] swaps along y only; the source is tiled by x alone.
  const Pair p = parsed_case("{x:2, y:2}", "{x:2, y:2} devices=[1,0,3,2]", "f32[{x}16, 8]", "f32[{x}16, {y}8]");
  auto plan = synthesize(p.mesh, p.src, p.target_mesh, p.dst);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  ASSERT_EQ(plan->steps.size(), 2u) << to_string(*plan);
  EXPECT_EQ(plan->steps[0].pairs, staying_pairs(p.target_mesh));
  EXPECT_EQ(to_string(plan->steps[1]), "all_slice(dim=1, axes={y})");
  expect_moves_nothing(p, *plan);
}

TEST(SameBlocks, ATransposedOrderCarriesTheSourceToOtherAxes) {
  // XLA's `devices=[2,4]<=[4,2]T(1,0)`: device id = 2y + x on the new order, so the
  // old x (id bit 2) is the new y:(1)2, and the source is f32[{y:(1)2}16, 8] there.
  const Pair p = parsed_case("{x:2, y:4}", "{x:2, y:4} devices=[0,2,4,6,1,3,5,7]", "f32[{x}16, 8]", "f32[{y}16, 8]");
  auto moved = synth_detail::same_blocks_type(p.mesh, p.src, p.target_mesh);
  ASSERT_TRUE(moved.has_value());
  EXPECT_EQ(to_string(*moved), "f32[{y:(1)2}16, 8]");
  // Nothing moves: the default plan slices y:(1)2 on the old order, which the lowered
  // permute then leaves in place (or, as optimal_plan may, permutes first and slices).
  auto plan = synthesize(p.mesh, p.src, p.target_mesh, p.dst);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  expect_moves_nothing(p, *plan);
  auto optimal = optimal_plan(CostModel{}, p.mesh, p.src, p.target_mesh, p.dst);
  ASSERT_TRUE(optimal.ok()) << optimal.error().to_string();
  EXPECT_TRUE(optimal->proved);
  EXPECT_EQ(optimal->time_us, 0);
  expect_moves_nothing(p, optimal->plan);
  // Where the old order cannot slice for the new one (the target tiles the other dim),
  // the permute that moves nothing comes first.
  const Pair q = parsed_case("{x:2, y:4}", "{x:2, y:4} devices=[0,2,4,6,1,3,5,7]", "f32[{x}16, 8]", "f32[16, {y}8]");
  auto exchange = synthesize(q.mesh, q.src, q.target_mesh, q.dst);
  ASSERT_TRUE(exchange.ok()) << exchange.error().to_string();
  EXPECT_EQ(plan_problem(*exchange, q.mesh, q.src, q.target_mesh, q.dst, local_bytes(q.src)), "");
  ASSERT_EQ(exchange->steps.size(), 3u) << to_string(*exchange);
  EXPECT_TRUE(moves_nothing(exchange->steps[0]));
  EXPECT_EQ(to_string(exchange->steps[1]), "all_slice(dim=0, axes={y:(2)2})");
  EXPECT_EQ(to_string(exchange->steps[2]), "all_to_all(src=0, dst=1, axes={y})");
}

TEST(SameBlocks, AnOrderThatPermutesNoDigitsStillMoves) {
  // devices=[2,0,3,1] is no digit permutation: devices 1 and 2 change their x, so no
  // type on the new order gives every device its block, and those two receive theirs.
  const Pair p = parsed_case("{x:2, y:2}", "{x:2, y:2} devices=[2,0,3,1]", "f32[{x}16, 8]", "f32[{x}16, 8]");
  EXPECT_FALSE(synth_detail::same_blocks_type(p.mesh, p.src, p.target_mesh).has_value());
  auto plan = synthesize(p.mesh, p.src, p.target_mesh, p.dst);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_FALSE(moves_nothing(plan->steps.at(0)));
  EXPECT_EQ(plan_problem(*plan, p.mesh, p.src, p.target_mesh, p.dst, local_bytes(p.src)), "");
  auto figures = plan_figures(*plan);
  ASSERT_TRUE(figures.ok());
  ASSERT_TRUE(figures->lower_bound.has_value());
  EXPECT_EQ(figures->lower_bound->total, 2 * 8 * 8 * 4);
  EXPECT_EQ(figures->recv_bytes_total, figures->lower_bound->total);
}

/// The transposed case as a plan that permutes first, with pair table `pairs`.
Plan permute_first(const DevicePairs& pairs) {
  std::string text =
      "mesh {x:2, y:4}\nsource f32[{x}16, 8]\ncollective_permute(to=f32[{y:(1)2}16, 8], mesh={x:2, y:4} "
      "devices=[0,2,4,6,1,3,5,7], pairs=[";
  for (std::size_t i = 0; i < pairs.size(); ++i)
    text += fmt::format("{}({}, {})", i ? ", " : "", pairs[i].first, pairs[i].second);
  text += "])\nall_slice(dim=0, axes={y:(2)2})\ntarget f32[{y}16, 8]\n";
  return parse_plan(text).value();
}

TEST(SameBlocks, AStayingTableThatIsWrongIsRefutedAndConfirmed) {
  const Pair p = parsed_case("{x:2, y:4}", "{x:2, y:4} devices=[0,2,4,6,1,3,5,7]", "f32[{x}16, 8]", "f32[{y}16, 8]");
  expect_moves_nothing(p, permute_first(staying_pairs(p.target_mesh)));
  // Devices 0 and 4 swap buffers: they hold the two halves (old x = 0 and 1), so each
  // then slices rows of the other half.
  DevicePairs pairs = staying_pairs(p.target_mesh);
  for (auto& [source, target] : pairs)
    if (target == 0 || target == 4) source = 4 - target;
  const Plan wrong = permute_first(pairs);
  EXPECT_FALSE(moves_nothing(wrong.steps[0]));
  const auto ce = expect_refuted_and_confirmed(wrong);
  ASSERT_TRUE(ce.has_value());
  EXPECT_TRUE(ce->device == 0 || ce->device == 4) << ce->device;
}

TEST(SameBlocks, EveryDeviceOrderCaseIsVerifiedAsTagged) {
  // tests/data/device_orders.txt: each default plan is run by the interpreter and proved;
  // G3b is what the tag says, and a case tagged "moves nothing" receives nothing.
  std::ifstream in(std::string(REDIST_TEST_DATA_DIR) + "/device_orders.txt");
  std::stringstream text;
  text << in.rdbuf();
  auto cases = parse_anchors(text.str());
  ASSERT_TRUE(cases.ok()) << cases.error().to_string();
  ASSERT_EQ(cases->size(), 8u);
  for (const auto& c : *cases) {
    SCOPED_TRACE(c.name);
    const Pair p{c.mesh, c.target_mesh, c.source, c.target};
    auto plan = synthesize(p.mesh, p.src, p.target_mesh, p.dst);
    ASSERT_TRUE(plan.ok()) << plan.error().to_string();
    if (c.tags.find("moves nothing") != std::string::npos) {
      expect_moves_nothing(p, *plan);
      continue;
    }
    EXPECT_EQ(plan_problem(*plan, p.mesh, p.src, p.target_mesh, p.dst, std::max(local_bytes(p.src), local_bytes(p.dst))),
              "");
    auto report = check_plan(*plan);
    ASSERT_TRUE(report.ok()) << report.error().to_string();
    EXPECT_TRUE(report->verified()) << to_string(*plan);
    EXPECT_EQ(std::string(transfers_name(report->transfers)), c.tags.substr(0, c.tags.find(','))) << to_string(*plan);
  }
}

}  // namespace
}  // namespace redist::testing
