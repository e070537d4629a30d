// run_step refuses ill-typed steps, data that does not fit the state, malformed explicit
// groups and pairs, and padded dims, with errors; well-formed but wrong lowerings run
// and compare() catches them.

#include <gtest/gtest.h>

#include "helpers.hpp"
#include "redist/verify/interpreter.hpp"

namespace redist::testing {
namespace {

/// run_step on the distributed data of `before`.
Result<MeshData> run_on(const TypedState& before, const Step& step) {
  return run_step(before, step, distribute(before.mesh, before.type));
}

TEST(VerifyRunStep, RefusesIllTypedSteps) {
  const auto s = state_of("{x:2, y:2}", "f32[{x,y}8, 4]");
  EXPECT_FALSE(run_on(s, make_step(AllGather{0, {axis("x", 2)}})).ok());  // not a suffix
  EXPECT_FALSE(run_on(s, make_step(AllGather{2, {axis("y", 2)}})).ok());  // no dim 2
  EXPECT_FALSE(run_on(s, make_step(AllSlice{1, {axis("x", 2)}})).ok());   // x already used
  EXPECT_FALSE(run_on(s, make_step(AllReduce{{axis("x", 2)}})).ok());     // no pending reduction
  EXPECT_FALSE(run_on(s, make_step(ReduceScatter{1, {axis("y", 2)}})).ok());
  EXPECT_FALSE(run_on(s, make_step(AllToAll{1, 0, {axis("y", 2)}})).ok());  // dim 1 not tiled
  const auto to = type_of("f32[{x}8, 4]", s.mesh);
  EXPECT_FALSE(run_on(s, make_step(CollectivePermute{to, std::nullopt})).ok());  // local sizes differ
}

TEST(VerifyRunStep, RefusesDataThatDoesNotFitTheState) {
  const auto s = state_of("{x:2}", "f32[{x}4]");
  const Step gather = make_step(AllGather{0, {axis("x", 2)}});
  MeshData data = distribute(s.mesh, s.type);
  data.pop_back();
  EXPECT_FALSE(run_step(s, gather, data).ok());
  data = distribute(s.mesh, s.type);
  data[1].shape = {4};
  EXPECT_FALSE(run_step(s, gather, data).ok());
  data = distribute(s.mesh, s.type);
  data[0].values.push_back(7);
  EXPECT_FALSE(run_step(s, gather, data).ok());
}

TEST(VerifyRunStep, RefusesAPaddedDimItCannotRun) {
  const auto s = state_of("{x:2}", "f32[{x}5]");
  EXPECT_FALSE(run_on(s, make_step(AllSlice{1, {axis("x", 2)}})).ok());  // no dim 1
  // {x,y}5 gathered over y: x=0 would get 0-3 but {x}5 puts 0-2 there (no nesting).
  const auto nested = state_of("{x:2, y:2}", "f32[{x,y}5]");
  const auto refused = run_on(nested, make_step(AllGather{0, {axis("y", 2)}}));
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message.find("does not nest"), std::string::npos) << refused.error().message;
  const auto padded_slice = state_of("{x:2, y:2}", "f32[{x}5, 4]");
  EXPECT_FALSE(run_on(padded_slice, make_step(AllSlice{0, {axis("y", 2)}})).ok());  // not a local slice
}

TEST(VerifyRunStep, RefusesMalformedExplicitGroups) {
  const auto s = state_of("{x:2, y:2}", "f32[{x,y}8]");
  auto gather = [](DeviceGroups groups) { return make_step(AllGather{0, {axis("y", 2)}}, std::move(groups)); };
  EXPECT_TRUE(run_on(s, gather({{0, 1}, {2, 3}})).ok());
  EXPECT_FALSE(run_on(s, gather({{0, 0}, {2, 3}})).ok());        // repeated device
  EXPECT_FALSE(run_on(s, gather({{0, 1}})).ok());                // devices 2, 3 missing
  EXPECT_FALSE(run_on(s, gather({{0, 1, 2, 3}})).ok());          // wrong group size
  EXPECT_FALSE(run_on(s, gather({{0, 1}, {2, 4}})).ok());        // no device 4
  EXPECT_FALSE(run_on(s, gather({{0, 1}, {2, -1}})).ok());       // negative device
  EXPECT_FALSE(run_on(s, gather({{0, 1}, {2, 3}, {0, 1}})).ok()); // device in two groups
  const auto to = type_of("f32[{y,x}8]", s.mesh);
  EXPECT_FALSE(run_on(s, {CollectivePermute{to, std::nullopt}, DeviceGroups{{0, 1}, {2, 3}}, std::nullopt}).ok());
  EXPECT_FALSE(run_on(s, {AllGather{0, {axis("y", 2)}}, std::nullopt, DevicePairs{{0, 0}, {1, 1}, {2, 2}, {3, 3}}}).ok());
}

TEST(VerifyRunStep, RefusesMalformedPairs) {
  const auto s = state_of("{x:2}", "f32[{x}4]");
  auto permute = [&](DevicePairs pairs) {
    return make_step(CollectivePermute{s.type, mesh_of("{x:2} devices=[1, 0]")}, std::nullopt, std::move(pairs));
  };
  EXPECT_TRUE(run_on(s, permute({{0, 1}, {1, 0}})).ok());
  EXPECT_FALSE(run_on(s, permute({{0, 0}, {1, 0}})).ok());  // target 0 twice, 1 never
  EXPECT_FALSE(run_on(s, permute({{1, 0}})).ok());          // target 1 missing
  EXPECT_FALSE(run_on(s, permute({{0, 2}, {1, 0}})).ok());  // no device 2
  EXPECT_FALSE(run_on(s, permute({{5, 1}, {1, 0}})).ok());  // no device 5
}

TEST(VerifyRunStep, ReversedGatherGroupIsCaughtByCompare) {
  const auto s = state_of("{x:2, y:2}", "f32[{x,y}8]");
  const auto after = type_of("f32[{x}8]", s.mesh);
  const Step right{AllGather{0, {axis("y", 2)}}, DeviceGroups{{0, 1}, {2, 3}}, std::nullopt};
  const Step reversed{AllGather{0, {axis("y", 2)}}, DeviceGroups{{1, 0}, {3, 2}}, std::nullopt};
  const auto good = run_on(s, right);
  ASSERT_TRUE(good.ok()) << good.error().to_string();
  EXPECT_EQ(compare(s.mesh, after, *good), std::nullopt);
  const auto bad = run_on(s, reversed);
  ASSERT_TRUE(bad.ok()) << bad.error().to_string();
  const auto m = compare(s.mesh, after, *bad);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->device, 0);
  EXPECT_EQ(m->local_index, std::vector<int64_t>{0});
  EXPECT_EQ(m->expected, 0);
  EXPECT_EQ(m->actual, 2);
}

TEST(VerifyRunStep, GroupsOverTheWrongAxisAreCaughtByCompare) {
  const auto s = state_of("{x:2, y:2}", "f32[{x,y}8]");
  const auto after = type_of("f32[{x}8]", s.mesh);
  // Groups over x instead of y: a valid partition of the right size.
  const Step step{AllGather{0, {axis("y", 2)}}, DeviceGroups{{0, 2}, {1, 3}}, std::nullopt};
  const auto out = run_on(s, step);
  ASSERT_TRUE(out.ok()) << out.error().to_string();
  EXPECT_TRUE(compare(s.mesh, after, *out).has_value());
}

TEST(VerifyRunStep, WrongPermutePairsAreCaughtByCompare) {
  const auto s = state_of("{x:2, y:2}", "f32[{x}4, {y}4]");
  const auto to = type_of("f32[{y}4, {x}4]", s.mesh);
  const Step identity{CollectivePermute{to, std::nullopt}, std::nullopt, DevicePairs{{0, 0}, {1, 1}, {2, 2}, {3, 3}}};
  const auto out = run_on(s, identity);
  ASSERT_TRUE(out.ok()) << out.error().to_string();
  EXPECT_TRUE(compare(s.mesh, to, *out).has_value());
  const Step swap{CollectivePermute{to, std::nullopt}, std::nullopt, DevicePairs{{0, 0}, {2, 1}, {1, 2}, {3, 3}}};
  const auto swapped = run_on(s, swap);
  ASSERT_TRUE(swapped.ok()) << swapped.error().to_string();
  EXPECT_EQ(compare(s.mesh, to, *swapped), std::nullopt);
}

TEST(VerifyRunStep, ErrorsNameTheStep) {
  const auto s = state_of("{x:2, y:2}", "f32[{x,y}8]");
  const auto out = run_on(s, {AllGather{0, {axis("y", 2)}}, DeviceGroups{{0, 0}, {2, 3}}, std::nullopt});
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.error().message.rfind("all_gather: ", 0), 0u) << out.error().message;
}

}  // namespace
}  // namespace redist::testing
