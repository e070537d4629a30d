// free_axes and axes_minus (core/include/redist/core/dist_type.hpp).

#include <gtest/gtest.h>

#include "redist/core/dist_type.hpp"

namespace redist {
namespace {

Mesh mesh_of(const char* text) { return *parse_mesh(text); }

DistType type_of(const char* text, const Mesh& mesh) {
  auto t = parse_type(text, mesh);
  EXPECT_TRUE(t.ok()) << text;
  return *t;
}

TEST(FreeAxes, GapsOfPartlyUsedAxesAreFree) {
  const Mesh mesh = mesh_of("{x:8, y:4, z:2}");
  const auto free = free_axes(mesh, type_of("f32[{x:(2)2}16, {y:(1)2}8]", mesh));
  ASSERT_EQ(free.size(), 4u);
  EXPECT_EQ(free[0], make_axis_ref("x", 1, 2, 8));
  EXPECT_EQ(free[1], make_axis_ref("x", 4, 2, 8));
  EXPECT_EQ(free[2], make_axis_ref("y", 2, 2, 4));
  EXPECT_EQ(free[3], make_axis_ref("z", 1, 2, 2));
}

TEST(FreeAxes, ReductionAxesAreUsed) {
  const Mesh mesh = mesh_of("{x:2, y:4}");
  const auto free = free_axes(mesh, type_of("f32[{y:(2)2}8] sum{x}", mesh));
  ASSERT_EQ(free.size(), 1u);
  EXPECT_EQ(free[0], make_axis_ref("y", 1, 2, 4));
  EXPECT_TRUE(free_axes(mesh, type_of("f32[{x,y}8]", mesh)).empty());
}

TEST(AxesMinus, DropsEqualReferencesOnly) {
  const AxisRef x = make_axis_ref("x", 1, 4, 4), y_major = make_axis_ref("y", 1, 2, 4), z = make_axis_ref("z", 1, 2, 2);
  EXPECT_EQ(axes_minus({x, y_major, z}, {z, x}), std::vector<AxisRef>{y_major});
  EXPECT_EQ(axes_minus({y_major}, {make_axis_ref("y", 1, 4, 4)}), std::vector<AxisRef>{y_major});
  EXPECT_TRUE(axes_minus({}, {x}).empty());
}

}  // namespace
}  // namespace redist
