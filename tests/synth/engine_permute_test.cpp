// The permute edges of the search engine (synth/src/engine_permute.cpp): a state is
// offered permutes to the target's prefixes padded with factors of the frame's pool, in
// pool order, up to 96; the default call keeps the 16 whose dims agree most with the
// target's. Under two link classes the factors the target leaves replicated, which a
// later gather brings back, come fast-first.

#include <fmt/format.h>
#include <gtest/gtest.h>

#include "redist/plan/plan_text.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/optimal.hpp"
#include "redist/synth/synthesize.hpp"
#include "synth/src/engine.hpp"
#include "synth/src/engine_moves.hpp"
#include "synth/src/same_blocks.hpp"
#include "synth/src/seeds.hpp"
#include "synth/src/synth_scope.hpp"
#include "synth/synthesis_checks.hpp"
#include "synth/test_util.hpp"

namespace redist::testing {
namespace {

/// The model with x inter-node, the other axes intra-node.
CostModel x_inter() { return parse_cost_model("x = inter\n").value(); }

constexpr const char* kMesh = "{x:4, y:6, z:2, w:4}";
constexpr const char* kSrc = "f32[{x,z,y:(2)3}52848]";
constexpr const char* kDst = "f32[{y:(1)2}52848]";

// Returns the pool of the frame from kSrc to kDst under `model`, as text.
std::string pool_text(const CostModel& model) {
  const Mesh mesh = mesh_of(kMesh);
  const auto frame = engine_detail::make_frame(model, mesh, type_of(kSrc, mesh), mesh, type_of(kDst, mesh), INT64_MAX);
  std::string out;
  for (const auto& f : frame.pool)
    out += fmt::format("{}:({}){} ", mesh.axes()[static_cast<std::size_t>(f.axis)].name, f.pre, f.size);
  return out;
}

TEST(EnginePermute, TheReplicatedFactorsOfFastAxesComeFirstInThePool) {
  // The target tiles y:(1)2 only: x, y:(2)3, z and w are left replicated (first in the
  // pool, then the other factors of every axis, from y:(1)2). With x inter-node, its
  // factors move behind the fast ones of that first part; under one class the order is
  // the axes'. The rest of the pool keeps its order.
  EXPECT_EQ(pool_text(CostModel{}),
            "x:(1)2 x:(1)4 x:(2)2 y:(2)3 z:(1)2 w:(1)2 w:(1)4 w:(2)2 y:(1)2 y:(1)3 y:(1)6 y:(3)2 ");
  EXPECT_EQ(pool_text(x_inter()),
            "y:(2)3 z:(1)2 w:(1)2 w:(1)4 w:(2)2 x:(1)2 x:(1)4 x:(2)2 y:(1)2 y:(1)3 y:(1)6 y:(3)2 ");
}

TEST(EnginePermute, ThePermutePadsWithFastFactorsAndTheGatherRunsOnFastLinks) {
  // Harness case random54 (x inter-node). The factors the permute adds to dim 0 beyond
  // y:(1)2 are gathered after it: padded with x (the pool's order before), that gather
  // ran over x, 8.38 us; padded with z, w and y:(2)3 it runs on fast links only, 6.51 us,
  // the optimal plan.
  const Mesh mesh = mesh_of(kMesh);
  const DistType src = type_of(kSrc, mesh), dst = type_of(kDst, mesh);
  const CostModel model = x_inter();
  SynthOptions options;
  options.cost_model = &model;
  const auto plan = synthesize(mesh, src, dst, options);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_EQ(to_string(*plan),
            "mesh {x:4, y:6, z:2, w:4}\nsource f32[{x,z,y:(2)3}52848]\nall_slice(dim=0, axes={w:(1)2})\n"
            "collective_permute(to=f32[{y:(1)2,z,w,y:(2)3}52848])\nall_gather(dim=0, axes={z,w,y:(2)3})\n"
            "target f32[{y:(1)2}52848]\n");
  EXPECT_EQ(plan_problem(*plan, mesh, src, mesh, dst, std::max(local_bytes(src), local_bytes(dst))), "");
  const double time_us = plan_cost(model, *plan)->time_us;
  EXPECT_NEAR(time_us, 6.5138, 1e-4);
  auto best = optimal_plan(model, mesh, src, mesh, dst);
  ASSERT_TRUE(best.ok()) << best.error().to_string();
  EXPECT_NEAR(best->time_us, time_us, 1e-9 * time_us);
}

TEST(EnginePermute, APermuteStaysInPlaceExactlyWhereEveryDeviceKeepsItsBlocks) {
  // devices [1,0,3,2] on {x:2, y:2}: the order changes along y only, so a dim tiled by
  // x keeps its blocks and one tiled by y does not. stays_in_place() answers per dim
  // from a memo; it must agree with same_blocks() on the whole state, asked twice.
  const Mesh src_mesh = mesh_of("{x:2, y:2}"), dst_mesh = mesh_of("{x:2, y:2} devices=[1,0,3,2]");
  const std::vector<std::string> types = {"f32[8, 4]",      "f32[{x}8, 4]",   "f32[{y}8, 4]",   "f32[8, {x}4]",
                                          "f32[{x}8, {y}4]", "f32[{y}8, {x}4]", "f32[{x,y}8, 4]", "f32[{y,x}8, 4]"};
  const auto frame = engine_detail::make_frame(CostModel{}, src_mesh, type_of(types[0], src_mesh), dst_mesh,
                                               type_of(types[0], dst_mesh), INT64_MAX);
  int stays = 0;
  for (int round = 0; round < 2; ++round)
    for (const auto& a : types)
      for (const auto& b : types) {
        const auto s = engine_detail::state_of(type_of(a, src_mesh), src_mesh, false);
        const auto t = engine_detail::state_of(type_of(b, dst_mesh), dst_mesh, true);
        const bool expected = synth_detail::same_blocks(src_mesh, {s.dims.data(), s.dims.size()}, dst_mesh,
                                                        {t.dims.data(), t.dims.size()});
        EXPECT_EQ(engine_detail::stays_in_place(frame, s, t), expected) << a << " -> " << b;
        stays += expected;
      }
  // Per round: the replicated array, {x}8 and {8, {x}4} each to themselves.
  EXPECT_EQ(stays, 2 * 3);
  EXPECT_TRUE(engine_detail::stays_in_place(frame, engine_detail::state_of(type_of("f32[{x}8, 4]", src_mesh), src_mesh, false),
                                            engine_detail::state_of(type_of("f32[{x}8, 4]", dst_mesh), dst_mesh, true)));
  EXPECT_FALSE(engine_detail::stays_in_place(frame, engine_detail::state_of(type_of("f32[{y}8, 4]", src_mesh), src_mesh, false),
                                             engine_detail::state_of(type_of("f32[{y}8, 4]", dst_mesh), dst_mesh, true)));
}

// Harness case random297 of seed 777 (x inter-node, another device order on 384
// devices): the optimal plan (7.01 us) slices, exchanges z on a fast link, and permutes
// to a layout whose last dim is {y:(2)2,y:(1)2}, gathered after. Of the permute targets
// the step set builds, the default call's capped set once kept the first 16 depth-first,
// which vary only the last dims' options while the first dims keep their own factors,
// and its plan took 11.03 us; the 16 that agree most with the target's dims include the
// optimal one.
TEST(EnginePermute, TheCappedStepSetKeepsTheTargetsNearestTheTarget) {
  constexpr const char* kTargetMesh =
    "{x:4, y:4, z:3, w:8} devices=["
    "272,219,106,143,198,374,377,23,174,284,360,353,151,92,192,307,376,247,363,287,10,6,216,"
    "262,231,70,175,329,372,224,277,134,0,364,113,206,130,383,260,348,322,109,315,241,355,"
    "127,220,155,77,11,233,380,112,41,161,201,213,291,197,323,229,379,352,289,316,26,94,199,"
    "1,332,57,362,257,254,68,232,301,266,66,215,73,381,346,331,273,147,102,182,101,39,252,"
    "370,13,217,330,243,294,288,163,51,296,5,110,43,333,255,135,28,378,97,133,47,35,256,382,"
    "189,124,317,61,56,168,170,71,14,236,49,269,118,17,173,136,27,314,48,36,86,191,245,203,"
    "25,44,313,178,286,103,188,341,249,276,278,185,164,214,264,328,302,126,142,369,172,139,"
    "204,108,144,246,148,371,162,131,74,238,46,356,234,358,336,279,367,268,280,15,160,180,82,"
    "242,300,75,194,37,183,119,324,298,193,202,210,261,150,138,250,319,228,195,271,190,72,"
    "128,359,326,99,344,263,120,208,116,297,20,251,154,221,345,123,184,181,149,89,96,171,343,"
    "230,141,125,303,305,40,166,140,34,33,114,115,12,19,237,8,153,282,306,368,270,223,159,69,"
    "58,104,342,121,63,105,361,50,311,76,295,64,281,200,205,4,53,45,93,122,59,156,32,60,365,"
    "176,240,152,211,129,7,222,366,158,310,79,292,177,338,78,312,373,42,309,265,248,88,29,"
    "321,335,187,62,235,100,55,227,24,38,327,244,299,52,16,308,90,304,351,85,167,350,325,239,"
    "84,357,22,107,267,258,3,146,259,179,65,165,9,318,274,334,290,145,18,349,275,157,83,283,"
    "209,285,30,91,95,31,225,340,218,67,137,117,54,375,186,80,320,111,207,253,21,347,354,87,"
    "337,81,339,226,169,293,132,196,98,212,2"
    "]";
  const Mesh mesh = mesh_of("{x:4, y:4, z:3, w:8}"), target_mesh = mesh_of(kTargetMesh);
  const DistType src = type_of("f32[{w:(1)2,z}12, 3, 24, {x}12]", mesh);
  const DistType dst = type_of("f32[{x:(2)2}12, {z}3, {w:(2)4,w:(1)2}24, 12]", target_mesh);
  const CostModel model = x_inter();
  // The default call's plain pass (100 states, 16 permute targets a state) ends at its
  // budget with the seeds' 11.03 us, far from proved; a weighted pass (weight 2) from
  // that plan finds a plan within 0.002% of the optimum among the nearest targets in
  // 2,000 states (among the first 16 depth-first it kept 11.03 us). The default call's
  // deep pass has 1,000: since the order change's charge counts the step that changes
  // tile counts (engine_bound.cpp), that pass ends at 11.03 us, and the far pass after it
  // (plain order, every target) finds the optimum.
  auto problem = synth_detail::make_problem(mesh, src, target_mesh, dst);
  ASSERT_TRUE(problem.ok()) << problem.error().to_string();
  const auto seeds = synth_detail::constructive_seeds(*problem, mesh, src, target_mesh, dst,
                                                      {.slow_axes = synth_detail::slow_axes(model, mesh)});
  const BigInt bound = std::max(local_bytes(src), local_bytes(dst));
  engine_detail::EngineLimits limits;
  limits.max_expanded = SynthOptions::kDefaultSearch;
  limits.gap = SynthOptions{}.gap;
  limits.max_permute_targets = 16;
  limits.require_seed = true;
  const auto plain = engine_detail::run_engine(model, mesh, src, target_mesh, dst, bound, seeds, limits);
  ASSERT_TRUE(plain.ok() && plain->plan.has_value());
  EXPECT_FALSE(plain->stopped.empty());
  EXPECT_NEAR(plain->time_us, 11.03312, 1e-4);
  EXPECT_GT(plain->time_us, 1.5 * plain->least_us);
  limits.bound_weight = 2;
  limits.max_expanded = 20 * SynthOptions::kDefaultSearch;
  const auto deep = engine_detail::run_engine(model, mesh, src, target_mesh, dst, bound, {*plain->plan}, limits);
  ASSERT_TRUE(deep.ok() && deep->plan.has_value());
  EXPECT_NEAR(deep->time_us, 7.0114, 1e-4);
  const auto optimal = optimal_plan(model, mesh, src, target_mesh, dst);
  ASSERT_TRUE(optimal.ok()) << optimal.error().to_string();
  EXPECT_TRUE(optimal->proved);
  EXPECT_NEAR(optimal->time_us, 7.01128, 1e-4);
  SynthOptions options;
  options.cost_model = &model;
  const auto plan = synthesize(mesh, src, target_mesh, dst, options);
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  EXPECT_NEAR(plan_cost(model, *plan)->time_us, 7.01128, 1e-6);
}

}  // namespace
}  // namespace redist::testing
