#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>

#include "redist/core/semantics.hpp"
#include "tests/support/generators.hpp"

namespace redist {
namespace {

TEST(Semantics, BlocksAreMixedRadixMajorFirst) {
  auto mesh = parse_mesh("{x:4, y:2}").value();
  auto t = parse_type("f32[{x,y}16, 8]", mesh).value();
  // Device at x=2, y=1 holds block 2*2+1 = 5 of dim 0: global rows 10..11.
  auto box = shard_box(mesh, t, Coords{2, 1});
  EXPECT_EQ(box, (std::vector<DimBox>{{10, 2, 0}, {0, 8, 0}}));
  auto t2 = parse_type("f32[{y,x}16, 8]", mesh).value();
  EXPECT_EQ(shard_box(mesh, t2, Coords{2, 1})[0], (DimBox{12, 2, 0}));  // block 1*4+2 = 6
}

TEST(Semantics, LocalToGlobalAndPadding) {
  auto mesh = parse_mesh("{x:2, y:2}").value();
  auto t = parse_type("f32[{x,y}5, 3]", mesh).value();  // local 2: blocks 0..3 cover 0-1, 2-3, 4+pad, pad
  EXPECT_EQ(local_to_global(mesh, t, Coords{1, 0}, std::vector<int64_t>{0, 2}), (std::vector<int64_t>{4, 2}));
  EXPECT_FALSE(local_to_global(mesh, t, Coords{1, 0}, std::vector<int64_t>{1, 0}).has_value());
  EXPECT_FALSE(local_to_global(mesh, t, Coords{1, 1}, std::vector<int64_t>{0, 0}).has_value());
  EXPECT_EQ(shard_box(mesh, t, Coords{1, 0})[0], (DimBox{4, 1, 1}));
  EXPECT_EQ(shard_box(mesh, t, Coords{1, 1})[0], (DimBox{5, 0, 2}));
}

TEST(Semantics, SubAxisCoordinates) {
  auto mesh = parse_mesh("{x:8}").value();
  const AxisRef major{"x", 1, 2, true}, middle{"x", 2, 2, true}, minor{"x", 4, 2, true};
  const Coords c{6};  // 6 = 0b110
  EXPECT_EQ(axis_coordinate(mesh, c, major), 1);
  EXPECT_EQ(axis_coordinate(mesh, c, middle), 1);
  EXPECT_EQ(axis_coordinate(mesh, c, minor), 0);
  Coords d = c;
  set_axis_coordinate(mesh, d, middle, 0);
  EXPECT_EQ(d, Coords{4});
  set_axis_coordinate(mesh, d, minor, 1);
  EXPECT_EQ(d, Coords{5});
}

TEST(Semantics, ReplicationGroupUsesPhysicalDevices) {
  auto mesh = parse_mesh("{x:2, y:2} devices=[3,2,1,0]").value();
  auto t = parse_type("f32[{x}8]", mesh).value();
  // Position (0, *) holds block 0: positions 0 and 1 are devices 3 and 2.
  EXPECT_EQ(replication_group(mesh, t, Coords{0, 1}), (std::vector<int64_t>{2, 3}));
  auto partial = parse_type("f32[{x}8] sum{y}", mesh).value();
  EXPECT_EQ(replication_group(mesh, partial, Coords{0, 1}), (std::vector<int64_t>{2}));
}

TEST(Semantics, GroupOrderIsMixedRadixWithFirstAxisMajor) {
  auto mesh = parse_mesh("{x:2, y:2, z:2}").value();
  const std::vector<AxisRef> zx{{"z", 1, 2, false}, {"x", 1, 2, false}};
  // Fix y = 1; members ordered z major, x minor: (x,z) = (0,0), (1,0), (0,1), (1,1).
  EXPECT_EQ(group_positions(mesh, Coords{1, 1, 0}, zx), (std::vector<int64_t>{2, 6, 3, 7}));
}

RC_GTEST_PROP(Semantics, ShardsCoverEveryElementReplicationFactorTimes, ()) {
  const Mesh mesh = *testing::gen_mesh({.max_axes = 3, .max_axis_size = 4, .max_devices = 32});
  const DistType type = *testing::gen_type(mesh, {.max_rank = 3, .divisible = false, .reductions = true});
  std::map<std::vector<int64_t>, int64_t> count;
  for (int64_t p = 0; p < mesh.num_devices(); ++p) {
    const Coords coords = mesh.coords_of_position(p);
    const auto local = local_shape(type);
    std::vector<int64_t> l(type.rank(), 0);
    int64_t total = 1;
    for (auto s : local) total *= s;
    for (int64_t flat = 0; flat < total; ++flat) {
      int64_t rest = flat;
      for (std::size_t i = type.rank(); i-- > 0;) {
        l[i] = rest % local[i];
        rest /= local[i];
      }
      if (auto g = local_to_global(mesh, type, coords, l)) ++count[*g];
    }
  }
  int64_t elements = 1;
  for (const auto& d : type.dims) elements *= d.global;
  RC_ASSERT(static_cast<int64_t>(count.size()) == elements);
  // Devices that differ in reduction coordinates hold distinct summands of each element.
  const int64_t holders = replication_factor(type, mesh) * product_of_sizes(type.reduce_axes);
  for (const auto& [g, n] : count) RC_ASSERT(n == holders);
}

RC_GTEST_PROP(Semantics, ReplicationGroupHoldsIdenticalBoxes, ()) {
  const Mesh mesh = *testing::gen_mesh({.max_axes = 3, .max_axis_size = 4, .max_devices = 32});
  const DistType type = *testing::gen_type(mesh, {.divisible = false, .reductions = true});
  const int64_t p = *rc::gen::inRange<int64_t>(0, mesh.num_devices());
  const Coords coords = mesh.coords_of_position(p);
  const auto group = replication_group(mesh, type, coords);
  RC_ASSERT(static_cast<int64_t>(group.size()) == replication_factor(type, mesh));
  for (int64_t d : group) RC_ASSERT(shard_box(mesh, type, mesh.coords_of_device(d)) == shard_box(mesh, type, coords));
}

RC_GTEST_PROP(Semantics, GroupMembersDifferOnlyOnGroupAxes, ()) {
  const Mesh mesh = *testing::gen_mesh();
  const DistType type = *testing::gen_type(mesh);
  const auto axes = type.dims[0].axes;
  const Coords coords = mesh.coords_of_position(*rc::gen::inRange<int64_t>(0, mesh.num_devices()));
  const auto members = group_positions(mesh, coords, axes);
  RC_ASSERT(static_cast<int64_t>(members.size()) == product_of_sizes(axes));
  for (std::size_t i = 0; i < members.size(); ++i) {
    const Coords m = mesh.coords_of_position(members[i]);
    RC_ASSERT(mixed_radix_index(mesh, m, axes) == static_cast<int64_t>(i));
    for (std::size_t d = 1; d < type.rank(); ++d)
      RC_ASSERT(block_index(mesh, m, type.dims[d]) == block_index(mesh, coords, type.dims[d]));
  }
}

}  // namespace
}  // namespace redist
