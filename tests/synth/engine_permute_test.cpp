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
#include "synth/src/engine_moves.hpp"
#include "synth/src/same_blocks.hpp"
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
            "mesh {x:4, y:6, z:2, w:4}\nsource f32[{x,z,y:(2)3}52848]\nall_slice(dim=0, axes={w:(2)2})\n"
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

}  // namespace
}  // namespace redist::testing
