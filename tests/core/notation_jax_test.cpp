// JAX Mesh and PartitionSpec in and out: the reprs jax 0.10.2 prints, checked against
// the HloSharding jax compiles each NamedSharding to, refusals, random round trips.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "redist/core/notation/notation.hpp"
#include "tests/core/notation_testing.hpp"
#include "tests/support/generators.hpp"
#include "tests/support/refusals.hpp"

namespace redist {
namespace {

using notation::ArrayShape;
using notation::from_partition_spec;
using notation::parse_jax_mesh;
using notation::to_partition_spec;
using testing::mesh_of;
using testing::type_of;

// repr(mesh), repr(spec), and NamedSharding(mesh, spec)._to_xla_hlo_sharding(ndim) as
// printed by jax 0.10.2 on 8 host devices.
struct JaxCase {
  const char* mesh;
  const char* spec;
  std::size_t ndim;
  const char* hlo;
};
const JaxCase kCases[] = {
    {"Mesh(axis_sizes=(8,), axis_names=('x',), axis_types=(Auto,))", "P('x',)", 2, "{devices=[8,1]<=[8]}"},
    {"Mesh(axis_sizes=(8,), axis_names=('x',), axis_types=(Auto,))", "P(None,)", 2, "{replicated}"},
    {"Mesh(axis_sizes=(8,), axis_names=('x',), axis_types=(Auto,))", "P()", 2, "{replicated}"},
    {"Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'), axis_types=(Auto, Auto))", "P('y', 'x')", 2,
     "{devices=[4,2]<=[2,4]T(1,0)}"},
    {"Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'), axis_types=(Auto, Auto))", "P(None, 'y')", 2,
     "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"},
    {"Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'), axis_types=(Auto, Auto))", "P(('y', 'x'),)", 2,
     "{devices=[8,1]<=[2,4]T(1,0)}"},
    {"Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'), axis_types=(Auto, Auto))", "P(None, ('y', 'x'))", 2,
     "{devices=[1,8]<=[2,4]T(1,0)}"},
    {"Mesh(axis_sizes=(2, 2, 2), axis_names=('x', 'y', 'z'), axis_types=(Auto, Auto, Auto))", "P('x', ('y', 'z'))",
     3, "{devices=[2,4,1]<=[8]}"},
    {"Mesh(axis_sizes=(2, 2, 2), axis_names=('x', 'y', 'z'), axis_types=(Auto, Auto, Auto))", "P(('z', 'x'), 'y')",
     3, "{devices=[4,2,1]<=[4,2]T(1,0)}"},
    {"Mesh(axis_sizes=(2, 2, 2), axis_names=('x', 'y', 'z'), axis_types=(Auto, Auto, Auto))", "P(None, 'y', None)",
     3, "{devices=[1,2,1,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}"},
    {"Mesh(axis_sizes=(4, 2), axis_names=('a', 'b'), axis_types=(Auto, Auto))", "P('b', None, 'a')", 3,
     "{devices=[2,1,4]<=[4,2]T(1,0)}"},
    {"Mesh(axis_sizes=(4, 2), axis_names=('a', 'b'), axis_types=(Auto, Auto))", "P('a',)", 3,
     "{devices=[4,1,1,2]<=[8] last_tile_dim_replicate}"},
};

TEST(NotationJax, SpecsMeanWhatJaxCompilesThemTo) {
  for (const auto& c : kCases) {
    auto mesh = parse_jax_mesh(c.mesh);
    ASSERT_TRUE(mesh.ok()) << c.mesh << ": " << mesh.error().to_string();
    const ArrayShape shape{ElemType::f32, std::vector<int64_t>(c.ndim, 16)};
    auto type = from_partition_spec(c.spec, shape, *mesh);
    ASSERT_TRUE(type.ok()) << c.spec << ": " << type.error().to_string();
    auto hlo = notation::to_hlo_sharding(*type, *mesh);
    ASSERT_TRUE(hlo.ok()) << hlo.error().to_string();
    EXPECT_EQ(*hlo, c.hlo) << c.mesh << " " << c.spec;
  }
}

TEST(NotationJax, ReadsSpellings) {
  auto mesh = parse_jax_mesh("Mesh('x': 2, 'y': 2, 'z': 2)");
  ASSERT_TRUE(mesh.ok()) << mesh.error().to_string();
  EXPECT_EQ(to_string(*mesh), "{x:2, y:2, z:2}");
  auto typed = parse_jax_mesh("Mesh('x': 2, 'y': 2, 'z': 2, axis_types=(Explicit, Explicit, Auto))");
  ASSERT_TRUE(typed.ok()) << typed.error().to_string();
  EXPECT_EQ(*typed, *mesh);
  auto dict = parse_jax_mesh("{'x': 2, 'y': 2, 'z': 2}");
  ASSERT_TRUE(dict.ok());
  EXPECT_EQ(*dict, *mesh);
  auto ordered = parse_jax_mesh("Mesh(axis_sizes=(2, 2), axis_names=('x', 'y'), device_ids=[3, 2, 1, 0])");
  ASSERT_TRUE(ordered.ok());
  EXPECT_EQ(to_string(*ordered), "{x:2, y:2} devices=[3,2,1,0]");
  EXPECT_EQ(notation::to_jax_mesh(*ordered), "Mesh(axis_sizes=(2, 2), axis_names=('x', 'y'), device_ids=[3, 2, 1, 0])");
  EXPECT_EQ(notation::to_jax_mesh(mesh_of("{x:8}")), "Mesh(axis_sizes=(8,), axis_names=('x',))");

  const ArrayShape shape{ElemType::bf16, {8, 4, 6}};
  struct Case {
    const char* spec;
    const char* type;
  };
  const Case cases[] = {
      {"P('x', None, ('y', 'z'))", "bf16[{x}8, 4, {y,z}6]"},
      {"PartitionSpec(\"x\")", "bf16[{x}8, 4, 6]"},
      {"P(None, ('z',), unreduced={'x', 'y'})", "bf16[8, {z}4, 6] sum{x,y}"},
      {"P(('y', 'x'), reduced={'z'})", "bf16[{y,x}8, 4, 6]"},
      {"P(unreduced=set())", "bf16[8, 4, 6]"},
      {"P(None, (), 'x',)", "bf16[8, 4, {x}6]"},
  };
  for (const auto& c : cases) {
    auto t = from_partition_spec(c.spec, shape, *mesh);
    ASSERT_TRUE(t.ok()) << c.spec << ": " << t.error().to_string();
    EXPECT_EQ(to_string(*t), c.type) << c.spec;
  }
}

TEST(NotationJax, WritesSpecs) {
  const Mesh mesh = mesh_of("{x:2, y:2, z:2}");
  auto p = to_partition_spec(type_of("f32[{x}8, 4, {z,y}6]", mesh), mesh);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(*p, "P('x', None, ('z', 'y'))");
  p = to_partition_spec(type_of("f32[{x}8] sum{z,y}", mesh), mesh);
  ASSERT_TRUE(p.ok());
  EXPECT_EQ(*p, "P('x', unreduced={'y', 'z'})");
  const Mesh m4 = mesh_of("{x:4}");
  p = to_partition_spec(type_of("f32[{x:(1)2}8]", m4), m4);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("sub-axis x:(1)2"), std::string::npos);
  p = to_partition_spec(type_of("f32[8] max{x}", m4), m4);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("pending max"), std::string::npos);
}

TEST(NotationJax, RefusesWithReasonAndPosition) {
  const Mesh mesh = mesh_of("{x:2, y:4}");
  const ArrayShape shape{ElemType::f32, {8, 8}};
  const testing::Refusal bad[] = {
      {"P('x', 'y', None)", 12, "more entries than the array's rank 2"},
      {"P('q')", 2, "has no axis 'q'"},
      {"P('x', 'x')", 0, ""},
      {"P(P.UNCONSTRAINED)", 2, "UNCONSTRAINED"},
      {"P('x'", 5, "expected ')'"},
      {"P(x)", 2, "in quotes"},
      {"P(unreduced={'x'}, 'y')", 19, "after a keyword"},
      {"Q('x')", 0, "expected 'P('"},
      {"P('x') extra", 7, "unexpected text"},
      {"P('x, None)", 2, "unterminated"},
  };
  testing::expect_refusals(bad, [&](const char* text) { return from_partition_spec(text, shape, mesh); });
  EXPECT_FALSE(parse_jax_mesh("Mesh(axis_sizes=(2, 4), axis_names=('x',))").ok());
  EXPECT_FALSE(parse_jax_mesh("Mesh(axis_sizes=(2, 4))").ok());
  EXPECT_FALSE(parse_jax_mesh("Mesh('x': 0)").ok());
  EXPECT_FALSE(parse_jax_mesh("Mesh('x': 2, 'x': 2)").ok());
}

RC_GTEST_PROP(NotationJax, RoundTripsRandomTypes, ()) {
  const Mesh mesh = *testing::gen_mesh();
  testing::TypeOptions topt;
  topt.divisible = *rc::gen::arbitrary<bool>();
  topt.reductions = true;
  topt.sub_axes = false;
  const DistType type = *testing::gen_type(mesh, topt);
  auto text = to_partition_spec(type, mesh);
  RC_ASSERT(text.ok());
  auto jm = parse_jax_mesh(notation::to_jax_mesh(mesh));
  RC_ASSERT(jm.ok());
  RC_ASSERT(*jm == mesh);
  auto back = from_partition_spec(*text, notation::shape_of(type), *jm);
  RC_ASSERT(back.ok());
  RC_ASSERT(canonical(*back, mesh) == canonical(type, mesh));
}

}  // namespace
}  // namespace redist

namespace redist {
namespace {

// The one entry point per direction reads `<shape> <sharding>` and writes it back.
TEST(NotationDispatch, ReadsShapeThenShardingWithPositionsInTheWholeText) {
  const Mesh mesh = testing::mesh_of("{x:2, y:4}");
  auto r = notation::read_type(notation::Notation::jax, "bf16[8,4] P('y', 'x')", &mesh);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(to_string(r->type), "bf16[{y}8, {x}4]");
  auto w = notation::write_type(notation::Notation::jax, r->type, mesh);
  ASSERT_TRUE(w.ok());
  EXPECT_EQ(*w, "bf16[8,4] P('y', 'x')");
  r = notation::read_type(notation::Notation::jax, "f32[8] P('q')", &mesh);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().position, 9u);
  // XLA's layout after the dims is accepted; hlo needs no mesh.
  r = notation::read_type(notation::Notation::hlo, "f32[8,4]{1,0} {devices=[2,1]<=[2]}", nullptr);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(to_string(r->mesh), "{a:2}");
  EXPECT_EQ(to_string(r->type), "f32[{a}8, 4]");
  r = notation::read_type(notation::Notation::sdy, "tensor<8x4xf32> [{\"x\"}, {}]", nullptr);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("needs a mesh"), std::string::npos);
  r = notation::read_type(notation::Notation::dtensor, "f32[8,4 [Shard(0), Replicate()]", &mesh);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().position, 8u);
  auto n = notation::parse_notation("xla");
  ASSERT_FALSE(n.ok());
  EXPECT_EQ(notation::notation_name(*notation::parse_notation("dtensor")), "dtensor");
  for (auto k : {notation::Notation::redist, notation::Notation::hlo, notation::Notation::sdy, notation::Notation::jax,
                 notation::Notation::dtensor}) {
    auto m = notation::read_mesh(k, notation::write_mesh(k, mesh));
    ASSERT_TRUE(m.ok()) << notation::notation_name(k) << ": " << m.error().to_string();
    EXPECT_EQ(*m, mesh);
  }
}

}  // namespace
}  // namespace redist
