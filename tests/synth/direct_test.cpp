// The direct builder (synth/src/synth_direct.cpp) under its two placements: `exact`
// slices an atom whose predecessor's dim has no room only after an exchange; `staged`
// slices it first on another dim, so that one fused exchange brings both in.

#include <gtest/gtest.h>

#include "redist/plan/plan_text.hpp"
#include "redist/synth/synthesize.hpp"
#include "synth/builder_pair.hpp"
#include "synth/src/synth_builders.hpp"
#include "synth/synthesis_checks.hpp"

namespace redist::testing {
namespace {

using synth_detail::SlicePlacement;

// Returns the direct plan's text under `placement`.
std::string direct_text(const BuilderPair& p, SlicePlacement placement) {
  const auto moves = synth_detail::direct_plan(p.problem, p.atoms.a, p.atoms.b, placement);
  if (!moves) return "none";
  return to_string(synth_detail::to_plan(*moves, p.mesh, p.src, p.mesh, p.dst));
}

// {x:16}: f32[44, {x:(1)2}44, 176] -> f32[44, 44, {x}176] (random346 of the targets
// suite). x:(2)2 goes on top of its predecessor x:(1)2 in dim 1 (44 / 4 = 11); x:(4)4
// no longer fits there. `exact` slices it into dim 2 after the exchange; `staged` puts
// it on dim 0, which holds nothing of its own target.
constexpr const char* kStagedMesh = "{x:16}";
constexpr const char* kStagedSrc = "f32[44, {x:(1)2}44, 176]";
constexpr const char* kStagedDst = "f32[44, 44, {x}176]";

TEST(DirectPlan, TheExactPlacementSlicesAfterTheExchange) {
  const BuilderPair p = builder_pair(kStagedMesh, kStagedSrc, kStagedDst);
  EXPECT_EQ(direct_text(p, SlicePlacement::exact),
            "mesh {x:16}\nsource f32[44, {x:(1)2}44, 176]\nall_slice(dim=1, axes={x:(2)2})\n"
            "all_to_all(src=1, dst=2, axes={x:(1)4})\nall_slice(dim=2, axes={x:(4)4})\n"
            "target f32[44, 44, {x}176]\n");
}

TEST(DirectPlan, TheStagedPlacementSlicesEveryAtomBeforeTheExchanges) {
  const BuilderPair p = builder_pair(kStagedMesh, kStagedSrc, kStagedDst);
  EXPECT_EQ(direct_text(p, SlicePlacement::staged),
            "mesh {x:16}\nsource f32[44, {x:(1)2}44, 176]\nall_slice(dim=0, axes={x:(4)4})\n"
            "all_slice(dim=1, axes={x:(2)2})\nall_to_all(src=1, dst=2, axes={x:(1)4})\n"
            "all_to_all(src=0, dst=2, axes={x:(4)4})\ntarget f32[44, 44, {x}176]\n");
}

TEST(DirectPlan, TheDefaultCallFusesTheStagedExchanges) {
  // The engine fuses the two all_to_alls into one over all 16 devices: 1.27 us under the
  // default model. The exact plan slices after its exchange, which G3a rules out, and
  // without the staged plan the default was a slice, a 2-way exchange and a permute
  // (2.43 us).
  const BuilderPair p = builder_pair(kStagedMesh, kStagedSrc, kStagedDst);
  const auto plan = synthesize(p.mesh, p.src, p.dst);
  ASSERT_TRUE(plan) << plan.error().message;
  EXPECT_EQ(to_string(*plan),
            "mesh {x:16}\nsource f32[44, {x:(1)2}44, 176]\nall_slice(dim=0, axes={x:(4)4})\n"
            "all_slice(dim=1, axes={x:(2)2})\n"
            "all_to_all(src=1, dst=2, axes={x:(1)4}; src=0, dst=2, axes={x:(4)4})\n"
            "target f32[44, 44, {x}176]\n");
  EXPECT_EQ(plan_problem(*plan, p.mesh, p.src, p.mesh, p.dst, std::max(local_bytes(p.src), local_bytes(p.dst))),
            "");
}

TEST(DirectPlan, TheStagedPlacementSkipsADimWhoseAtomsLeave) {
  // {x:4, y:2}: x:(2)2 fits neither on its predecessor's dim 2 (size 2) nor in dim 3
  // before x:(1)2 arrives. Dim 0 has room but holds y, which leaves for dim 1: an atom
  // staged on it would sit on y. Dim 1 holds nothing yet (a prefix of its target), so
  // x:(2)2 goes there and leaves before y arrives.
  const BuilderPair p = builder_pair("{x:4, y:2}", "f32[{y}8, 8, {x:(1)2}2, 8]", "f32[8, {y}8, 2, {x}8]");
  EXPECT_EQ(direct_text(p, SlicePlacement::staged),
            "mesh {x:4, y:2}\nsource f32[{y}8, 8, {x:(1)2}2, 8]\nall_slice(dim=1, axes={x:(2)2})\n"
            "all_to_all(src=2, dst=3, axes={x:(1)2})\nall_to_all(src=1, dst=3, axes={x:(2)2})\n"
            "all_to_all(src=0, dst=1, axes={y})\ntarget f32[8, {y}8, 2, {x}8]\n");
}

}  // namespace
}  // namespace redist::testing
