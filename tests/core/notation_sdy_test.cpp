// Shardy sdy meshes and shardings in and out: spellings, refusals, random round trips
// (Shardy's own test shardings are read in notation_sdy_data_test.cpp).

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "redist/core/notation/notation.hpp"
#include "tests/core/notation_testing.hpp"
#include "tests/support/generators.hpp"
#include "tests/support/refusals.hpp"

namespace redist {
namespace {

using notation::ArrayShape;
using notation::from_sdy_sharding;
using notation::parse_sdy_mesh;
using notation::to_sdy_sharding;
using testing::mesh_of;
using testing::type_of;

TEST(NotationSdy, ReadsMeshes) {
  auto m = parse_sdy_mesh("sdy.mesh @mesh = <[\"x\"=4, \"y\"=2]>");
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(m->name, "mesh");
  EXPECT_EQ(to_string(m->mesh), "{x:4, y:2}");
  m = parse_sdy_mesh("<[\"x\"=2, \"y\"=2], device_ids=[3, 2, 1, 0]>");
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(to_string(m->mesh), "{x:2, y:2} devices=[3,2,1,0]");
  m = parse_sdy_mesh("#sdy.mesh<[\"a\"=8], device_ids=[0, 1, 2, 3, 4, 5, 6, 7]>");
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(to_string(m->mesh), "{a:8}");
  m = parse_sdy_mesh("<[]>");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->mesh.num_devices(), 1);
  EXPECT_EQ(notation::to_sdy_mesh(mesh_of("{x:2, y:2} devices=[3,1,2,0]"), "m"),
            "sdy.mesh @m = <[\"x\"=2, \"y\"=2], device_ids=[3, 1, 2, 0]>");
}

TEST(NotationSdy, MapsSpellingsToTypes) {
  struct Case {
    const char* mesh;
    const char* shape;
    const char* sdy;
    const char* type;
  };
  const Case cases[] = {
      {"{x:2, y:2}", "16x8xf32", "[{\"x\", ?}, {\"y\", ?}]", "f32[{x}16, {y}8]"},
      {"{x:4, y:2, z:4}", "16x8x8xf32", "[{\"x\", \"z\":(2)2}, {}, {\"y\"}]", "f32[{x,z:(2)2}16, 8, {y}8]"},
      {"{x:2, y:2, z:2, w:4}", "tensor<16x8xf32>", "[{\"y\", \"w\":(1)2, \"z\", \"w\":(2)2}, {}]",
       "f32[{y,w:(1)2,z,w:(2)2}16, 8]"},
      {"{x:4, y:6}", "12x12xbf16", "#sdy.sharding<@mesh, [{\"x\"}, {\"y\":(1)2}]>", "bf16[{x}12, {y:(1)2}12]"},
      {"{x:2, y:2, z:2}", "f32[8,8]", "#sdy.sharding<@m, [{\"x\"}p0, {?}p1], replicated={\"y\"}, unreduced={\"z\"}>",
       "f32[{x}8, 8] sum{z}"},
      {"{x:2, y:2}", "f32[8]", "#sdy.sharding<#sdy.mesh<[\"x\"=2, \"y\"=2]>, [{\"y\", \"x\"}]>", "f32[{y,x}8]"},
  };
  for (const auto& c : cases) {
    const Mesh mesh = mesh_of(c.mesh);
    auto shape = notation::parse_array_shape(c.shape);
    ASSERT_TRUE(shape.ok()) << c.shape << ": " << shape.error().to_string();
    auto t = from_sdy_sharding(c.sdy, *shape, mesh);
    ASSERT_TRUE(t.ok()) << c.sdy << ": " << t.error().to_string();
    EXPECT_EQ(to_string(*t), c.type) << c.sdy;
  }
  const Mesh mesh = mesh_of("{x:2, y:2, z:2}");
  auto w = to_sdy_sharding(type_of("f32[{y,x}8, 8] sum{z}", mesh), mesh, "m");
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(*w, "#sdy.sharding<@m, [{\"y\", \"x\"}, {}], unreduced={\"z\"}>");
}

TEST(NotationSdy, RefusesWithReasonAndPosition) {
  const Mesh mesh = mesh_of("{x:4, y:2}");
  const ArrayShape shape{ElemType::f32, {8, 8}};
  const testing::Refusal bad[] = {
      {"[{\"x\"}]", 0, "the sharding has 1 dims but the array has rank 2"},
      {"[{\"q\"}, {}]", 2, "has no axis 'q'"},
      {"[{\"x\":(1)3}, {}]", 2, ""},
      {"[{\"x\"}, {\"x\"}]", 0, ""},
      {"[{\"x\"}, {}], replicated={\"x\"}", 0, ""},
      {"[{\"x\" {}]", 6, "expected '}'"},
      {"#sdy.sharding<@m, [{\"x\"}, {}]", 29, "expected '>'"},
      {"[{\"x\"}, {}], unreduced={\"y\"}, bogus={}", 30, "expected 'replicated=' or 'unreduced='"},
      {"<#sdy.mesh<[\"x\"=8]>, [{\"x\"}, {}]>", 1, "is not the mesh"},
  };
  testing::expect_refusals(bad, [&](const char* text) { return from_sdy_sharding(text, shape, mesh); });
  auto m = parse_sdy_mesh("<[], device_ids=[3]>");
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("maximal mesh"), std::string::npos);
  m = parse_sdy_mesh("<[\"x.y\"=2]>");
  ASSERT_FALSE(m.ok());
  EXPECT_EQ(m.error().position, 2u);
  m = parse_sdy_mesh("<[\"x\"=2], device_ids=[0, 0]>");
  ASSERT_FALSE(m.ok());
  m = parse_sdy_mesh("<[\"x\"=2], device_ids=[4, 5]>");  // Shardy's ids are a permutation of 0..N-1
  ASSERT_FALSE(m.ok());
  EXPECT_NE(m.error().message.find("not a permutation of 0..1"), std::string::npos) << m.error().message;
  const Mesh m2 = mesh_of("{x:2}");
  auto w = to_sdy_sharding(type_of("f32[4] max{x}", m2), m2);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().message.find("pending max"), std::string::npos);
}

RC_GTEST_PROP(NotationSdy, RoundTripsRandomTypes, ()) {
  const Mesh mesh = *testing::gen_mesh();
  testing::TypeOptions topt;
  topt.divisible = *rc::gen::arbitrary<bool>();
  topt.reductions = true;
  const DistType type = *testing::gen_type(mesh, topt);
  auto text = to_sdy_sharding(type, mesh);
  RC_ASSERT(text.ok());
  auto sm = parse_sdy_mesh(notation::to_sdy_mesh(mesh));
  RC_ASSERT(sm.ok());
  RC_ASSERT(sm->mesh == mesh);
  auto back = from_sdy_sharding(*text, notation::shape_of(type), sm->mesh);
  RC_ASSERT(back.ok());
  RC_ASSERT(canonical(*back, mesh) == canonical(type, mesh));
}

}  // namespace
}  // namespace redist
