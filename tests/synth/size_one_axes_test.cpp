// Size-1 mesh axes (size_one_axes.hpp): the default and the optimal search plan without
// them and put them back at no cost. The fixed cases pin where they go (ridden along,
// gathered, sliced in, spelt by the plan's permute, re-spelt by one that moves
// nothing, reduced or added where pending); the property puts size-1 axes into random pairs and checks every plan
// element by element against the plan without them: the same cost, and for the optimal
// search the same states expanded.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "redist/plan/plan_text.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/optimal.hpp"
#include "redist/synth/synthesize.hpp"
#include "redist/verify/checker.hpp"
#include "synth/checker_checks.hpp"
#include "synth/cost_optimal_checks.hpp"
#include "synth/src/engine.hpp"
#include "synth/src/size_one_axes.hpp"
#include "synth/test_util.hpp"

namespace redist::testing {
namespace {

/// The steps of `plan` in the plan text.
std::vector<std::string> steps_of(const Plan& plan) {
  std::vector<std::string> out;
  for (const auto& step : plan.steps) out.push_back(to_string(step));
  return out;
}

/// The default plan from `src` to `dst` on `mesh`, after checking it element by element
/// and against the plan without size-1 axes: the same modeled time (under `model`).
Plan checked_plan(const Mesh& mesh, const DistType& src, const DistType& dst, const CostModel& model = {}) {
  SynthOptions options;
  options.cost_model = &model;
  auto plan = synthesize(mesh, src, dst, options);
  EXPECT_TRUE(plan.ok()) << plan.error().to_string();
  if (!plan) return Plan{};
  EXPECT_EQ(optimal_problem(*plan, mesh, src, mesh, dst, std::max(local_bytes(src), local_bytes(dst))), "");
  auto without = synthesize(mesh, synth_detail::without_size_one_axes(src), synth_detail::without_size_one_axes(dst),
                            options);
  EXPECT_TRUE(without.ok());
  if (without) EXPECT_DOUBLE_EQ(plan_cost(model, *plan)->time_us, plan_cost(model, *without)->time_us);
  return *plan;
}

/// Byte figures of a tight plan, worked out by hand.
struct Figures {
  int64_t bound = 0;
  int64_t peak = 0;
  int64_t transient = 0;
  int64_t received = 0;  // per device, max: LB(d) too (the plan is tight)
};

/// Expects the checker to prove G1, G2, G3a and G3b (tight) for `plan`, its figures
/// those of plan_figures() (expect_proved_and_tight()) and `want`'s.
void expect_every_verdict(const Plan& plan, const Figures& want) {
  expect_proved_and_tight(plan);
  auto figures = plan_figures(plan);
  ASSERT_TRUE(figures.ok()) << figures.error().to_string();
  EXPECT_EQ(figures->bound_bytes, BigInt(want.bound));
  EXPECT_EQ(figures->peak_local_bytes, BigInt(want.peak));
  EXPECT_EQ(figures->transient_peak_bytes, BigInt(want.transient));
  EXPECT_EQ(figures->recv_bytes_max, BigInt(want.received));
}

TEST(SizeOneAxes, TheTargetsSizeOneAxesAtAMinorEndAreSlicedInLast) {
  // Without v: one all_to_all moves x into dim 1.
  const Mesh mesh = mesh_of("{x:2, v:1}");
  const Plan plan = checked_plan(mesh, type_of("f32[{x}8, 4]", mesh), type_of("f32[8, {x,v}4]", mesh));
  EXPECT_EQ(steps_of(plan), (std::vector<std::string>{"all_to_all(src=0, dst=1, axes={x})", "all_slice(dim=1, axes={v})"}));
  EXPECT_TRUE(engine_detail::slices_first(plan));  // the slice drops nothing
}

TEST(SizeOneAxes, SizeOneAxesRideAlongInTheSuffixesTheyFollow) {
  const Mesh mesh = mesh_of("{x:2, y:2, v:1}");
  const Plan plan = checked_plan(mesh, type_of("f32[{x,v}8, {y}4]", mesh), type_of("f32[8, {y,x,v}4]", mesh));
  EXPECT_EQ(steps_of(plan), (std::vector<std::string>{"all_to_all(src=0, dst=1, axes={x,v})"}));
}

TEST(SizeOneAxes, TheSourcesSizeOneAxesAtAMinorEndAreGatheredFirst) {
  // Without v: one all_to_all of y from dim 1 into dim 0. With v at dim 0's minor end in
  // the source, y would land after it, where the target has it before.
  const Mesh mesh = mesh_of("{x:2, y:3, v:1}");
  const Plan plan = checked_plan(mesh, type_of("f32[{v}6, {x,y}12]", mesh), type_of("f32[{y,v}6, {x}12]", mesh));
  EXPECT_EQ(steps_of(plan), (std::vector<std::string>{"all_gather(dim=0, axes={v})",
                                                       "all_to_all(src=1, dst=0, axes={y})",
                                                       "all_slice(dim=0, axes={v})"}));
}

TEST(SizeOneAxes, ThePlansPermuteSpellsEachDimAsTheStepsAfterItNeed) {
  // Without v: a permute to f32[{y}8, {x}4] (tiles swap between the dims).
  const Mesh mesh = mesh_of("{x:2, y:2, v:1}");
  const Plan plan = checked_plan(mesh, type_of("f32[{x}8, {y,v}4]", mesh), type_of("f32[{v,y}8, {x}4]", mesh));
  ASSERT_EQ(plan.steps.size(), 1u);
  EXPECT_EQ(to_string(plan.steps[0]), "collective_permute(to=f32[{v,y}8, {x}4])");
}

TEST(SizeOneAxes, APermuteThatMovesNothingReSpellsWhatNoMinorEndReaches) {
  // v must come before y, which dim 1 holds throughout: no slice or gather puts it there.
  const Mesh mesh = mesh_of("{x:4, y:2, v:1, u:1}");
  const Plan plan =
      checked_plan(mesh, type_of("f32[{x,v}16, {u,y}8]", mesh), type_of("f32[{u}16, {v,y,x}8]", mesh));
  EXPECT_EQ(steps_of(plan), (std::vector<std::string>{"all_to_all(src=0, dst=1, axes={x,v})",
                                                       "collective_permute(to=f32[{u}16, {v,y,x}8])"}));
  const CostModel model;
  EXPECT_EQ(plan_cost(model, plan)->steps[1].time_us, 0);
}

TEST(SizeOneAxes, AnAxisSplitBothWaysIsMergedBeforeASuffixIsTaken) {
  // The plan without v exchanges y:(3)2 out of dim 2 after gathering into it by the
  // other split of y:6 (y:(1)2, y:(2)3): computed back from the target, dim 2 is
  // {x,y:(1)2,y:(2)3} there, which is {x,y}, whose minor part y:(3)2 is.
  const Mesh mesh = mesh_of("{x:4, y:6, z:2, v:1}");
  const DistType src = type_of("f32[{x}144, 162, {y,z}216]", mesh);
  const DistType dst = type_of("f32[{z,v}144, {y:(2)3}162, {x:(1)2,x:(2)2}216]", mesh);
  const CostModel model = parse_cost_model("x = inter\n").value();
  SynthOptions options;
  options.cost_model = &model;
  auto bare = synthesize(mesh, src, synth_detail::without_size_one_axes(dst), options);
  ASSERT_TRUE(bare.ok());
  auto dressed = synth_detail::with_size_one_axes(*bare, src, dst);
  ASSERT_TRUE(dressed.has_value()) << to_string(*bare);
  EXPECT_EQ(optimal_problem(*dressed, mesh, src, mesh, dst, std::max(local_bytes(src), local_bytes(dst))), "");
  EXPECT_DOUBLE_EQ(plan_cost(model, *dressed)->time_us, plan_cost(model, *bare)->time_us);
}

TEST(SizeOneAxes, APendingSumOverASizeOneAxisIsReducedFirstOrAddedLast) {
  // DTensor's Partial on a mesh dim of one device: the sum over it is the value itself.
  const Mesh mesh = mesh_of("{x:4, v:1}");
  const Plan reduced = checked_plan(mesh, type_of("f32[{x}16, 8] sum{v}", mesh), type_of("f32[16, {x}8]", mesh));
  EXPECT_EQ(steps_of(reduced), (std::vector<std::string>{"all_reduce(axes={v})", "all_to_all(src=0, dst=1, axes={x})"}));
  // The checker takes an all_reduce over a pending size-1 axis (which overlaps nothing).
  // The exchange over x:4 receives 3/4 of the 128-byte shard, which is what each device
  // lacks of its target shard (8 of its 32 elements are held).
  expect_every_verdict(reduced, {.bound = 128, .peak = 128, .transient = 256, .received = 96});
  EXPECT_EQ(steps_of(checked_plan(mesh, type_of("f32[{x}16, 8]", mesh), type_of("f32[16, {x}8] sum{v}", mesh))),
            (std::vector<std::string>{"all_to_all(src=0, dst=1, axes={x})", "add_pending(axes={v}, op=sum)"}));
}

TEST(SizeOneAxes, TheCheckerProvesAPlanThatSlicesASizeOneAxisAfterReceivingData) {
  const Mesh mesh = mesh_of("{x:2, y:3, v:1}");
  const Plan plan = checked_plan(mesh, type_of("f32[{v}6, {x,y}12]", mesh), type_of("f32[{y,v}6, {x}12]", mesh));
  // The exchange over y:3 receives 2/3 of the 48-byte shard; each device holds 2 rows by
  // 2 columns (16 bytes) of its 48-byte target shard and lacks the other 32.
  expect_every_verdict(plan, {.bound = 48, .peak = 48, .transient = 96, .received = 32});
}

TEST(SizeOneAxes, AStepOverSizeOneAxesAloneMovesNothing) {
  EXPECT_TRUE(moves_nothing(Step{AllSlice{0, {AxisRef{"v", 1, 1, false}}}}));
  EXPECT_TRUE(moves_nothing(Step{AllGather(1, {AxisRef{"v", 1, 1, false}, AxisRef{"u", 1, 1, false}})}));
  EXPECT_FALSE(moves_nothing(Step{AllSlice{0, {AxisRef{"v", 1, 1, false}, AxisRef{"x", 1, 2, false}}}}));
  EXPECT_FALSE(moves_nothing(Step{AllToAll(0, 1, {AxisRef{"x", 1, 2, false}})}));
}

TEST(SizeOneAxes, ASizeOneAxisCarriesNoTrafficAtItsClass) {
  // u is inter-node but has one coordinate: the exchange's members differ along x only.
  CostModel model = parse_cost_model("u = inter\n").value();
  const Mesh mesh = mesh_of("{u:1, x:4}");
  const TypedState before{mesh, type_of("f32[{x,u}16, 8]", mesh)}, after{mesh, type_of("f32[16, {x,u}8]", mesh)};
  const StepCost cost = step_cost(model, before, after, Step{AllToAll(0, 1, {AxisRef{"x", 1, 4, false},
                                                                             AxisRef{"u", 1, 1, false}})});
  EXPECT_EQ(cost.link, LinkClass::intra);
  EXPECT_EQ(step_link_axes(before, after, Step{AllToAll(0, 1, {AxisRef{"x", 1, 4, false}, AxisRef{"u", 1, 1, false}})}),
            std::vector<std::string>{"x"});
}

/// A random pair on a mesh of 1-3 axes of size 2-4 and one or two of size 1 (anywhere
/// in the axis order), each type tiled by whole axes or halves of size-4 ones, the
/// size-1 axes put at random places in random dims of either type.
rc::Gen<std::pair<Mesh, std::pair<DistType, DistType>>> gen_size_one_pair() {
  return rc::gen::exec([] {
    std::vector<MeshAxis> axes;
    const char* names[] = {"x", "y", "z"};
    for (int a = *rc::gen::inRange(1, 4); a-- > 0;) axes.push_back({names[a], *rc::gen::inRange<int64_t>(2, 5)});
    const int ones = *rc::gen::inRange(1, 3);
    for (int k = 0; k < ones; ++k) {
      const auto at = static_cast<std::ptrdiff_t>(*rc::gen::inRange<std::size_t>(0, axes.size() + 1));
      axes.insert(axes.begin() + at, MeshAxis{k == 0 ? "v" : "u", 1});
    }
    const Mesh mesh = Mesh::create(axes).value();
    const int rank = *rc::gen::inRange(1, 4);
    auto tiling = [&] {
      std::vector<Dim> dims(static_cast<std::size_t>(rank));
      for (const auto& a : axes) {
        std::vector<AxisRef> pieces;
        if (a.size == 1) pieces.push_back({a.name, 1, 1, false});
        else if (a.size == 4 && *rc::gen::inRange(0, 3) == 0) pieces = {{a.name, 1, 2, true}, {a.name, 2, 2, true}};
        else pieces.push_back({a.name, 1, a.size, false});
        for (auto& p : pieces) {
          const int where = *rc::gen::inRange(0, rank + 1);  // rank: left replicated
          if (where == rank) continue;
          auto& dim = dims[static_cast<std::size_t>(where)].axes;
          dim.insert(dim.begin() + static_cast<std::ptrdiff_t>(*rc::gen::inRange<std::size_t>(0, dim.size() + 1)), p);
        }
      }
      return dims;
    };
    DistType src, dst;
    src.dims = tiling();
    dst.dims = tiling();
    for (std::size_t d = 0; d < src.dims.size(); ++d)
      src.dims[d].global = dst.dims[d].global =
          std::lcm(tile_count(src.dims[d]), tile_count(dst.dims[d])) * *rc::gen::inRange<int64_t>(1, 3);
    RC_PRE(validate(src, mesh).ok() && validate(dst, mesh).ok());
    // Pending over v sometimes (a sum over one device is the value itself); the target
    // may add it where the source replicates v.
    const AxisRef v{"v", 1, 1, false};
    const auto tiled_by_v = [&](const DistType& t) {
      return std::any_of(t.dims.begin(), t.dims.end(), [&](const Dim& d) {
        return std::find(d.axes.begin(), d.axes.end(), v) != d.axes.end();
      });
    };
    if (!tiled_by_v(src) && *rc::gen::inRange(0, 4) == 0) src.reduce_axes = {v};
    if (!tiled_by_v(src) && !tiled_by_v(dst) && *rc::gen::inRange(0, 4) == 0) dst.reduce_axes = {v};
    RC_PRE(validate(src, mesh).ok() && validate(dst, mesh).ok());
    RC_PRE(synth_detail::names_size_one_axis(src) || synth_detail::names_size_one_axis(dst));
    return std::pair{mesh, std::pair{src, dst}};
  });
}

RC_GTEST_PROP(SizeOneAxes, PlansWithSizeOneAxesRunAndCostWhatThePlansWithoutThemDo, ()) {
  const auto [mesh, types] = *gen_size_one_pair();
  const auto& [src, dst] = types;
  // The first axis inter-node: a size-1 one there must not make a step slow.
  const CostModel model = parse_cost_model(mesh.axes().front().name + " = inter\n").value();
  const DistType bare_src = synth_detail::without_size_one_axes(src), bare_dst = synth_detail::without_size_one_axes(dst);
  SynthOptions options;
  options.cost_model = &model;
  auto plan = synthesize(mesh, src, dst, options);
  auto bare = synthesize(mesh, bare_src, bare_dst, options);
  RC_ASSERT(plan.ok() == bare.ok());
  if (!plan) return;
  const BigInt bound = std::max(local_bytes(src), local_bytes(dst));
  const std::string problem = optimal_problem(*plan, mesh, src, mesh, dst, bound);
  RC_ASSERT(problem == "");
  RC_ASSERT(std::abs(plan_cost(model, *plan)->time_us - plan_cost(model, *bare)->time_us) <= 1e-9);
  RC_ASSERT(engine_detail::slices_first(*plan) == engine_detail::slices_first(*bare));
  OptimalOptions limits;
  limits.max_expanded = 2000;
  auto optimal = optimal_plan(model, mesh, src, mesh, dst, limits);
  auto bare_optimal = optimal_plan(model, mesh, bare_src, mesh, bare_dst, limits);
  RC_ASSERT(optimal.ok() == bare_optimal.ok());
  if (!optimal) return;
  RC_ASSERT(optimal_problem(optimal->plan, mesh, src, mesh, dst, bound) == "");
  RC_ASSERT(optimal->time_us == bare_optimal->time_us);
  RC_ASSERT(optimal->expanded == bare_optimal->expanded);  // no state spent on where they go
}

}  // namespace
}  // namespace redist::testing
