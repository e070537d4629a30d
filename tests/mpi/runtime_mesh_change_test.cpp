// The MPI runtime on the reshards between meshes with other axes of
// tests/data/mesh_changes.txt whose meshes have as many devices as the job has ranks:
// the plan (on the common refinement, docs/meshes.md) runs over the ranks, every
// element on every rank compared.

#include <gtest/gtest.h>

#include "anchors.hpp"
#include "harness.hpp"

namespace redist::mpi::testing {
namespace {

TEST(MpiRuntimeMeshChanges, EveryCaseOfThisSize) {
  auto cases = read_anchors(REDIST_MESH_CHANGES_FILE);
  ASSERT_TRUE(cases.ok()) << cases.error().to_string();
  int ran = 0;
  for (const auto& c : *cases) {
    if (c.mesh.num_devices() != world_size()) continue;
    SCOPED_TRACE(c.name);
    auto plan = anchor_plan(c);
    ASSERT_TRUE(plan.ok()) << plan.error().to_string();
    EXPECT_EQ(run_and_compare(*plan), "");
    ++ran;
  }
  if (world_rank() == 0) std::printf("ran %d mesh-change cases on %d ranks\n", ran, world_size());
  if (world_size() == 8 || world_size() == 6) EXPECT_GT(ran, 0);
}

}  // namespace
}  // namespace redist::mpi::testing
