// Determinism of reductions on the MPI runtime (issue: every replica of an all-reduced
// value bitwise identical): f32 summands of magnitudes 1e-3 to 1e7 whose sum depends on
// the order of the additions (checked), reduced by the synthesized plan of
// f32[256] sum{dp,tp} -> f32[256] on {dp:2, tp:4} (one all_reduce over the flattened
// group), and every rank's result compared bit for bit with rank 0's.

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "harness.hpp"
#include "redist/backends/mpi/runtime.hpp"
#include "redist/synth/synthesize.hpp"

namespace redist::mpi::testing {
namespace {

constexpr int kElements = 256;

/// Summand of element `i` on rank `r`: mixed signs and magnitudes.
float summand(int r, int i) {
  const float scale = std::pow(10.0f, static_cast<float>((r * 3 + i) % 11 - 3));
  return scale * (static_cast<float>((r * 7 + i * 13) % 17) - 8.0f + 0.37f * static_cast<float>(r));
}

TEST(MpiDeterminism, AllReducedReplicasAreBitwiseIdentical) {
  if (world_size() != 8) GTEST_SKIP() << "needs 8 ranks";
  const Mesh mesh = parse_mesh("{dp:2, tp:4}").value();
  auto plan = synthesize(mesh, parse_type("f32[256] sum{dp,tp}", mesh).value(), parse_type("f32[256]", mesh).value());
  ASSERT_TRUE(plan.ok()) << plan.error().to_string();
  ASSERT_EQ(plan->steps.size(), 1u);
  ASSERT_TRUE(std::holds_alternative<AllReduce>(plan->steps[0].op));

  // The data does not sum associatively: two orders give different f32 sums.
  int order_dependent = 0;
  for (int i = 0; i < kElements; ++i) {
    float up = 0, down = 0;
    for (int r = 0; r < 8; ++r) up += summand(r, i);
    for (int r = 7; r >= 0; --r) down += summand(r, i);
    order_dependent += up != down;
  }
  EXPECT_GT(order_dependent, kElements / 8);

  auto executor = Executor::create(*plan, MPI_COMM_WORLD, native_format(ElemType::f32));
  ASSERT_TRUE(executor.ok()) << executor.error().to_string();
  std::vector<float> mine(kElements);
  for (int i = 0; i < kElements; ++i) mine[static_cast<std::size_t>(i)] = summand(world_rank(), i);
  auto out = executor->run(copy_to_buffer(mine.data(), mine.size() * sizeof(float)));
  ASSERT_TRUE(out.ok()) << out.error().to_string();
  ASSERT_EQ(out->size(), kElements * sizeof(float));
  std::vector<float> all(static_cast<std::size_t>(8 * kElements));
  MPI_Allgather(out->data(), kElements, MPI_FLOAT, all.data(), kElements, MPI_FLOAT, MPI_COMM_WORLD);
  for (int r = 1; r < 8; ++r)
    EXPECT_EQ(std::memcmp(all.data(), all.data() + r * kElements, kElements * sizeof(float)), 0)
        << "rank " << r << " differs from rank 0";
  // And the value is a sum of the summands (within f32 rounding of 8 terms).
  for (int i = 0; i < kElements; ++i) {
    double exact = 0, magnitude = 0;
    for (int r = 0; r < 8; ++r) exact += summand(r, i), magnitude += std::fabs(summand(r, i));
    EXPECT_NEAR(all[static_cast<std::size_t>(i)], exact, 8 * magnitude * 6e-8) << "element " << i;
  }
}

}  // namespace
}  // namespace redist::mpi::testing
