// find_tight_plan() (bench/tightness): hand-worked cases of each verdict, and against
// the synthesizer: every plan it returns that the plan library counts LB-tight must be
// found, and every plan found must count tight there.

#include "tight_plans.hpp"

#include "relaxed_tightness.hpp"

#include <gtest/gtest.h>

#include "corpus.hpp"
#include "redist/plan/figures.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/synth/synthesize.hpp"

namespace redist::tightness {
namespace {

Mesh mesh_of(std::vector<MeshAxis> axes, std::vector<int64_t> devices = {}) {
  return Mesh::create(std::move(axes), std::move(devices)).value();
}

DistType type_of(const char* text, const Mesh& mesh) { return parse_type(text, mesh).value(); }

/// Returns the plan's bytes received over all devices and its lower bound's total.
std::pair<BigInt, BigInt> received_and_bound(const Plan& plan) {
  auto figures = plan_figures(plan);
  EXPECT_TRUE(figures.ok()) << figures.error().to_string();
  EXPECT_TRUE(figures->lower_bound.has_value());
  return {figures->recv_bytes_total, figures->lower_bound->total};
}

/// The fields of a found result besides its plan: the search visited the source and
/// more, and nothing was skipped or ruled out.
void expect_found(const TightSearchResult& result) {
  EXPECT_EQ(result.verdict, TightVerdict::found);
  EXPECT_GE(result.states, 2);
  EXPECT_TRUE(result.reason.empty());
  EXPECT_FALSE(result.in_every_order);
  ASSERT_TRUE(result.plan.has_value());
  EXPECT_EQ(result.steps.size(), result.plan->steps.size());
}

TEST(TightPlans, AGatherIsTight) {
  // Each device lacks the other half (16 bytes) and receives exactly it.
  const Mesh mesh = mesh_of({{"x", 2}});
  const auto result = find_tight_plan(mesh, type_of("f32[{x}8]", mesh), mesh, type_of("f32[8]", mesh));
  expect_found(result);
  EXPECT_EQ(result.steps, (std::vector<std::string>{"all_gather(0:{x})"}));
  ASSERT_TRUE(result.plan.has_value());
  EXPECT_EQ(received_and_bound(*result.plan), std::make_pair(BigInt(32), BigInt(32)));
}

TEST(TightPlans, AnExchangeSplittingOneDimIsFound) {
  // One all_to_all sends x:(1)2 to dim 2 and x:(2)8 to dim 3 (the random suite's
  // random228 of seed 13013): each device keeps 1/16 of its shard and receives the rest
  // of its target, none of which it held: 15/16 of its 16 KiB shard, 15,360 bytes, on each
  // of 16 devices.
  const Mesh mesh = mesh_of({{"x", 16}});
  const auto result = find_tight_plan(mesh, type_of("f32[4, {x}64, 8, 32]", mesh), mesh,
                                      type_of("f32[4, 64, {x:(1)2}8, {x:(2)8}32]", mesh));
  expect_found(result);
  EXPECT_EQ(result.steps, (std::vector<std::string>{"all_to_all(1->3:{x:(2)8}, 1->2:{x:(1)2})"}));
  ASSERT_TRUE(result.plan.has_value());
  const auto* exchange = std::get_if<AllToAll>(&result.plan->steps[0].op);
  ASSERT_NE(exchange, nullptr);
  EXPECT_EQ(exchange->moves.size(), 2u);
  EXPECT_EQ(received_and_bound(*result.plan), std::make_pair(BigInt(16 * 15360), BigInt(16 * 15360)));
}

TEST(TightPlans, AnOrderChangeSwapsBlocksWithTightPairs) {
  // Devices 0 and 1 (and 2 and 3) trade their 8-byte blocks: one permute, each device
  // receiving its whole new block from the device that held it.
  const Mesh src_mesh = mesh_of({{"x", 4}});
  const Mesh dst_mesh = mesh_of({{"x", 4}}, {1, 0, 3, 2});
  const auto result =
      find_tight_plan(src_mesh, type_of("f32[{x}8]", src_mesh), dst_mesh, type_of("f32[{x}8]", dst_mesh));
  expect_found(result);
  ASSERT_TRUE(result.plan.has_value());
  ASSERT_EQ(result.plan->steps.size(), 1u);
  EXPECT_EQ(result.plan->steps[0].pairs, (DevicePairs{{1, 0}, {0, 1}, {3, 2}, {2, 3}}));
  EXPECT_EQ(received_and_bound(*result.plan), std::make_pair(BigInt(32), BigInt(32)));
}

TEST(TightPlans, AnExchangeThenGatherHasNoTightForm) {
  // random344 of seed 777. Device (a, b) of x = 2a + b holds dim 2's block 2a + b and
  // needs dim 1's half a and all of dim 2. Every axis is used, so nothing can be sliced;
  // every device holds some of its target, so a tight permute moves nothing; gathering
  // dim 2 receives dim 1's other half; an all_to_all of b into dim 1 gives device (a, b)
  // dim 1's half b (not its target where b != a), and one of x gives it a quarter of dim 1
  // and drops the other quarter of its target it held. No first step is tight, in any
  // device order.
  const Mesh mesh = mesh_of({{"x", 4}});
  const auto result = find_tight_plan(mesh, type_of("bf16[27, 72, {x}144]", mesh), mesh,
                                      type_of("bf16[27, {x:(1)2}72, 144]", mesh));
  EXPECT_EQ(result.verdict, TightVerdict::none);
  EXPECT_TRUE(result.in_every_order);
  EXPECT_EQ(result.states, 1);
  EXPECT_FALSE(result.plan.has_value());
  EXPECT_TRUE(result.steps.empty());
  EXPECT_TRUE(result.reason.empty());
}

TEST(TightPlans, AnAxisOfSixIsTriedInBothDigitOrders) {
  // random132 of seed 13013: x:(1)2 tiles dim 0, the whole x:6 must tile dim 2. The
  // source names x's digits 2 then 3, so only that order is searched (one type: no step
  // from it is tight). The relaxation covers the rest: x = 1 holds row half 0 and needs
  // dim 2's sixth 1; slicing dim 2 in thirds and exchanging the row half into it gives
  // it sixth 2v + 0 for its third v, never 1, and no other tiling fits six devices.
  const Mesh mesh = mesh_of({{"x", 6}});
  const auto result = find_tight_plan(mesh, type_of("f32[{x:(1)2}32, 8, 96]", mesh), mesh,
                                      type_of("f32[32, 8, {x}96]", mesh));
  EXPECT_EQ(result.verdict, TightVerdict::none_per_digit_order);
  EXPECT_EQ(result.states, 1);
  EXPECT_TRUE(result.in_every_order);
  EXPECT_FALSE(result.plan.has_value());
  EXPECT_TRUE(result.steps.empty());
  EXPECT_TRUE(result.reason.empty());
}

TEST(TightPlans, PendingReductionsAreSkipped) {
  const Mesh mesh = mesh_of({{"x", 2}, {"y", 2}});
  const auto result =
      find_tight_plan(mesh, type_of("f32[{x}8] sum{y}", mesh), mesh, type_of("f32[{x}8]", mesh));
  EXPECT_EQ(result.verdict, TightVerdict::skipped);
  EXPECT_EQ(result.reason, "pending reductions");
  EXPECT_EQ(result.states, 0);
  EXPECT_FALSE(result.plan.has_value());
  EXPECT_FALSE(result.in_every_order);
}

TEST(TightPlans, AgreesWithTheSynthesizerAndThePlanLibrary) {
  // Random pairs of up to 4 axes and 64 devices: a default plan the plan library counts
  // LB-tight is a tight plan of the searched steps, so the search must find one; each
  // plan it finds must count tight there; and where it finds one, the relaxation (which
  // holds every tight plan) must not rule it out. The counts keep the test from passing
  // vacuously.
  corpus::RandomSuiteOptions suite;
  suite.count = 150;
  suite.seed = 4242;
  suite.max_axes = 4;
  suite.max_devices = 64;
  int synthesized_tight = 0, found = 0, none = 0, none_in_any_order_count = 0;
  for (const auto& c : corpus::random_cases(suite)) {
    const auto result = find_tight_plan(c.mesh, c.src, c.target_mesh, c.dst);
    ASSERT_NE(result.verdict, TightVerdict::gave_up) << c.name;
    found += result.verdict == TightVerdict::found;
    none += result.verdict == TightVerdict::none;
    none_in_any_order_count += result.in_every_order;
    if (result.plan) {
      const auto [received, bound] = received_and_bound(*result.plan);
      EXPECT_EQ(received, bound) << c.name << ": " << to_string(*result.plan);
    }
    if (result.verdict == TightVerdict::found) {
      EXPECT_EQ(none_in_any_order(c.mesh, c.src, c.target_mesh, c.dst, 200'000, true), std::optional<bool>(false))
          << c.name;
    }
    auto plan = synthesize(c.mesh, c.src, c.target_mesh, c.dst);
    ASSERT_TRUE(plan.ok()) << c.name;
    const auto [received, bound] = received_and_bound(*plan);
    if (received != bound) continue;
    ++synthesized_tight;
    EXPECT_EQ(result.verdict, TightVerdict::found) << c.name << ": synthesized tight " << to_string(*plan);
  }
  EXPECT_GE(synthesized_tight, 50);
  EXPECT_GE(found, synthesized_tight);
  EXPECT_GE(none, 10);
  EXPECT_GE(none_in_any_order_count, 5);
}

}  // namespace
}  // namespace redist::tightness
