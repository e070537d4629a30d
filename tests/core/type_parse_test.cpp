#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "redist/core/bigint.hpp"
#include "redist/core/dist_type.hpp"
#include "tests/support/generators.hpp"

namespace redist {
namespace {

const Mesh& mesh_xyz() {
  static const Mesh mesh = parse_mesh("{x:4, y:2, z:2}").value();
  return mesh;
}

TEST(TypeParse, LocalSizeGlobalSizeAndAxesMajorToMinor) {
  auto t = parse_type("f32[32{x,y}512, 128]", parse_mesh("{x:4, y:4}").value());
  ASSERT_TRUE(t.ok()) << t.error().to_string();
  EXPECT_EQ(t->elem, ElemType::f32);
  ASSERT_EQ(t->rank(), 2u);
  EXPECT_EQ(t->dims[0].global, 512);
  ASSERT_EQ(t->dims[0].axes.size(), 2u);
  EXPECT_EQ(t->dims[0].axes[0], (AxisRef{"x", 1, 4, false}));
  EXPECT_EQ(t->dims[0].axes[1], (AxisRef{"y", 1, 4, false}));
  EXPECT_EQ(t->dims[1].global, 128);
  EXPECT_TRUE(t->dims[1].axes.empty());
  EXPECT_EQ(local_shape(*t), (std::vector<int64_t>{32, 128}));
  EXPECT_EQ(to_string(*t), "f32[{x,y}512, 128]");
}

TEST(TypeParse, LocalSizeMayBeOmittedAndElementTypeDefaultsToF32) {
  auto mesh = parse_mesh("{x:4, y:4}").value();
  EXPECT_EQ(parse_type("[{x,y}512, 128]", mesh).value(), parse_type("f32[32{x,y}512, 128]", mesh).value());
}

TEST(TypeParse, PendingReduction) {
  auto t = parse_type("bf16[{x}1024, {y}64] sum{z}", mesh_xyz()).value();
  EXPECT_EQ(t.elem, ElemType::bf16);
  EXPECT_EQ(t.reduce_op, ReduceOp::sum);
  EXPECT_EQ(t.reduce_axes, (std::vector<AxisRef>{{"z", 1, 2, false}}));
  EXPECT_EQ(to_string(t), "bf16[{x}1024, {y}64] sum{z}");
  EXPECT_EQ(parse_type("f32[8] max{x,y}", mesh_xyz())->reduce_op, ReduceOp::max);
  EXPECT_EQ(parse_type("f32[8] min{x}", mesh_xyz())->reduce_op, ReduceOp::min);
}

TEST(TypeParse, SubAxes) {
  auto mesh = parse_mesh("{x:6}").value();
  auto t = parse_type("f32[{x:(1)2}6, {x:(2)3}3]", mesh).value();
  EXPECT_EQ(t.dims[0].axes[0], (AxisRef{"x", 1, 2, true}));
  EXPECT_EQ(t.dims[1].axes[0], (AxisRef{"x", 2, 3, true}));
  EXPECT_EQ(local_shape(t), (std::vector<int64_t>{3, 1}));
  EXPECT_EQ(to_string(t), "f32[{x:(1)2}6, {x:(2)3}3]");
}

TEST(TypeParse, NonDivisibleSizesArePadded) {
  auto t = parse_type("f32[{x,y}5, 3]", parse_mesh("{x:2, y:2}").value()).value();
  EXPECT_EQ(local_shape(t), (std::vector<int64_t>{2, 3}));
  EXPECT_TRUE(has_padding(t));
  EXPECT_EQ(to_string(t), "f32[{x,y}5, 3]");
  EXPECT_EQ(local_bytes(t), 24);
  EXPECT_TRUE(parse_type("f32[2{x,y}5, 3]", parse_mesh("{x:2, y:2}").value()).ok());
}

TEST(TypeParse, ReplicationFactorCountsUnusedAxes) {
  EXPECT_EQ(replication_factor(parse_type("f32[{x}16, 8]", mesh_xyz()).value(), mesh_xyz()), 4);
  EXPECT_EQ(replication_factor(parse_type("f32[{x}16, {y}8] sum{z}", mesh_xyz()).value(), mesh_xyz()), 1);
  EXPECT_EQ(replication_factor(parse_type("f32[16]", mesh_xyz()).value(), mesh_xyz()), 16);
}

TEST(TypeParse, BigSizesDoNotOverflow) {
  auto mesh = parse_mesh("{a:16, b:16, c:16, d:16}").value();
  auto t = parse_type("bf16[{a,b}65536, {c}65536, {d}1024]", mesh).value();
  EXPECT_EQ(global_elements(t), BigInt(1) << 42);
  EXPECT_EQ(local_bytes(t), BigInt(256) * 4096 * 64 * 2);
  auto huge = parse_type("f64[9223372036854775807, 9223372036854775807]", mesh).value();
  EXPECT_EQ(to_decimal(local_bytes(huge)), "680564733841876926779175262273860009992");
}

TEST(TypeParse, CanonicalMergesConsecutiveFactors) {
  auto mesh = parse_mesh("{x:4, y:2}").value();
  auto split = parse_type("f32[{x:(1)2,x:(2)2}16] sum{y}", mesh).value();
  EXPECT_NE(split, parse_type("f32[{x}16] sum{y}", mesh).value());
  EXPECT_EQ(canonical(split, mesh), parse_type("f32[{x}16] sum{y}", mesh).value());
}

TEST(TypeParse, ValidateChecksBuiltTypes) {
  DistType t;
  t.dims.push_back({16, {{"x", 1, 4, false}}});
  EXPECT_TRUE(validate(t, mesh_xyz()).ok());
  t.dims.push_back({8, {{"x", 1, 4, false}}});
  auto twice = validate(t, mesh_xyz());
  ASSERT_FALSE(twice.ok());
  EXPECT_EQ(twice.error().message, "dimension 1: axis 'x' is used twice");
  t.dims[1] = {8, {{"q", 1, 2, false}}};
  EXPECT_NE(validate(t, mesh_xyz()).error().message.find("unknown axis 'q'"), std::string::npos);
  t.dims[1] = {0, {}};
  EXPECT_EQ(validate(t, mesh_xyz()).error().message, "dimension 1: size 0 must be at least 1");
  t.dims[1] = {8, {{"y", 1, 3, false}}};
  EXPECT_EQ(validate(t, mesh_xyz()).error().message, "dimension 1: axis 'y' must have size 2");
}

RC_GTEST_PROP(TypeParse, PrintThenParseIsIdentity, ()) {
  const Mesh mesh = *testing::gen_mesh();
  const DistType type = *testing::gen_type(mesh, {.divisible = false, .reductions = true});
  RC_ASSERT(validate(type, mesh).ok());
  const std::string text = to_string(type);
  auto parsed = parse_type(text, mesh);
  RC_ASSERT(parsed.ok());
  RC_ASSERT(*parsed == type);
  RC_ASSERT(to_string(*parsed) == text);
  auto mesh_again = parse_mesh(to_string(mesh));
  RC_ASSERT(mesh_again.ok());
  RC_ASSERT(*mesh_again == mesh);
}

RC_GTEST_PROP(TypeParse, LocalSizesWrittenOutAreAccepted, ()) {
  const Mesh mesh = *testing::gen_mesh();
  const DistType type = *testing::gen_type(mesh, {.divisible = false});
  std::string text = std::string(elem_name(type.elem)) + "[";
  for (std::size_t i = 0; i < type.dims.size(); ++i) {
    if (i) text += ", ";
    const auto& d = type.dims[i];
    text += d.axes.empty() ? std::to_string(d.global)
                           : std::to_string(local_size(d)) + to_string(d.axes) + std::to_string(d.global);
  }
  text += "]";
  auto parsed = parse_type(text, mesh);
  RC_ASSERT(parsed.ok());
  RC_ASSERT(*parsed == type);
}

}  // namespace
}  // namespace redist
