// The cost model: exact formulas on hand cases, link classes, and the config text.

#include <gtest/gtest.h>

#include "redist/synth/cost_model.hpp"
#include "redist/synth/optimal.hpp"
#include "redist/synth/synthesize.hpp"
#include "redist/plan/lowered.hpp"
#include "redist/plan/plan_text.hpp"
#include "synth/test_util.hpp"

namespace redist::testing {
namespace {

/// The cost of the single step `step` (plan text) from `type` on `mesh`.
StepCost cost_of(const CostModel& model, std::string_view mesh, std::string_view type, std::string_view step) {
  auto plan = parse_plan("mesh " + std::string(mesh) + "\nsource " + std::string(type) + "\n" + std::string(step));
  EXPECT_TRUE(plan.ok()) << plan.error().to_string();
  auto cost = plan_cost(model, *plan);
  EXPECT_TRUE(cost.ok()) << cost.error().to_string();
  EXPECT_EQ(cost->steps.size(), 1u);
  return cost->steps.at(0);
}

CostModel inter_x() {
  CostModel m;
  m.axis_class["x"] = LinkClass::inter;
  return m;
}

constexpr const char* kMesh = "{x:4, y:2}";

TEST(CostModel, RingAllGatherChargesThreeQuartersOfTheOutput) {
  // 1024x256 f32 gathered over x:4: output 1 MiB, (g-1)/g of it on the wire.
  const StepCost c = cost_of(CostModel{}, kMesh, "f32[{x}1024, 256]", "all_gather(dim=0, axes={x})");
  EXPECT_EQ(c.wire_bytes, 786432);
  EXPECT_EQ(c.group_size, 4);
  EXPECT_DOUBLE_EQ(c.time_us, 1 + 786432 / 300e3);
  EXPECT_TRUE(c.communicates);
}

TEST(CostModel, AllToAllChargesItsBufferTimesGMinusOneOverG) {
  const StepCost c = cost_of(CostModel{}, kMesh, "f32[{x}1024, 256]", "all_to_all(src=0, dst=1, axes={x})");
  EXPECT_EQ(c.wire_bytes, 196608);
  EXPECT_DOUBLE_EQ(c.time_us, 1 + 196608 / 300e3);
}

TEST(CostModel, ReductionsChargeOnceAndTwiceTheRingFraction) {
  const StepCost rs = cost_of(CostModel{}, kMesh, "f32[1024] sum{x}", "reduce_scatter(dim=0, axes={x})");
  EXPECT_EQ(rs.wire_bytes, 3072);  // 3/4 of the 4 KiB input
  EXPECT_DOUBLE_EQ(rs.time_us, 1 + 3072 / 300e3);
  const StepCost ar = cost_of(CostModel{}, kMesh, "f32[1024] sum{x}", "all_reduce(axes={x})");
  EXPECT_EQ(ar.wire_bytes, 6144);
  EXPECT_DOUBLE_EQ(ar.time_us, 1 + 6144 / 300e3);
}

TEST(CostModel, PermuteChargesTheWholeBufferOnTheAxesItMoves) {
  // Swapping y for x:(1)2 in dim 0 moves devices along x only.
  const StepCost c = cost_of(inter_x(), "{x:2, y:2}", "f32[{x}8, {y}8]", "collective_permute(to=f32[{y}8, {x}8])");
  EXPECT_EQ(c.wire_bytes, 64);
  EXPECT_EQ(c.link, LinkClass::inter);
  EXPECT_DOUBLE_EQ(c.time_us, 5 + 64 / 25e3);
  const TypedState before = state_of("{x:2, y:2}", "f32[{x}8, {y}8]");
  const TypedState after = state_of("{x:2, y:2}", "f32[{y}8, {x}8]");
  EXPECT_EQ(step_link_axes(before, after, Step(CollectivePermute{after.type, std::nullopt})),
            (std::vector<std::string>{"x", "y"}));
  // Only dim 1 changes, y for the replicated z: devices move along y and z, not x.
  const TypedState b2 = state_of("{x:2, y:2, z:2}", "f32[{x}8, {y}8]");
  const TypedState a2 = state_of("{x:2, y:2, z:2}", "f32[{x}8, {z}8]");
  EXPECT_EQ(step_link_axes(b2, a2, Step(CollectivePermute{a2.type, std::nullopt})),
            (std::vector<std::string>{"y", "z"}));
}

TEST(CostModel, APermuteIsChargedOnTheAxesItsPairsDifferOnNotTheDimsTiling) {
  // The h051 case: dim 0's tiling changes from {x,y} to {x,z} with x inter-node, but x
  // keeps its place in the tiling, so every pair differs along y and z only (the
  // replicated z takes over y's part): the permute runs at the intra-node rate.
  const TypedState before = state_of("{x:2, y:2, z:2}", "f32[{x,y}8, 8]");
  const TypedState after = state_of("{x:2, y:2, z:2}", "f32[{x,z}8, 8]");
  const Step step(CollectivePermute{after.type, std::nullopt});
  EXPECT_EQ(step_link_axes(before, after, step), (std::vector<std::string>{"y", "z"}));
  const StepCost c = cost_of(inter_x(), "{x:2, y:2, z:2}", "f32[{x,y}8, 8]", "collective_permute(to=f32[{x,z}8, 8])");
  EXPECT_EQ(c.link, LinkClass::intra);
  EXPECT_EQ(c.group_size, 2);
  EXPECT_EQ(c.wire_bytes, 64);
  EXPECT_DOUBLE_EQ(c.time_us, 1 + 64 / 300e3);
  // The same change on the inter-node axis itself ({y,x} -> {z,x}: x's place moves)
  // still runs at the inter-node rate.
  const StepCost moved = cost_of(inter_x(), "{x:2, y:2, z:2}", "f32[{x,y}8, 8]", "collective_permute(to=f32[{z,x}8, 8])");
  EXPECT_EQ(moved.link, LinkClass::inter);
  EXPECT_DOUBLE_EQ(moved.time_us, 5 + 64 / 25e3);
}

TEST(CostModel, AnOrderChangesPairsAreChargedOnTheAxesTheirDevicesDifferOn) {
  // {x:2, y:2}, x inter-node; the new order swaps devices 0 and 2 (devices=[2,1,0,3]).
  // Device 0 now needs the block of x=1, which device 2 holds: the pair (2 -> 0) joins
  // devices that differ on x on either order. (Read as device 2's old coordinates against
  // device 0's new ones, (1,0) against (1,0), it would look free.)
  const StepCost swap = cost_of(inter_x(), "{x:2, y:2}", "f32[{x}8]",
                                "collective_permute(to=f32[{x}8], mesh={x:2, y:2} devices=[2,1,0,3], "
                                "pairs=[(2, 0), (1, 1), (0, 2), (3, 3)])");
  EXPECT_EQ(swap.link, LinkClass::inter);
  EXPECT_DOUBLE_EQ(swap.time_us, 5 + 16 / 25e3);
}

/// The axes along which some of the lowered pairs of the permute `before` -> `after`
/// differ, from the explicit pair table (every device enumerated), in mesh order.
std::vector<std::string> enumerated_pair_axes(const TypedState& before, const TypedState& after) {
  const LoweredStep lowered = lower_step(before, after, Step(CollectivePermute{after.type, std::nullopt}));
  std::vector<bool> differs(before.mesh.axes().size(), false);
  for (const auto& [source, target] : pair_table(std::get<LoweredPermute>(lowered.op), before.mesh, after.mesh)) {
    const Coords s = before.mesh.coords_of_device(source), t = after.mesh.coords_of_device(target);
    for (std::size_t a = 0; a < s.size(); ++a) differs[a] = differs[a] || s[a] != t[a];
  }
  std::vector<std::string> names;
  for (std::size_t a = 0; a < differs.size(); ++a)
    if (differs[a]) names.push_back(before.mesh.axes()[a].name);
  return names;
}

TEST(CostModel, PermuteLinkAxesEqualThoseOfTheEnumeratedPairs) {
  // Every pair of rank-2 types over these dim tilings with equal per-dim tile counts
  // (sub-axes, reorders, replicated axes swapped in): the charged axes are exactly
  // those along which the lowered pairs differ.
  const char* mesh = "{x:4, y:2, z:2}";
  const std::vector<std::string> dims = {"",        "{x}",           "{y}",           "{z}",     "{x:(1)2}",
                                         "{x:(2)2}", "{x,y}",         "{y,x}",         "{y,z}",   "{z,y}",
                                         "{x:(2)2,z}", "{z,x:(1)2}", "{x:(1)2,y}",    "{y,x:(2)2}", "{x:(2)2,x:(1)2}"};
  const Mesh m = mesh_of(mesh);
  std::vector<TypedState> types;
  for (const auto& a : dims)
    for (const auto& b : dims) {
      auto t = parse_type("f32[" + (a.empty() ? "" : a) + "16, " + (b.empty() ? "" : b) + "16]", m);
      if (t && validate(*t, m).ok()) types.push_back(TypedState{m, *t});
    }
  int compared = 0;
  for (const auto& before : types)
    for (const auto& after : types) {
      if (tile_count(before.type.dims[0]) != tile_count(after.type.dims[0]) ||
          tile_count(before.type.dims[1]) != tile_count(after.type.dims[1]))
        continue;
      const TypedState b{m, canonical(before.type, m)}, a{m, canonical(after.type, m)};
      EXPECT_EQ(step_link_axes(before, after, Step(CollectivePermute{after.type, std::nullopt})),
                enumerated_pair_axes(b, a))
          << to_string(before.type) << " -> " << to_string(after.type);
      ++compared;
    }
  EXPECT_GT(compared, 500);
}

TEST(CostModel, LocalStepsAndGroupsOfOneAreFree) {
  const StepCost slice = cost_of(CostModel{}, kMesh, "f32[1024, 256]", "all_slice(dim=0, axes={x})");
  EXPECT_EQ(slice.time_us, 0);
  EXPECT_FALSE(slice.communicates);
  const StepCost one = cost_of(CostModel{}, "{x:4, w:1}", "f32[{w}1024]", "all_gather(dim=0, axes={w})");
  EXPECT_EQ(one.time_us, 0);
  EXPECT_EQ(one.wire_bytes, 0);
}

TEST(CostModel, ACollectiveRunsAtItsSlowestAxis) {
  const StepCost c = cost_of(inter_x(), kMesh, "f32[{x,y}1024]", "all_gather(dim=0, axes={x,y})");
  EXPECT_EQ(c.link, LinkClass::inter);
  EXPECT_EQ(c.group_size, 8);
  EXPECT_DOUBLE_EQ(c.time_us, 5 + 7.0 / 8 * 4096 / 25e3);
}

TEST(CostModel, APlanOverAFastAxisBeatsTheSameOverASlowOne) {
  auto fast = parse_plan("mesh {x:4, y:4}\nsource f32[{y}4096, 64]\nall_gather(dim=0, axes={y})");
  auto slow = parse_plan("mesh {x:4, y:4}\nsource f32[{x}4096, 64]\nall_gather(dim=0, axes={x})");
  ASSERT_TRUE(fast.ok() && slow.ok());
  const CostModel model = inter_x();
  const double t_fast = plan_cost(model, *fast)->time_us, t_slow = plan_cost(model, *slow)->time_us;
  EXPECT_LT(t_fast, t_slow);
  // With every axis intra-node the two cost the same.
  EXPECT_DOUBLE_EQ(plan_cost(CostModel{}, *fast)->time_us, plan_cost(CostModel{}, *slow)->time_us);
}

TEST(CostModel, PlanCostSumsItsSteps) {
  auto plan = parse_plan(
      "mesh {x:4, y:2}\nsource f32[{x}16, {y}8]\nall_to_all(src=0, dst=1, axes={x:(2)2})\n"
      "collective_permute(to=f32[{y}16, {x}8])");
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  auto cost = plan_cost(CostModel{}, *plan);
  ASSERT_TRUE(cost.ok());
  EXPECT_EQ(cost->collectives, 2);
  EXPECT_EQ(cost->wire_bytes, 32 + 64);  // half of 64 bytes, then all 64
  EXPECT_DOUBLE_EQ(cost->time_us, cost->steps[0].time_us + cost->steps[1].time_us);
  EXPECT_DOUBLE_EQ(cost->time_us, 2 + 96 / 300e3);
}

TEST(CostModel, ADeviceOrderChangeMovesOverEveryAxis) {
  auto plan = parse_plan(
      "mesh {x:2, y:2}\nsource f32[{x}8, 8]\ncollective_permute(to=f32[{x}8, 8], mesh={x:2, y:2} devices=[0,2,1,3])");
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  CostModel model;
  model.axis_class["y"] = LinkClass::inter;
  auto cost = plan_cost(model, *plan);
  ASSERT_TRUE(cost.ok());
  EXPECT_EQ(cost->steps[0].link, LinkClass::inter);
  EXPECT_DOUBLE_EQ(cost->time_us, 5 + 128 / 25e3);
}

TEST(CostModelConfig, ReadsAxesAndClassSpeeds) {
  auto model = parse_cost_model(
      "# two nodes\n x = inter  # across nodes\ny=intra\n\ninter.bandwidth_gbps = 12.5\nintra.latency_us = 0.5\n");
  ASSERT_TRUE(model.ok()) << model.error().to_string();
  EXPECT_EQ(model->class_of("x"), LinkClass::inter);
  EXPECT_EQ(model->class_of("y"), LinkClass::intra);
  EXPECT_EQ(model->class_of("z"), LinkClass::intra);
  EXPECT_EQ(model->inter, (Link{12.5, 5}));
  EXPECT_EQ(model->intra, (Link{300, 0.5}));
  EXPECT_EQ(parse_cost_model("")->axis_class.size(), 0u);
}

TEST(CostModelConfig, ReadsTheShareOfTheBandwidthEachCollectiveReaches) {
  auto model = parse_cost_model(
      "all_to_all.efficiency = 0.5\ncollective_permute.efficiency = 0.8\nall_gather.efficiency = 1\n"
      "reduce_scatter.efficiency = 0.25\nall_reduce.efficiency = 0.4\ntransfer.efficiency = 0.9\n");
  ASSERT_TRUE(model.ok()) << model.error().to_string();
  EXPECT_EQ(model->efficiency, (Efficiency{1, 0.25, 0.5, 0.4, 0.8, 0.9}));
  EXPECT_EQ(parse_cost_model("")->efficiency, Efficiency{});
  EXPECT_EQ(model->efficiency.of(CollectiveKind::local), 1);
}

TEST(CostModel, ACollectiveRunsAtItsShareOfTheLinksBandwidth) {
  // An all_to_all over x:4 of 4096-byte buffers: 3/4 of the buffer at 300 GB/s, at half
  // the bandwidth when its share is 0.5; the latency stays.
  CostModel model;
  model.efficiency.all_to_all = 0.5;
  const Mesh m = mesh_of("{x:4}");
  const TypedState before{m, type_of("f32[{x}1024, 4]", m)};
  const Step a2a{AllToAll{{{0, 1, {AxisRef{"x", 1, 4, false}}}}}};
  auto after = apply_step(before, a2a);
  ASSERT_TRUE(after.ok()) << after.error().to_string();
  EXPECT_DOUBLE_EQ(step_cost(model, before, *after, a2a).time_us, 1 + 0.75 * 4096 / (0.5 * 300e3));
  EXPECT_DOUBLE_EQ(step_cost(CostModel{}, before, *after, a2a).time_us, 1 + 0.75 * 4096 / 300e3);
  EXPECT_DOUBLE_EQ(collective_time_us(model, CollectiveKind::permute, 2, 4096, LinkClass::inter), 5 + 4096 / 25e3);
}

TEST(CostModel, ASlowAllToAllMakesThePlanTakeAPermute) {
  // {x:2 inter, y:2}, f32[{y}N, 2, {x}2] -> f32[{x}N, {y}2, 2]: two all_to_alls at full
  // bandwidth; where an all_to_all reaches 0.3 of it (XLA:CPU's, measured against its
  // permute: docs/cost_model.md), a permute and one all_to_all, as XLA's own reshard.
  const Mesh m = mesh_of("{x:2, y:2}");
  const DistType src = type_of("f32[{y}2097152, 2, {x}2]", m), dst = type_of("f32[{x}2097152, {y}2, 2]", m);
  auto shape = [&](const CostModel& model) {
    SynthOptions options;
    options.cost_model = &model;
    auto plan = synthesize(m, src, dst, options);
    EXPECT_TRUE(plan.ok()) << plan.error().to_string();
    auto best = optimal_plan(model, m, src, m, dst);
    EXPECT_TRUE(best.ok() && best->proved);
    EXPECT_NEAR(plan_cost(model, *plan)->time_us, best->time_us, 1e-9 * best->time_us);
    std::string kinds;
    for (const auto& step : plan->steps) kinds += std::holds_alternative<AllToAll>(step.op) ? "A" : "P";
    return kinds;
  };
  CostModel model;
  model.axis_class["x"] = LinkClass::inter;
  EXPECT_EQ(shape(model), "AA");
  model.efficiency.all_to_all = 0.3;
  EXPECT_EQ(shape(model), "PA");
}

TEST(CostModelConfig, ErrorsNameTheLineAndColumn) {
  struct Bad {
    const char* text;
    std::size_t position;
    const char* words;
  };
  const Bad cases[] = {
      {"x = fast", 4, "line 1: expected 'intra' or 'inter'"},
      {"x = inter\nx = intra", 10, "line 2: axis 'x' is given twice"},
      {"x inter", 0, "expected 'key = value'"},
      {"inter.bandwidth_gbps = -3", 23, "expected a positive number"},
      {"inter.speed = 3", 6, "unknown field 'speed'"},
      {"infra.latency_us = 3", 0, "unknown link class or collective 'infra'"},
      {"= inter", 0, "missing key"},
      {"x =", 3, "missing value"},
      {"1x = inter", 0, "not an axis name"},
      {"all_to_all.efficiency = 1.5", 24, "expected a share of the bandwidth in (0, 1]"},
      {"x = inter\ncollective_permute.efficiency = 0", 42, "line 2: expected a share"},
      {"alltoall.efficiency = 0.5", 0, "unknown link class or collective 'alltoall'"},
      {"transfer.speed = 1", 9, "(link, node_size or efficiency)"},
  };
  for (const auto& bad : cases) {
    auto model = parse_cost_model(bad.text);
    ASSERT_FALSE(model.ok()) << bad.text;
    EXPECT_EQ(model.error().kind, Error::Kind::parse) << bad.text;
    EXPECT_EQ(model.error().position, bad.position) << bad.text << ": " << model.error().message;
    EXPECT_NE(model.error().message.find(bad.words), std::string::npos) << model.error().message;
  }
}

TEST(CostModelConfig, AxesMustBelongToTheMesh) {
  auto model = parse_cost_model("w = inter");
  ASSERT_TRUE(model.ok());
  EXPECT_FALSE(validate(*model, mesh_of("{x:2, y:2}")).ok());
  EXPECT_TRUE(validate(*model, mesh_of("{x:2, w:2}")).ok());
  EXPECT_EQ(read_cost_model("/nonexistent/cost.txt").error().kind, Error::Kind::runtime);
}

}  // namespace
}  // namespace redist::testing
