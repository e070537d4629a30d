// The balanced builder (synth/src/synth_balanced.cpp): its greedy path alone where that
// meets, and its backtracking where the greedy path gets stuck (the pairs this gave
// plans are fixed cases of engine_property_test.cpp).

#include <gtest/gtest.h>

#include "redist/plan/plan_text.hpp"
#include "synth/builder_pair.hpp"
#include "synth/src/synth_builders.hpp"
#include "synth/synthesis_checks.hpp"

namespace redist::testing {
namespace {

using synth_detail::balanced_plans;

struct Pair : BuilderPair {
  synth_detail::Ends ends;
};

Pair pair_of(const char* mesh, const char* src, const char* dst) {
  Pair p{builder_pair(mesh, src, dst), {}};
  p.ends = *synth_detail::valley_ends(p.problem.frame, p.atoms, synth_detail::SlicePlacement::target_first);
  return p;
}

std::string text_of(const Pair& p, const synth_detail::Moves& moves) {
  return to_string(synth_detail::to_plan(moves, p.mesh, p.src, p.mesh, p.dst));
}

TEST(BalancedPlans, TheGreedyPathIsTheOnePlanWhereItMeets) {
  // {x:4, y:2}: f32[{x}16, {y}8] -> f32[{y}16, {x}8]: dim 0 has 4 tiles and wants 2, dim
  // 1 the reverse; moving x:(2)2 to dim 1 meets the counts, and a permute ends it.
  const Pair p = pair_of("{x:4, y:2}", "f32[{x}16, {y}8]", "f32[{y}16, {x}8]");
  const auto greedy = balanced_plans(p.problem, p.atoms, p.ends, true);
  const auto searched = balanced_plans(p.problem, p.atoms, p.ends, false);
  ASSERT_EQ(greedy.size(), 1u);
  ASSERT_EQ(searched.size(), 1u);
  EXPECT_EQ(text_of(p, searched[0]), text_of(p, greedy[0]));
  EXPECT_EQ(text_of(p, greedy[0]),
            "mesh {x:4, y:2}\nsource f32[{x}16, {y}8]\nall_to_all(src=0, dst=1, axes={x:(2)2})\n"
            "collective_permute(to=f32[{y}16, {x}8])\ntarget f32[{y}16, {x}8]\n");
}

TEST(BalancedPlans, BacktrackingMeetsWhereTheGreedyPathIsStuck) {
  // Moving the largest block first (w:(2)8 from dim 1 into dim 0) leaves y major in dim
  // 0 with nothing to move it: the greedy path finds nothing. Moving y first meets.
  const Pair p = pair_of("{x:4, y:3, z:2, w:16}", "f32[{x,y}768, {w}1536, {z}48]", "f32[{w}768, {y,z}1536, 48]");
  EXPECT_TRUE(balanced_plans(p.problem, p.atoms, p.ends, true).empty());
  const auto plans = balanced_plans(p.problem, p.atoms, p.ends, false);
  ASSERT_EQ(plans.size(), 3u);
  EXPECT_EQ(text_of(p, plans[0]),
            "mesh {x:4, y:3, z:2, w:16}\nsource f32[{x,y}768, {w}1536, {z}48]\n"
            "all_to_all(src=0, dst=1, axes={y})\nall_to_all(src=2, dst=0, axes={z})\n"
            "collective_permute(to=f32[{w:(1)8}768, {y,z,w:(8)2,x:(2)2,x:(1)2}1536, 48])\n"
            "all_to_all(src=1, dst=0, axes={w:(8)2,x:(2)2,x:(1)2})\nall_gather(dim=0, axes={x:(2)2,x:(1)2})\n"
            "target f32[{w}768, {y,z}1536, 48]\n");
  for (std::size_t i = 0; i < plans.size(); ++i) {
    const Plan plan = synth_detail::to_plan(plans[i], p.mesh, p.src, p.mesh, p.dst);
    EXPECT_EQ(plan_problem(plan, p.mesh, p.src, p.mesh, p.dst, std::max(local_bytes(p.src), local_bytes(p.dst))), "")
        << to_string(plan);
    for (std::size_t j = 0; j < i; ++j) EXPECT_NE(text_of(p, plans[j]), text_of(p, plans[i]));
  }
}

}  // namespace
}  // namespace redist::testing
