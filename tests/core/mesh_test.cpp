#include <gtest/gtest.h>

#include "redist/core/mesh.hpp"

namespace redist {
namespace {

TEST(Mesh, ParsesAxesInDeclaredOrder) {
  auto mesh = parse_mesh("{x:4, y:2}");
  ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
  ASSERT_EQ(mesh->rank(), 2u);
  EXPECT_EQ(mesh->axes()[0], (MeshAxis{"x", 4}));
  EXPECT_EQ(mesh->axes()[1], (MeshAxis{"y", 2}));
  EXPECT_EQ(mesh->num_devices(), 8);
  EXPECT_FALSE(mesh->has_explicit_order());
  EXPECT_EQ(to_string(*mesh), "{x:4, y:2}");
}

TEST(Mesh, RowMajorCoordinatesLastAxisFastest) {
  auto mesh = parse_mesh("{x:4, y:2}").value();
  EXPECT_EQ(mesh.coords_of_position(0), (Coords{0, 0}));
  EXPECT_EQ(mesh.coords_of_position(1), (Coords{0, 1}));
  EXPECT_EQ(mesh.coords_of_position(5), (Coords{2, 1}));
  for (int64_t p = 0; p < 8; ++p) EXPECT_EQ(mesh.position_of_coords(mesh.coords_of_position(p)), p);
}

TEST(Mesh, ExplicitDeviceOrderMapsPositionsToDevices) {
  auto mesh = parse_mesh("{x:2, y:2} devices=[3,2,1,0]").value();
  EXPECT_TRUE(mesh.has_explicit_order());
  EXPECT_EQ(mesh.device_at(0), 3);
  EXPECT_EQ(mesh.device_at(3), 0);
  EXPECT_EQ(mesh.position_of(2), 1);
  EXPECT_EQ(mesh.coords_of_device(3), (Coords{0, 0}));
  EXPECT_EQ(mesh.device_at_coords(Coords{1, 0}), 1);
  EXPECT_EQ(to_string(mesh), "{x:2, y:2} devices=[3,2,1,0]");
}

TEST(Mesh, IdentityDeviceOrderIsTheDefault) {
  auto mesh = parse_mesh("{x:2, y:2} devices=[0, 1, 2, 3]").value();
  EXPECT_FALSE(mesh.has_explicit_order());
  EXPECT_EQ(mesh, parse_mesh("{x:2, y:2}").value());
}

TEST(Mesh, EmptyMeshHasOneDevice) {
  auto mesh = parse_mesh("{}").value();
  EXPECT_EQ(mesh.rank(), 0u);
  EXPECT_EQ(mesh.num_devices(), 1);
  EXPECT_EQ(to_string(mesh), "{}");
}

TEST(Mesh, DefaultMeshIsTheEmptyOne) {
  const Mesh mesh;
  EXPECT_EQ(mesh.rank(), 0u);
  EXPECT_EQ(mesh.num_devices(), 1);
  EXPECT_TRUE(mesh.compact());
  EXPECT_EQ(mesh, parse_mesh("{}").value());
}

TEST(Mesh, CopiesAndMovedFromMeshesStayWhole) {
  // Copies share one representation; a moved-from mesh is still the same mesh.
  auto a = parse_mesh("{x:2, y:2} devices=[3,2,1,0]").value();
  Mesh b = a;
  EXPECT_EQ(b, a);
  Mesh c = std::move(a);
  EXPECT_EQ(c, b);
  EXPECT_EQ(to_string(a), "{x:2, y:2} devices=[3,2,1,0]");  // NOLINT(bugprone-use-after-move)
  EXPECT_EQ(a.position_of(3), 0);
  Mesh d;
  d = std::move(c);
  EXPECT_EQ(d.device_at(0), 3);
  EXPECT_EQ(c.num_devices(), 4);  // NOLINT(bugprone-use-after-move)
  // Equal meshes built apart compare equal.
  EXPECT_EQ(parse_mesh("{x:2, y:2} devices=[3,2,1,0]").value(), b);
  EXPECT_FALSE(parse_mesh("{x:2, y:2}").value() == b);
}

TEST(Mesh, SameAxesIgnoresDeviceOrder) {
  auto a = parse_mesh("{x:2, y:2}").value();
  auto b = parse_mesh("{x:2, y:2} devices=[0,2,1,3]").value();
  EXPECT_TRUE(a.same_axes(b));
  EXPECT_FALSE(a == b);
  EXPECT_FALSE(a.same_axes(parse_mesh("{y:2, x:2}").value()));
}

TEST(Mesh, LargeMeshesCountDevicesExactly) {
  auto mesh = parse_mesh("{a:16, b:16, c:16, d:16}").value();
  EXPECT_EQ(mesh.num_devices(), 65536);
  EXPECT_EQ(mesh.coords_of_position(65535), (Coords{15, 15, 15, 15}));
}

TEST(Mesh, CreateRejectsBadValues) {
  EXPECT_FALSE(Mesh::create({{"x", 0}}).ok());
  EXPECT_FALSE(Mesh::create({{"x", 2}, {"x", 2}}).ok());
  EXPECT_FALSE(Mesh::create({{"1x", 2}}).ok());
  EXPECT_FALSE(Mesh::create({{"x", 2}}, {0, 0}).ok());
  EXPECT_FALSE(Mesh::create({{"x", 2}}, {0, 1, 2}).ok());
  EXPECT_TRUE(Mesh::create({{"x", 2}}, {1, 0}).ok());
}

}  // namespace
}  // namespace redist
