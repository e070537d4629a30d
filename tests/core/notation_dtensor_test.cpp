// PyTorch DTensor placements in and out: torch's reprs and short forms, mesh-dim order,
// _StridedShard and shard orders, torch.chunk against the padded layout, refusals,
// random round trips.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "redist/core/notation/notation.hpp"
#include "tests/core/notation_testing.hpp"
#include "tests/support/generators.hpp"
#include "tests/support/refusals.hpp"

namespace redist {
namespace {

using notation::ArrayShape;
using notation::from_placements;
using notation::parse_device_mesh;
using notation::to_placements;
using testing::mesh_of;
using testing::type_of;

TEST(NotationDtensor, ReadsDeviceMeshes) {
  auto m = parse_device_mesh("DeviceMesh('cpu', [[0, 1, 2, 3], [4, 5, 6, 7]], mesh_dim_names=('dp', 'tp'))");
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(to_string(*m), "{dp:2, tp:4}");
  m = parse_device_mesh("DeviceMesh('cuda', [[0, 2], [1, 3]])");
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(to_string(*m), "{dim0:2, dim1:2} devices=[0,2,1,3]");
  m = parse_device_mesh("init_device_mesh(\"cpu\", (2, 4), mesh_dim_names=(\"dp\", \"tp\"))");
  ASSERT_TRUE(m.ok()) << m.error().to_string();
  EXPECT_EQ(to_string(*m), "{dp:2, tp:4}");
  m = parse_device_mesh("{dp:2, tp:4}");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(notation::to_device_mesh(mesh_of("{dp:2, tp:2} devices=[3,2,1,0]")),
            "DeviceMesh('cpu', [[3, 2], [1, 0]], mesh_dim_names=('dp', 'tp'))");
  EXPECT_EQ(notation::to_device_mesh(mesh_of("{dp:2, tp:4}")),
            "init_device_mesh('cpu', (2, 4), mesh_dim_names=('dp', 'tp'))");
  EXPECT_EQ(*parse_device_mesh(notation::to_device_mesh(mesh_of("{dp:8}"))), mesh_of("{dp:8}"));
  EXPECT_FALSE(parse_device_mesh("DeviceMesh('cpu', [[0, 1], [2]])").ok());
  EXPECT_FALSE(parse_device_mesh("DeviceMesh('cpu', [[0, 1], [1, 2]])").ok());
  EXPECT_FALSE(parse_device_mesh("DeviceMesh('cpu', [0, 1], mesh_dim_names=('a', 'b'))").ok());
}

TEST(NotationDtensor, MapsPlacementsToTypes) {
  const Mesh mesh = mesh_of("{dp:2, tp:4}");
  const ArrayShape shape{ElemType::f32, {16, 8}};
  struct Case {
    const char* placements;
    const char* type;
  };
  const Case cases[] = {
      {"[Shard(0), Replicate()]", "f32[{dp}16, 8]"},
      {"(Shard(dim=1), Shard(dim=0))", "f32[{tp}16, {dp}8]"},
      {"[Shard(0), Shard(0)]", "f32[{dp,tp}16, 8]"},
      // torch's FSDP2 + TP example: tp shards first, so it is the major axis.
      {"[_StridedShard(dim=0, sf=4), Shard(dim=0)]", "f32[{tp,dp}16, 8]"},
      {"[_StridedShard(0, split_factor=4), Shard(0)]", "f32[{tp,dp}16, 8]"},
      {"[_S(0, 4), S(0)]", "f32[{tp,dp}16, 8]"},
      {"[Shard(0), Shard(0)] shard_order={0: [1, 0]}", "f32[{tp,dp}16, 8]"},
      {"[Partial(), Shard(1)]", "f32[16, {tp}8] sum{dp}"},
      {"[Partial(\"max\"), Partial(reduce_op='max')]", "f32[16, 8] max{dp,tp}"},
      {"[P(min), R]", "f32[16, 8] min{dp}"},
  };
  for (const auto& c : cases) {
    auto t = from_placements(c.placements, shape, mesh);
    ASSERT_TRUE(t.ok()) << c.placements << ": " << t.error().to_string();
    EXPECT_EQ(to_string(*t), c.type) << c.placements;
  }
}

TEST(NotationDtensor, WritesPlacements) {
  const Mesh mesh = mesh_of("{a:2, b:2, c:2}");
  struct Case {
    const char* type;
    const char* placements;
  };
  const Case cases[] = {
      {"f32[{a,b}8, {c}8]", "[Shard(dim=0), Shard(dim=0), Shard(dim=1)]"},
      {"f32[{b,a}8, 8]", "[_StridedShard(dim=0, sf=2), Shard(dim=0), Replicate()]"},
      {"f32[{c,b,a}8, 8]", "[_StridedShard(dim=0, sf=4), _StridedShard(dim=0, sf=2), Shard(dim=0)]"},
      {"f32[{b,a,c}8, 8]", "[_StridedShard(dim=0, sf=2), Shard(dim=0), Shard(dim=0)]"},
      {"f32[8, {b}8] max{a,c}", "[Partial(max), Shard(dim=1), Partial(max)]"},
  };
  for (const auto& c : cases) {
    const DistType type = type_of(c.type, mesh);
    auto p = to_placements(type, mesh);
    ASSERT_TRUE(p.ok()) << c.type << ": " << p.error().to_string();
    EXPECT_EQ(*p, c.placements) << c.type;
    auto back = from_placements(*p, notation::shape_of(type), mesh);
    ASSERT_TRUE(back.ok()) << *p << ": " << back.error().to_string();
    EXPECT_EQ(to_string(*back), c.type);
  }
}

TEST(NotationDtensor, ChecksTorchChunkAgainstThePaddedLayout) {
  const Mesh mesh = mesh_of("{dp:2, tp:2}");
  // One mesh dim: torch.chunk's ceil-sized chunks are the padded blocks.
  auto t = from_placements("[Shard(0), Replicate()]", {ElemType::f32, {5}}, mesh);
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(to_string(*t), "f32[{dp}5]");
  // 7 over 2 then 2: chunks 0-3 | 4-6, then 0-1 2-3 | 4-5 6: the flat blocks of size 2.
  t = from_placements("[Shard(0), Shard(0)]", {ElemType::f32, {7}}, mesh);
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  // 5 over 2 then 2: chunks 0-2 | 3-4, then 0-1 2 | 3 4; the flat blocks are 0-1 2-3 4 -.
  t = from_placements("[Shard(0), Shard(0)]", {ElemType::f32, {5}}, mesh);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message.find("torch.chunk"), std::string::npos);
  auto p = to_placements(type_of("f32[{dp,tp}5]", mesh), mesh);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("torch.chunk"), std::string::npos);
  p = to_placements(type_of("f32[{dp,tp}7]", mesh), mesh);
  ASSERT_TRUE(p.ok());
  // Too many blocks to compare (2^24) is refused quickly, not walked.
  const Mesh big = mesh_of("{a:4096, b:4096}");
  t = from_placements("[Shard(0), Shard(0)]", {ElemType::f32, {5}}, big);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message.find("too many shards"), std::string::npos);
  t = from_placements("[Shard(0), Shard(0)]", {ElemType::f32, {int64_t{1} << 24}}, big);
  ASSERT_TRUE(t.ok());
  t = from_placements("[_StridedShard(0, sf=2), Shard(0)]", {ElemType::f32, {6}}, mesh);
  ASSERT_FALSE(t.ok());
  EXPECT_NE(t.error().message.find("uneven"), std::string::npos);
}

TEST(NotationDtensor, RefusesWithReasonAndPosition) {
  const Mesh mesh = mesh_of("{dp:2, tp:4}");
  const ArrayShape shape{ElemType::f32, {16, 8}};
  const testing::Refusal bad[] = {
      {"[Shard(0)]", 0, "1 placements for a mesh of 2 dims"},
      {"[Partial(avg), Replicate()]", 9, "pending mean"},
      {"[Partial(sum), Partial(max)]", 1, "different reduce ops"},
      {"[Shard(2), Replicate()]", 1, "rank 2"},
      {"[Shard(0), Rep()]", 11, "unknown placement 'Rep'"},
      {"[Shard(0) Replicate()]", 10, "expected ']'"},
      {"[_StridedShard(0, sf=3), Shard(0)]", 1, "no later mesh dims"},
      {"[Shard(0), Shard(0)] shard_order={0: [1]}", 21, "must list every mesh dim"},
      {"[Shard(0), Replicate()] shard_order={0: [1]}", 37, "does not Shard(0)"},
      {"[Shard(-1), Replicate()]", 7, "must be >= 0"},
      {"Shard(0)", 0, "expected '[' or '('"},
  };
  testing::expect_refusals(bad, [&](const char* text) { return from_placements(text, shape, mesh); });
  const Mesh m4 = mesh_of("{x:4}");
  auto p = to_placements(type_of("f32[{x:(1)2}8]", m4), m4);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(p.error().message.find("sub-axis"), std::string::npos);
}

RC_GTEST_PROP(NotationDtensor, RoundTripsRandomTypes, ()) {
  // Size-1 mesh dims make _StridedShard's split factor ambiguous (any order is the same
  // placement); the generator's sizes start at 1, so compare placements, not text.
  const Mesh mesh = *testing::gen_mesh();
  testing::TypeOptions topt;
  topt.divisible = *rc::gen::arbitrary<bool>();
  topt.reductions = true;
  topt.sub_axes = false;
  DistType type = *testing::gen_type(mesh, topt);
  static const ReduceOp ops[] = {ReduceOp::sum, ReduceOp::max, ReduceOp::min};
  type.reduce_op = ops[*rc::gen::inRange(0, 3)];
  auto text = to_placements(type, mesh);
  if (!text.ok()) {
    // Only uneven dims are refused, and only where torch.chunk differs.
    RC_ASSERT(has_padding(type));
    RC_ASSERT(text.error().message.find("padded layout") != std::string::npos);
    return;
  }
  auto dm = parse_device_mesh(notation::to_device_mesh(mesh));
  RC_ASSERT(dm.ok());
  RC_ASSERT(*dm == mesh);
  auto back = from_placements(*text, notation::shape_of(type), *dm);
  RC_ASSERT(back.ok());
  DistType plain = type, read = *back;
  plain.reduce_axes = read.reduce_axes = {};
  RC_ASSERT(testing::same_placement(mesh, plain, mesh, read));
  RC_ASSERT(canonical(*back, mesh).reduce_axes == canonical(type, mesh).reduce_axes);
  RC_ASSERT(back->reduce_axes.empty() || back->reduce_op == type.reduce_op);
}

}  // namespace
}  // namespace redist
