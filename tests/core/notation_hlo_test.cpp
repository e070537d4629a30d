// XLA HloSharding in and out: the strings JAX 0.10.2 prints for NamedShardings, XLA's
// own spellings, refusals with reasons, and random round trips.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "redist/core/notation/notation.hpp"
#include "tests/core/notation_testing.hpp"
#include "tests/support/generators.hpp"
#include "tests/support/refusals.hpp"

namespace redist {
namespace {

using notation::ArrayShape;
using notation::from_hlo_sharding;
using notation::HloShardingOptions;
using notation::to_hlo_sharding;
using testing::mesh_of;
using testing::type_of;

ArrayShape shape(std::vector<int64_t> dims) { return {ElemType::f32, std::move(dims)}; }

// Printed by jax 0.10.2: NamedSharding(Mesh(devices.reshape(sizes), names),
// spec)._to_xla_hlo_sharding(ndim) with XLA_FLAGS=--xla_force_host_platform_device_count=8.
struct JaxCase {
  const char* mesh;
  const char* type;  // what the PartitionSpec means, in redist's notation
  const char* hlo;
};
const JaxCase kJaxCases[] = {
    {"{x:8}", "f32[{x}16, 4]", "{devices=[8,1]<=[8]}"},
    {"{x:8}", "f32[16, 4]", "{replicated}"},
    {"{x:2, y:4}", "f32[{x}16, {y}16]", "{devices=[2,4]<=[8]}"},
    {"{x:2, y:4}", "f32[{y}16, {x}16]", "{devices=[4,2]<=[2,4]T(1,0)}"},
    {"{x:2, y:4}", "f32[16, {y}16]", "{devices=[1,4,2]<=[2,4]T(1,0) last_tile_dim_replicate}"},
    {"{x:2, y:4}", "f32[{x}16, 16]", "{devices=[2,1,4]<=[8] last_tile_dim_replicate}"},
    {"{x:2, y:4}", "f32[{y}16, 16]", "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}"},
    {"{x:2, y:4}", "f32[{x,y}16, 16]", "{devices=[8,1]<=[8]}"},
    {"{x:2, y:4}", "f32[{y,x}16, 16]", "{devices=[8,1]<=[2,4]T(1,0)}"},
    {"{x:2, y:4}", "f32[16, {y,x}16]", "{devices=[1,8]<=[2,4]T(1,0)}"},
    {"{x:2, y:2, z:2}", "f32[{x}8, {y,z}8, 8]", "{devices=[2,4,1]<=[8]}"},
    {"{x:2, y:2, z:2}", "f32[{z,x}8, {y}8, 8]", "{devices=[4,2,1]<=[4,2]T(1,0)}"},
    {"{x:2, y:2, z:2}", "f32[{z}8, 8, 8]", "{devices=[2,1,1,4]<=[4,2]T(1,0) last_tile_dim_replicate}"},
    {"{x:2, y:2, z:2}", "f32[8, {y}8, 8]", "{devices=[1,2,1,4]<=[2,2,2]T(1,0,2) last_tile_dim_replicate}"},
    {"{x:2, y:2, z:2}", "f32[{z,x}8, 8, 8]", "{devices=[4,1,1,2]<=[4,2]T(1,0) last_tile_dim_replicate}"},
    {"{a:4, b:2}", "f32[{b}8, 8, {a}8]", "{devices=[2,1,4]<=[4,2]T(1,0)}"},
    {"{a:4, b:2}", "f32[{b,a}8, 8, 8]", "{devices=[8,1,1]<=[4,2]T(1,0)}"},
    {"{a:4, b:2}", "f32[{a}8, 8, 8]", "{devices=[4,1,1,2]<=[8] last_tile_dim_replicate}"},
};

// HloSharding device ids are XLA's logical ids (indices into the device assignment, which
// jax makes the mesh's devices.flat), so jax prints the iota forms above whatever
// physical devices a mesh holds. redist reads the ids as its device ids: a mesh with an
// explicit order is written as an explicit device list.
TEST(NotationHlo, WritesExplicitListsForExplicitOrders) {
  struct Case {
    const char* mesh;
    const char* type;
    const char* hlo;
  };
  const Case cases[] = {
      {"{x:2, y:4} devices=[0,2,4,6,1,3,5,7]", "f32[{x}8, {y}8]", "{devices=[2,4]0,2,4,6,1,3,5,7}"},
      {"{x:2, y:4} devices=[7,6,5,4,3,2,1,0]", "f32[{x}8, 8]", "{devices=[2,1,4]7,6,5,4,3,2,1,0 last_tile_dim_replicate}"},
      {"{x:2, y:2} devices=[3,2,1,0]", "f32[{y}8, 8]", "{devices=[2,1,2]3,1,2,0 last_tile_dim_replicate}"},
  };
  for (const auto& c : cases) {
    const Mesh mesh = mesh_of(c.mesh);
    const DistType type = type_of(c.type, mesh);
    auto got = to_hlo_sharding(type, mesh);
    ASSERT_TRUE(got.ok()) << got.error().to_string();
    EXPECT_EQ(*got, c.hlo);
    HloShardingOptions opt;
    opt.mesh = &mesh;
    auto back = from_hlo_sharding(c.hlo, notation::shape_of(type), opt);
    ASSERT_TRUE(back.ok()) << back.error().to_string();
    EXPECT_EQ(back->type, canonical(type, mesh));
  }
}

TEST(NotationHlo, ReadsWhatJaxPrintsOnItsMesh) {
  for (const auto& c : kJaxCases) {
    const Mesh mesh = mesh_of(c.mesh);
    const DistType want = type_of(c.type, mesh);
    HloShardingOptions opt;
    opt.mesh = &mesh;
    auto got = from_hlo_sharding(c.hlo, notation::shape_of(want), opt);
    ASSERT_TRUE(got.ok()) << c.hlo << ": " << got.error().to_string();
    EXPECT_EQ(to_string(got->type), to_string(canonical(want, mesh))) << c.hlo;
    EXPECT_EQ(got->mesh, mesh);
  }
}

TEST(NotationHlo, WritesWhatJaxPrints) {
  for (const auto& c : kJaxCases) {
    const Mesh mesh = mesh_of(c.mesh);
    auto got = to_hlo_sharding(type_of(c.type, mesh), mesh);
    ASSERT_TRUE(got.ok()) << c.type << ": " << got.error().to_string();
    EXPECT_EQ(*got, c.hlo) << c.mesh << " " << c.type;
  }
}

TEST(NotationHlo, InventsMeshAxesFromTheIotaReshape) {
  auto r = from_hlo_sharding("{devices=[2,1,4]<=[4,2]T(1,0)}", shape({8, 3, 8}));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(to_string(r->mesh), "{a:4, b:2}");
  EXPECT_EQ(to_string(r->type), "f32[{b}8, 3, {a}8]");

  // A reshape dim that tile dims cut becomes one axis per piece.
  r = from_hlo_sharding("{devices=[4,2,1]<=[4,2]T(1,0)}", shape({8, 8, 8}));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(to_string(r->mesh), "{a:2, b:2, c:2}");
  EXPECT_EQ(to_string(r->type), "f32[{c,a}8, {b}8, 8]");

  r = from_hlo_sharding("{devices=[2,1,4]<=[8] last_tile_dim_replicate}", shape({16, 16}));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(to_string(r->mesh), "{a:2, b:4}");
  EXPECT_EQ(to_string(r->type), "f32[{a}16, 16]");

  r = from_hlo_sharding("{devices=[4,2]<=[8]}", shape({16, 16}));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(to_string(r->mesh), "{a:4, b:2}");
  EXPECT_EQ(to_string(r->type), "f32[{a}16, {b}16]");

  HloShardingOptions named;
  named.axis_names = {"data", "model"};
  r = from_hlo_sharding("{devices=[4,2]<=[2,4]T(1,0)}", shape({8, 8}), named);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(to_string(r->mesh), "{data:2, model:4}");
  EXPECT_EQ(to_string(r->type), "f32[{model}8, {data}8]");
  named.axis_names = {"data"};
  r = from_hlo_sharding("{devices=[4,2]<=[2,4]T(1,0)}", shape({8, 8}), named);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("2 axes but 1 names"), std::string::npos);
}

TEST(NotationHlo, SplitsSubAxesIntoMeshAxes) {
  const Mesh mesh = mesh_of("{x:4, y:6} devices=[23,22,21,20,19,18,17,16,15,14,13,12,11,10,9,8,7,6,5,4,3,2,1,0]");
  const DistType a = type_of("f32[{y:(1)2,x:(2)2}8, {x:(1)2}6] sum{y:(2)3}", mesh);
  const DistType b = type_of("f32[{x}8, {y}6]", mesh);
  auto split = notation::split_sub_axes(mesh, {a, b});
  ASSERT_TRUE(split.ok()) << split.error().to_string();
  EXPECT_EQ(to_string(split->mesh), "{a:2, b:2, c:2, d:3} devices=[23,22,21,20,19,18,17,16,15,14,13,12,11,10,9,8,7,6,"
                                    "5,4,3,2,1,0]");
  EXPECT_EQ(to_string(split->types[0]), "f32[{c,b}8, {a}6] sum{d}");
  EXPECT_EQ(to_string(split->types[1]), "f32[{a,b}8, {c,d}6]");
  DistType plain = a;
  plain.reduce_axes.clear();
  DistType split_plain = split->types[0];
  split_plain.reduce_axes.clear();
  EXPECT_TRUE(testing::same_placement(mesh, plain, split->mesh, split_plain));
  EXPECT_TRUE(testing::same_placement(mesh, b, split->mesh, split->types[1]));
}

TEST(NotationHlo, ExplicitDeviceListsBecomeADeviceOrder) {
  auto r = from_hlo_sharding("{devices=[2,2]0,2,1,3}", shape({4, 6}));
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(to_string(r->mesh), "{a:2, b:2} devices=[0,2,1,3]");
  EXPECT_EQ(to_string(r->type), "f32[{a}4, {b}6]");
  // The same list expressed on a row-major mesh: it is a transposed iota.
  const Mesh mesh = mesh_of("{x:2, y:2}");
  HloShardingOptions opt;
  opt.mesh = &mesh;
  r = from_hlo_sharding("{devices=[2,2]0,2,1,3}", shape({4, 6}), opt);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(to_string(r->type), "f32[{y}4, {x}6]");
  // last_tile_dims={replicated} is last_tile_dim_replicate.
  r = from_hlo_sharding("{devices=[2,1,2]0,1,2,3 last_tile_dims={replicated}}", shape({4, 6}), opt);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(to_string(r->type), "f32[{x}4, 6]");
  // Non-divisible dims keep XLA's padded layout, which is redist's.
  r = from_hlo_sharding("{devices=[4,1]<=[4]}", shape({5, 6}), opt);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(to_string(r->type), "f32[{x,y}5, 6]");
  // An invented mesh takes XLA's logical ids, which are 0..N-1.
  r = from_hlo_sharding("{devices=[2,2]4,5,6,7}", shape({4, 6}));
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("not a permutation of 0..3"), std::string::npos) << r.error().message;
  EXPECT_EQ(r.error().position, 14u);
  // A given mesh over other device ids: tiles name its ids; an id it lacks is refused.
  const Mesh other = mesh_of("{x:2, y:2} devices=[7,6,5,4]");
  opt.mesh = &other;
  r = from_hlo_sharding("{devices=[2,2]7,6,5,4}", shape({4, 6}), opt);
  ASSERT_TRUE(r.ok()) << r.error().to_string();
  EXPECT_EQ(to_string(r->type), "f32[{x}4, {y}6]");
  r = from_hlo_sharding("{devices=[2,2]0,1,2,3}", shape({4, 6}), opt);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("device id 0 is not a device of the mesh"), std::string::npos)
      << r.error().message;
}

TEST(NotationHlo, RefusesWithReasonAndPosition) {
  const Mesh mesh = mesh_of("{x:4}");
  HloShardingOptions opt;
  opt.mesh = &mesh;
  const testing::Refusal bad[] = {
      {"{maximal device=3}", 1, "maximal sharding puts the whole array on one device"},
      {"{manual}", 1, "manual sharding"},
      {"{{replicated}, {replicated}}", 1, "tuple sharding"},
      {"{devices=[2,2]<=[4] last_tile_dims={manual}}", 36, "manual subgroup"},
      {"{devices=[4,1]<=[4]", 19, "expected 'last_tile_dim_replicate'"},
      {"{devices=[4]<=[4]}", 9, "tile assignment has 1 dims but the array has rank 2"},
      {"{devices=[4,1]<=[2,3]}", 14, "iota reshape has 6 devices but the tile dims have 4"},
      {"{devices=[4,1]<=[2,2]T(0,0)}", 22, "permutation"},
      {"{devices=[4,1]0,1,2}", 14, "device list has 3 ids"},
      {"{devices=[4,1]0,3,1,2}", 14, "no redist type on this mesh"},
      {"{devices=[4,1]0,1,2,2}", 14, "appears twice"},
      {"{devices=[4,1]0,1,2,9}", 14, "out of range"},
      {"{devices=[4,1]4,5,6,7}", 14, "device id 4 is out of range"},
      {"{devices=[0,1]<=[4]}", 10, "must be >= 1"},
      {"{devices=[4,1]<=[4]} x", 21, "unexpected text"},
      {"devices=[4,1]<=[4]", 0, "expected '{'"},
      {"{devices=[4,1]<=[4] shard_as 1}", 20, "expected 'last_tile_dim_replicate'"},
  };
  testing::expect_refusals(bad, [&](const char* text) { return from_hlo_sharding(text, shape({8, 8}), opt); });
  // Writing refuses pending reductions.
  const Mesh m2 = mesh_of("{x:2, y:2}");
  auto w = to_hlo_sharding(type_of("f32[{x}4] sum{y}", m2), m2);
  ASSERT_FALSE(w.ok());
  EXPECT_NE(w.error().message.find("no pending reduction"), std::string::npos);
}

// redist type -> HloSharding -> redist type, on the same mesh and on an invented one.
RC_GTEST_PROP(NotationHlo, RoundTripsRandomTypes, ()) {
  const Mesh mesh = *testing::gen_mesh({.max_axes = 4, .max_axis_size = 8, .max_devices = 256});
  testing::TypeOptions topt;
  topt.divisible = *rc::gen::arbitrary<bool>();
  const DistType type = *testing::gen_type(mesh, topt);
  RC_TAG(mesh.has_explicit_order());
  auto text = to_hlo_sharding(type, mesh);
  RC_LOG() << to_string(mesh) << " " << to_string(type) << " -> " << (text.ok() ? *text : text.error().to_string())
           << "\n";
  RC_ASSERT(text.ok());
  HloShardingOptions opt;
  opt.mesh = &mesh;
  auto back = from_hlo_sharding(*text, notation::shape_of(type), opt);
  RC_ASSERT(back.ok());
  RC_ASSERT(to_string(back->type) == to_string(canonical(type, mesh)));
  auto invented = from_hlo_sharding(*text, notation::shape_of(type));
  RC_ASSERT(invented.ok());
  RC_LOG() << "invented " << to_string(invented->mesh) << " " << to_string(invented->type) << "\n";
  if (*text == "{replicated}") {
    // No device count in the text: the invented mesh is one device.
    RC_ASSERT(invented->mesh.num_devices() == 1);
    return;
  }
  RC_ASSERT(testing::same_placement(mesh, type, invented->mesh, invented->type));
  // Writing the invented pair gives the same placement again.
  auto again = to_hlo_sharding(invented->type, invented->mesh);
  RC_ASSERT(again.ok());
}

}  // namespace
}  // namespace redist
