// The MPI runtime on hand-written plans: each step kind on outer, middle and inner dims,
// permutes that change device order or are not bijections, reductions, explicit
// lowerings (a wrong group order must give wrong data), native element formats (and
// add_pending's native identities) and errors. Each test runs in a job of the size its mesh needs and is skipped otherwise.

#include <gtest/gtest.h>

#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "harness.hpp"
#include "redist/backends/mpi/runtime.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/verify/interpreter.hpp"

namespace redist::mpi::testing {
namespace {

#define REQUIRE_RANKS(n) \
  if (world_size() != (n)) GTEST_SKIP() << "needs " << (n) << " ranks"

/// The plan of `text`, which must parse.
Plan plan_of(const std::string& text) {
  auto plan = parse_plan(text);
  EXPECT_TRUE(plan.ok()) << plan.error().to_string() << "\n" << text;
  return plan.ok() ? *plan : Plan{};
}

/// Expects the runtime to reproduce the reference semantics for the plan of `text`.
void expect_exact(const std::string& text) {
  const Plan plan = plan_of(text);
  EXPECT_EQ(run_and_compare(plan), "") << text;
}

TEST(MpiRuntime8, AllToAllOuterDims) {
  REQUIRE_RANKS(8);
  expect_exact("mesh {x:4, y:2}\nsource f32[{x}16, {y}8]\nall_to_all(src=0, dst=1, axes={x})\n");
  expect_exact("mesh {x:4, y:2}\nsource f32[{x}16, {y}8]\nall_to_all(src=1, dst=0, axes={y})\n");
}

TEST(MpiRuntime8, AllToAllInnerDimsBothWays) {
  REQUIRE_RANKS(8);
  expect_exact("mesh {x:2, y:2, z:2}\nsource s64[3, {x}4, 8, {z}2]\nall_to_all(src=1, dst=2, axes={x})\n");
  expect_exact("mesh {x:2, y:2, z:2}\nsource s64[3, 4, {x,y}8, 2]\nall_to_all(src=2, dst=1, axes={y})\n");
  expect_exact("mesh {x:2, y:2, z:2}\nsource s64[6, {z}4, {x}8, {y}2]\nall_to_all(src=2, dst=0, axes={x})\n");
}

TEST(MpiRuntime8, AllToAllOverSubAxis) {
  REQUIRE_RANKS(8);
  expect_exact("mesh {x:4, y:2}\nsource f32[{x}16, {y}8]\nall_to_all(src=0, dst=1, axes={x:(2)2})\n");
}

TEST(MpiRuntime8, FusedAllToAllsAreOneExchange) {
  REQUIRE_RANKS(8);
  // Two source dims into one, independent pairs of dims, one source dim into two (on a
  // reversed device order), three moves: one MPI_Alltoall over the combined group each.
  expect_exact("mesh {x:2, y:4}\nsource f32[{x}4, {y}8, 16]\nall_to_all(src=0, dst=2, axes={x}; src=1, dst=2, axes={y})\n");
  expect_exact("mesh {x:2, y:2, z:2}\nsource s64[{x}4, 6, {y,z}8, 2]\n"
               "all_to_all(src=0, dst=1, axes={x}; src=2, dst=3, axes={z})\n");
  expect_exact("mesh {x:4, y:2} devices=[7,6,5,4,3,2,1,0]\nsource f32[{x,y}16, 4, 6]\n"
               "all_to_all(src=0, dst=1, axes={y}; src=0, dst=2, axes={x:(2)2})\n");
  expect_exact("mesh {x:2, y:2, z:2}\nsource s64[{x}4, {y}2, {z}6, 8]\n"
               "all_to_all(src=0, dst=3, axes={x}; src=1, dst=3, axes={y}; src=2, dst=3, axes={z})\n");
  expect_exact("mesh {x:2, y:2, z:2}\nsource s64[8, {x}4, {y}2, {z}6]\n"
               "all_to_all(src=1, dst=0, axes={x}; src=2, dst=0, axes={y}; src=3, dst=0, axes={z})\n");
}

TEST(MpiRuntime8, StepsOverSizeOneAxesMoveNothing) {
  REQUIRE_RANKS(8);
  // As synthesize() puts size-1 axes back into a plan (size_one_axes.hpp): gathered and
  // sliced alone (groups of one rank), riding along in an exchange, re-spelt by a
  // permute whose pairs keep every buffer in place.
  expect_exact("mesh {data:8, model:1}\nsource f32[{data}16, {model}32]\nall_gather(dim=1, axes={model})\n"
               "all_to_all(src=0, dst=1, axes={data})\nall_slice(dim=0, axes={model})\n");
  expect_exact("mesh {x:4, y:2, v:1, u:1}\nsource f32[{x,v}16, {u,y}8]\nall_to_all(src=0, dst=1, axes={x,v})\n"
               "collective_permute(to=f32[{u}16, {v,y,x}8])\n");
}

TEST(MpiRuntime8, FusedAllGathersAreOneCollective) {
  REQUIRE_RANKS(8);
  // Two dims, the minor part first, a suffix on a reversed device order, three parts,
  // factors of one axis: one MPI_Allgather over the combined group each.
  expect_exact("mesh {x:2, y:4}\nsource f32[{x}4, 6, {y}8]\nall_gather(dim=0, axes={x}; dim=2, axes={y})\n");
  expect_exact("mesh {x:2, y:4}\nsource s64[{x}4, 6, {y}8]\nall_gather(dim=2, axes={y}; dim=0, axes={x})\n");
  expect_exact("mesh {x:2, y:2, z:2} devices=[7,6,5,4,3,2,1,0]\nsource f32[{x}4, {z,y}8, 6]\n"
               "all_gather(dim=1, axes={y}; dim=0, axes={x})\n");
  expect_exact("mesh {x:2, y:2, z:2}\nsource s64[{x}4, {y}2, {z}6, 8]\n"
               "all_gather(dim=2, axes={z}; dim=0, axes={x}; dim=1, axes={y})\n");
  expect_exact("mesh {x:4, y:2}\nsource s64[{x:(1)2}4, {y,x:(2)2}8]\n"
               "all_gather(dim=1, axes={x:(2)2}; dim=0, axes={x:(1)2})\n");
}

TEST(MpiRuntime8, AFusedAllGatherWithAWrongMemberOrderGivesWrongData) {
  REQUIRE_RANKS(8);
  // The group over {x,y} of 4 members in y-major order: each part reads the other's digit.
  const Plan plan = plan_of("mesh {x:2, y:2, z:2}\nsource s64[{x}4, {y}4, 8]\n"
                            "all_gather(dim=0, axes={x}; dim=1, axes={y}, groups=[[0,4,2,6],[1,5,3,7]])\n");
  EXPECT_NE(run_and_compare(plan), "");
}

TEST(MpiRuntime8, AFusedAllToAllWithAWrongMemberOrderGivesWrongData) {
  REQUIRE_RANKS(8);
  // The group over {x,y} of 4 members in y-major order: each move reads the other's digit.
  const Plan plan = plan_of("mesh {x:2, y:2, z:2}\nsource s64[{x}4, {y}4, 8]\n"
                            "all_to_all(src=0, dst=2, axes={x}; src=1, dst=2, axes={y}, groups=[[0,4,2,6],[1,5,3,7]])\n");
  EXPECT_NE(run_and_compare(plan), "");
}

TEST(MpiRuntime8, AllGatherOnEveryDim) {
  REQUIRE_RANKS(8);
  expect_exact("mesh {x:4, y:2}\nsource f32[3, {x,y}16, 5]\nall_gather(dim=1, axes={y})\nall_gather(dim=1, axes={x})\n");
  expect_exact("mesh {x:4, y:2}\nsource f32[{y}4, 3, {x}8]\nall_gather(dim=2, axes={x})\nall_gather(dim=0, axes={y})\n");
}

TEST(MpiRuntime8, AllSliceOnEveryDim) {
  REQUIRE_RANKS(8);
  expect_exact("mesh {x:4, y:2}\nsource f32[3, 16, 5]\nall_slice(dim=1, axes={y, x})\n");
  expect_exact("mesh {x:4, y:2}\nsource f32[8, 3, 8]\nall_slice(dim=2, axes={x})\nall_slice(dim=0, axes={y})\n");
}

TEST(MpiRuntime8, PermuteReordersAxesAndDevices) {
  REQUIRE_RANKS(8);
  expect_exact("mesh {x:4, y:2}\nsource f32[{x,y}16, 4]\ncollective_permute(to=f32[{y,x}16, 4])\n");
  expect_exact("mesh {x:2, y:2, z:2}\nsource f32[{x}8, {y}4, 3]\n"
               "collective_permute(to=f32[{y}8, {x}4, 3], mesh={x:2, y:2, z:2} devices=[7,6,5,4,3,2,1,0])\n"
               "all_gather(dim=0, axes={y})\n");
}

TEST(MpiRuntime8, PermuteThatIsNotABijection) {
  REQUIRE_RANKS(8);
  // Replicated over y before, over x after: some devices send twice, some not at all.
  expect_exact("mesh {x:2, y:4}\nsource f32[{x}8, 4]\ncollective_permute(to=f32[{y:(1)2}8, 4])\n");
}

TEST(MpiRuntime8, ReductionsOnInnerDims) {
  REQUIRE_RANKS(8);
  expect_exact("mesh {x:2, y:2, z:2}\nsource f32[3, 8, 5] sum{x, y}\nreduce_scatter(dim=1, axes={x})\n"
               "all_reduce(axes={y})\n");
  expect_exact("mesh {x:2, y:2, z:2}\nsource f32[4, 6] max{z}\nall_reduce(axes={z})\n");
  expect_exact("mesh {x:2, y:2, z:2}\nsource f32[4, 6, 2] min{y, z}\nreduce_scatter(dim=2, axes={z})\n"
               "reduce_scatter(dim=0, axes={y})\n");
}

TEST(MpiRuntime8, OneReduceScatterThenGather) {
  REQUIRE_RANKS(8);
  expect_exact("mesh {a:2, b:2, c:2}\nsource f32[16, 16] sum{a, b, c}\nreduce_scatter(dim=0, axes={b, a, c})\n"
               "all_gather(dim=0, axes={a, c})\ntarget f32[{b}16, 16]\n");
}

TEST(MpiRuntime8, ExplicitLoweringIsWhatRuns) {
  REQUIRE_RANKS(8);
  const std::string source = "mesh {x:4, y:2}\nsource f32[{x,y}16, 4]\n";
  expect_exact(source + "all_gather(dim=0, axes={y}, groups=[[0,1],[2,3],[4,5],[6,7]])\n");
  // The same step with every group's members swapped concatenates in the wrong order.
  const std::string swapped = run_and_compare(plan_of(source + "all_gather(dim=0, axes={y}, groups=[[1,0],[3,2],[5,4],[7,6]])\n"));
  EXPECT_NE(swapped.find("mismatch"), std::string::npos) << swapped;
  // A permute along wrong pairs delivers wrong shards.
  const std::string pairs = run_and_compare(
      plan_of(source + "collective_permute(to=f32[{y,x}16, 4], pairs=[(0,0),(1,1),(2,2),(3,3),(4,4),(5,5),(6,6),(7,7)])\n"));
  EXPECT_NE(pairs.find("mismatch"), std::string::npos) << pairs;
}

TEST(MpiRuntime8, NativeFourByteElements) {
  REQUIRE_RANKS(8);
  const Plan plan = plan_of("mesh {x:4, y:2}\nsource s32[3, {x}16, {y}8]\nall_to_all(src=1, dst=2, axes={x})\n"
                            "all_gather(dim=2, axes={x})\n");
  auto executor = Executor::create(plan, MPI_COMM_WORLD, native_format(ElemType::s32));
  ASSERT_TRUE(executor.ok()) << executor.error().to_string();
  const auto data = distribute(plan.mesh, plan.source);
  const auto& mine = data[static_cast<std::size_t>(world_rank())].values;
  const std::vector<int32_t> narrow(mine.begin(), mine.end());
  auto out = executor->run(copy_to_buffer(narrow.data(), narrow.size() * sizeof(int32_t)));
  ASSERT_TRUE(out.ok()) << out.error().to_string();
  ASSERT_EQ(out->size(), executor->target_bytes());
  std::vector<int32_t> values(out->size() / sizeof(int32_t));
  std::memcpy(values.data(), out->data(), out->size());
  const auto expected = distribute(executor->target().mesh, executor->target().type)[static_cast<std::size_t>(world_rank())];
  EXPECT_EQ(std::vector<int64_t>(values.begin(), values.end()), expected.values);
}

TEST(MpiRuntime8, AddPendingFillsTheNativeIdentity) {
  // Replicate -> Partial on native f32 (max: -inf) and s32 (min: INT32_MAX): the rank at
  // y = 0 keeps its values, the other fills its buffer with the identity; then an
  // all_reduce over y gives the value back on every rank, every element compared.
  REQUIRE_RANKS(8);
  const int rank = world_rank();
  const bool keeps = rank % 2 == 0;  // {x:4, y:2}: y is the minor coordinate
  {
    const Plan plan = plan_of("mesh {x:4, y:2}\nsource f32[{x}8, 4]\nadd_pending(axes={y}, op=max)\n");
    auto executor = Executor::create(plan, MPI_COMM_WORLD, native_format(ElemType::f32));
    ASSERT_TRUE(executor.ok()) << executor.error().to_string();
    const MeshData data = distribute(plan.mesh, plan.source);
    const auto& mine = data[static_cast<std::size_t>(rank)].values;
    const std::vector<float> narrow(mine.begin(), mine.end());
    auto out = executor->run(copy_to_buffer(narrow.data(), narrow.size() * sizeof(float)));
    ASSERT_TRUE(out.ok()) << out.error().to_string();
    std::vector<float> values(out->size() / sizeof(float));
    std::memcpy(values.data(), out->data(), out->size());
    for (std::size_t i = 0; i < values.size(); ++i)
      EXPECT_EQ(values[i], keeps ? narrow[i] : -std::numeric_limits<float>::infinity()) << i;
  }
  {
    const Plan plan = plan_of("mesh {x:4, y:2}\nsource s32[{x}8, 4]\nadd_pending(axes={y}, op=min)\n"
                              "all_reduce(axes={y})\n");
    auto executor = Executor::create(plan, MPI_COMM_WORLD, native_format(ElemType::s32));
    ASSERT_TRUE(executor.ok()) << executor.error().to_string();
    const MeshData data = distribute(plan.mesh, plan.source);
    const auto& mine = data[static_cast<std::size_t>(rank)].values;
    const std::vector<int32_t> narrow(mine.begin(), mine.end());
    auto out = executor->run(copy_to_buffer(narrow.data(), narrow.size() * sizeof(int32_t)));
    ASSERT_TRUE(out.ok()) << out.error().to_string();
    std::vector<int32_t> values(out->size() / sizeof(int32_t));
    std::memcpy(values.data(), out->data(), out->size());
    EXPECT_EQ(values, narrow);  // min(value, INT32_MAX) on every rank
  }
  // bf16 has no MPI datatype to fill: refused like the reductions.
  const Plan bf16 = plan_of("mesh {x:4, y:2}\nsource bf16[8]\nadd_pending(axes={y}, op=sum)\n");
  auto refused = Executor::create(bf16, MPI_COMM_WORLD, native_format(ElemType::bf16));
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, Error::Kind::unsupported);
}

TEST(MpiRuntime8, WrongSourceSizeIsAnErrorOnEveryRank) {
  REQUIRE_RANKS(8);
  const Plan plan = plan_of("mesh {x:4, y:2}\nsource f32[{x}16, {y}8]\nall_gather(dim=0, axes={x})\n");
  auto executor = Executor::create(plan, MPI_COMM_WORLD, int64_format());
  ASSERT_TRUE(executor.ok()) << executor.error().to_string();
  const std::size_t size = executor->source_bytes() - (world_rank() == 3 ? 8 : 0);
  auto out = executor->run(kernels::Buffer(size));
  ASSERT_FALSE(out.ok());
  EXPECT_NE(out.error().message.find(world_rank() == 3 ? "expected" : "another rank"), std::string::npos)
      << out.error().message;
}

TEST(MpiRuntime8, RefusesPlansItCannotRun) {
  REQUIRE_RANKS(8);
  const Plan four = plan_of("mesh {a:2, b:2}\nsource f32[{a}8]\nall_gather(dim=0, axes={a})\n");
  auto wrong_size = Executor::create(four, MPI_COMM_WORLD, int64_format());
  ASSERT_FALSE(wrong_size.ok());
  EXPECT_NE(wrong_size.error().message.find("8 ranks but the mesh has 4 devices"), std::string::npos);

  const Plan bf16 = plan_of("mesh {x:8}\nsource bf16[16] sum{x}\nall_reduce(axes={x})\n");
  auto no_datatype = Executor::create(bf16, MPI_COMM_WORLD, native_format(ElemType::bf16));
  ASSERT_FALSE(no_datatype.ok());
  EXPECT_EQ(no_datatype.error().kind, Error::Kind::unsupported);

  Plan short_group = plan_of("mesh {x:4, y:2}\nsource f32[{x,y}16]\nall_gather(dim=0, axes={y}, groups=[[0,1],[2,3]])\n");
  auto uncovered = Executor::create(short_group, MPI_COMM_WORLD, int64_format());
  ASSERT_FALSE(uncovered.ok());
  EXPECT_NE(uncovered.error().message.find("is in no group"), std::string::npos) << uncovered.error().message;
}

TEST(MpiRuntime8, ExecutorRunsRepeatedly) {
  REQUIRE_RANKS(8);
  const Plan plan = plan_of("mesh {x:4, y:2}\nsource f32[{x}16, {y}8]\nall_to_all(src=0, dst=1, axes={x})\n"
                            "all_gather(dim=1, axes={x})\n");
  for (int i = 0; i < 3; ++i) EXPECT_EQ(run_and_compare(plan), "");
}

TEST(MpiRuntime6, ThreeWayGroups) {
  REQUIRE_RANKS(6);
  expect_exact("mesh {x:2, y:3}\nsource f32[{x}12, {y}6]\nall_to_all(src=1, dst=0, axes={y})\nall_gather(dim=0, axes={y})\n");
  expect_exact("mesh {x:2, y:3}\nsource f32[5, {y}12, 6]\nall_to_all(src=1, dst=2, axes={y})\n");
  expect_exact("mesh {x:2, y:3}\nsource f32[6, 4] sum{y}\nreduce_scatter(dim=0, axes={y})\nall_slice(dim=1, axes={x})\n");
  expect_exact("mesh {x:2, y:3}\nsource f32[{x}12, 12]\ncollective_permute(to=f32[{x}12, 12], mesh={x:2, y:3} devices=[5,4,3,2,1,0])\n");
}

// Gathers of padded dims: the concatenated padded chunks, their padded tail dropped
// (docs/notation.md, "Padded dims"); every real element compared.
TEST(MpiRuntime8, PaddedGathers) {
  REQUIRE_RANKS(8);
  expect_exact("mesh {x:8}\nsource f32[{x}5, 4]\nall_gather(dim=0, axes={x})\ntarget f32[5, 4]\n");  // empty shards
  expect_exact("mesh {x:8}\nsource f32[{x}50257, 4]\nall_gather(dim=0, axes={x})\ntarget f32[50257, 4]\n");
  expect_exact("mesh {x:4, y:2}\nsource s64[3, {x,y}13, 2]\nall_gather(dim=1, axes={y})\nall_gather(dim=1, axes={x})\n");
  expect_exact("mesh {x:2, y:4}\nsource f32[{x}3, {y}5, 7]\nall_gather(dim=1, axes={y})\n");
}

TEST(MpiRuntime6, PaddedGathers) {
  REQUIRE_RANKS(6);
  expect_exact("mesh {x:3, y:2}\nsource f32[{y}5, {x}7]\nall_gather(dim=1, axes={x})\ntarget f32[{y}5, 7]\n");
  expect_exact("mesh {x:3, y:2}\nsource f32[{x,y}50257]\nall_gather(dim=0, axes={x,y})\n");
}

TEST(MpiRuntime4, PaddedGathers) {
  REQUIRE_RANKS(4);
  // The anchor nested_uneven_gather, and a minor-axis gather whose chunks nest.
  expect_exact("mesh {x:2, y:2}\nsource f32[{x,y}5, 3]\nall_gather(dim=0, axes={x,y})\ntarget f32[5, 3]\n");
  expect_exact("mesh {x:2, y:2}\nsource f32[{x,y}7, 3]\nall_gather(dim=0, axes={y})\ntarget f32[{x}7, 3]\n");
}

TEST(MpiRuntime4, SmallMeshes) {
  REQUIRE_RANKS(4);
  expect_exact("mesh {a:2, b:2}\nsource f32[{a}16, {b}16]\nall_to_all(src=0, dst=1, axes={a})\n"
               "all_to_all(src=1, dst=0, axes={a})\n");
  expect_exact("mesh {a:2, b:2}\nsource f32[{a,b}16, 4]\nall_gather(dim=0, axes={b})\n");
  expect_exact("mesh {x:2, y:2}\nsource f32[{x}8, {y}8]\n"
               "collective_permute(to=f32[{x}8, {y}8], mesh={x:2, y:2} devices=[0,2,1,3])\n");
}

}  // namespace
}  // namespace redist::mpi::testing
