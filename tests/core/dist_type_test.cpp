// free_axes, axes_minus and canonical (core/include/redist/core/dist_type.hpp).

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

TEST(Canonical, IsCanonicalExactlyWhenCanonicalChangesNothing) {
  const Mesh mesh = mesh_of("{x:4, y:2, z:2}");
  struct Case {
    const char* type;
    bool canonical;
  };
  const Case cases[] = {
      {"f32[{x:(1)2,x:(2)2}8, 4]", false},  // one axis in two neighbouring parts
      {"f32[{x}8, 4]", true},
      {"f32[{x:(2)2,x:(1)2}8, 4]", true},  // the parts in the other order tile differently
      {"f32[{x:(1)2,y,x:(2)2}8]", true},
      {"f32[8] sum{z,y}", false},  // reductions out of mesh order
      {"f32[8] sum{y,z}", true},
      {"f32[{y}8] sum{x:(2)2,x:(1)2}", false},
  };
  for (const auto& c : cases) {
    const DistType t = type_of(c.type, mesh);
    EXPECT_EQ(is_canonical(t, mesh), c.canonical) << c.type;
    EXPECT_EQ(is_canonical(t, mesh), canonical(t, mesh) == t) << c.type;
    EXPECT_TRUE(is_canonical(canonical(t, mesh), mesh)) << c.type;
  }
}

TEST(AxesMinus, DropsEqualReferencesOnly) {
  const AxisRef x = make_axis_ref("x", 1, 4, 4), y_major = make_axis_ref("y", 1, 2, 4), z = make_axis_ref("z", 1, 2, 2);
  EXPECT_EQ(axes_minus({x, y_major, z}, {z, x}), std::vector<AxisRef>{y_major});
  EXPECT_EQ(axes_minus({y_major}, {make_axis_ref("y", 1, 4, 4)}), std::vector<AxisRef>{y_major});
  EXPECT_TRUE(axes_minus({}, {x}).empty());
}

}  // namespace
}  // namespace redist
