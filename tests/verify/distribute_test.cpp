// distribute and element_value on hand cases, and the coverage property: every global
// element is held by exactly replication_factor devices.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "helpers.hpp"
#include "redist/core/bigint.hpp"
#include "redist/verify/interpreter.hpp"
#include "tests/support/generators.hpp"

namespace redist::testing {
namespace {

constexpr int64_t U = kSummandUnit;

/// distribute() of `type_text` on the mesh `mesh_text`.
MeshData distributed(std::string_view mesh_text, std::string_view type_text) {
  const auto s = state_of(mesh_text, type_text);
  return distribute(s.mesh, s.type);
}

TEST(VerifyDistribute, ElementValueIsRowMajorIndex) {
  const auto s = state_of("{x:2}", "f32[3, 4]");
  const int64_t index[] = {1, 2};
  EXPECT_EQ(element_value(s.type, index), 6);
}

TEST(VerifyDistribute, OneAxisSplitsInHalves) {
  EXPECT_EQ(distributed("{x:2}", "f32[{x}4]"), (MeshData{{{2}, {0, 1}}, {{2}, {2, 3}}}));
}

TEST(VerifyDistribute, PaddingAtTheEndOfTheLastShard) {
  EXPECT_EQ(distributed("{x:2}", "f32[{x}5]"), (MeshData{{{3}, {0, 1, 2}}, {{3}, {3, 4, kPadding}}}));
}

TEST(VerifyDistribute, TwoTiledDims) {
  // local [2, 1]; device (x, y) holds rows 2x, 2x+1 of column y.
  EXPECT_EQ(distributed("{x:2, y:2}", "f32[{x}4, {y}2]"),
            (MeshData{{{2, 1}, {0, 2}}, {{2, 1}, {1, 3}}, {{2, 1}, {4, 6}}, {{2, 1}, {5, 7}}}));
}

TEST(VerifyDistribute, ReplicatedAxisRepeatsShards) {
  EXPECT_EQ(distributed("{x:2, y:2}", "f32[{y}4]"),
            (MeshData{{{2}, {0, 1}}, {{2}, {2, 3}}, {{2}, {0, 1}}, {{2}, {2, 3}}}));
}

TEST(VerifyDistribute, MajorAxisFirstInTheDim) {
  // block = y * 2 + x
  EXPECT_EQ(distributed("{x:2, y:2}", "f32[{y,x}4]"),
            (MeshData{{{1}, {0}}, {{1}, {2}}, {{1}, {1}}, {{1}, {3}}}));
}

TEST(VerifyDistribute, ExplicitDeviceOrder) {
  // device 1 sits at mesh position 0.
  EXPECT_EQ(distributed("{x:2} devices=[1, 0]", "f32[{x}4]"), (MeshData{{{2}, {2, 3}}, {{2}, {0, 1}}}));
}

TEST(VerifyDistribute, SubAxisUsesItsFactorOfTheCoordinate) {
  // x:(2)2 is the minor factor of x: coordinate x % 2.
  EXPECT_EQ(distributed("{x:4}", "f32[{x:(2)2}4]"),
            (MeshData{{{2}, {0, 1}}, {{2}, {2, 3}}, {{2}, {0, 1}}, {{2}, {2, 3}}}));
}

TEST(VerifyDistribute, SumSplitsIntoSummands) {
  EXPECT_EQ(distributed("{x:2, y:2}", "f32[{x}4] sum{y}"),
            (MeshData{{{2}, {0 - U, 1 - U}}, {{2}, {U, U}}, {{2}, {2 - U, 3 - U}}, {{2}, {U, U}}}));
  EXPECT_EQ(distributed("{y:3}", "f32[2] sum{y}"),
            (MeshData{{{2}, {0 - 3 * U, 1 - 3 * U}}, {{2}, {U, U}}, {{2}, {2 * U, 2 * U}}}));
}

TEST(VerifyDistribute, MaxAndMinKeepTheValueAtPositionZero) {
  EXPECT_EQ(distributed("{x:3}", "f32[2] max{x}"),
            (MeshData{{{2}, {0, 1}}, {{2}, {0 - U, 1 - U}}, {{2}, {0 - 2 * U, 1 - 2 * U}}}));
  EXPECT_EQ(distributed("{x:2}", "f32[2] min{x}"), (MeshData{{{2}, {0, 1}}, {{2}, {U, 1 + U}}}));
}

TEST(VerifyDistribute, PaddingIsNotSplit) {
  EXPECT_EQ(distributed("{x:2, y:2}", "f32[{x}3] sum{y}"),
            (MeshData{{{2}, {0 - U, 1 - U}}, {{2}, {U, U}}, {{2}, {2 - U, kPadding}}, {{2}, {U, kPadding}}}));
}

RC_GTEST_PROP(VerifyDistribute, ShardsCoverEveryElementReplicationFactorTimes, ()) {
  const Mesh mesh = *gen_mesh();
  const DistType type = *gen_type(mesh, {.divisible = false});
  RC_LOG() << to_string(mesh) << " | " << to_string(type) << "\n";
  const auto total = global_elements(type).convert_to<int64_t>();
  const auto local = local_elements(type).convert_to<int64_t>();
  RC_PRE(mesh.num_devices() * local <= int64_t{1} << 17);
  const MeshData data = distribute(mesh, type);
  RC_ASSERT(static_cast<int64_t>(data.size()) == mesh.num_devices());
  std::vector<int64_t> held(static_cast<std::size_t>(total), 0);
  int64_t padding = 0;
  for (const auto& buffer : data) {
    RC_ASSERT(buffer.shape == local_shape(type));
    RC_ASSERT(static_cast<int64_t>(buffer.values.size()) == local);
    for (int64_t v : buffer.values) {
      if (v == kPadding) {
        ++padding;
        continue;
      }
      RC_ASSERT(v >= 0 && v < total);
      ++held[static_cast<std::size_t>(v)];
    }
  }
  const int64_t factor = replication_factor(type, mesh);
  for (int64_t count : held) RC_ASSERT(count == factor);
  RC_ASSERT(padding == mesh.num_devices() * local - factor * total);
}

}  // namespace
}  // namespace redist::testing
