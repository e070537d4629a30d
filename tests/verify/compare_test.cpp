// compare: accepts distribute's data, finds wrong elements, wrong shapes, wrong device
// counts and wrong summands, ignores padding; Mismatch::to_string.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "helpers.hpp"
#include "redist/core/semantics.hpp"
#include "redist/verify/interpreter.hpp"
#include "tests/support/generators.hpp"

namespace redist::testing {
namespace {

TEST(VerifyCompare, AcceptsDistributedData) {
  const auto s = state_of("{x:2, y:2}", "f32[{x}4, {y}6]");
  EXPECT_EQ(compare(s.mesh, s.type, distribute(s.mesh, s.type)), std::nullopt);
}

TEST(VerifyCompare, FindsAWrongElement) {
  const auto s = state_of("{x:2}", "f32[{x}4]");
  MeshData data = distribute(s.mesh, s.type);
  data[1].values[1] = 99;
  const auto m = compare(s.mesh, s.type, data);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->device, 1);
  EXPECT_EQ(m->local_index, std::vector<int64_t>{1});
  EXPECT_EQ(m->expected, 3);
  EXPECT_EQ(m->actual, 99);
  EXPECT_EQ(m->to_string(), "device 1 at local index [1]: expected 3, got 99");
}

TEST(VerifyCompare, FindsTheFirstWrongElementInRowMajorOrder) {
  const auto s = state_of("{x:2}", "f32[4, {x}4]");
  MeshData data = distribute(s.mesh, s.type);
  data[0].values[5] = -7;  // local [2, 1]
  data[0].values[6] = -7;
  const auto m = compare(s.mesh, s.type, data);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->device, 0);
  EXPECT_EQ(m->local_index, (std::vector<int64_t>{2, 1}));
  EXPECT_EQ(m->expected, 9);
}

TEST(VerifyCompare, IgnoresPadding) {
  const auto s = state_of("{x:2}", "f32[{x}5]");
  MeshData data = distribute(s.mesh, s.type);
  data[1].values[2] = 1234;
  EXPECT_EQ(compare(s.mesh, s.type, data), std::nullopt);
}

TEST(VerifyCompare, FindsAWrongShape) {
  const auto s = state_of("{x:2}", "f32[{x}4, 3]");
  MeshData data = distribute(s.mesh, s.type);
  data[1].shape = {3, 2};
  auto m = compare(s.mesh, s.type, data);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->device, 1);
  EXPECT_TRUE(m->local_index.empty());
  EXPECT_NE(m->to_string().find("local shape"), std::string::npos);

  data = distribute(s.mesh, s.type);
  data[0].values.pop_back();
  m = compare(s.mesh, s.type, data);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->device, 0);
  EXPECT_EQ(m->expected, 6);
  EXPECT_EQ(m->actual, 5);
}

TEST(VerifyCompare, FindsAWrongDeviceCount) {
  const auto s = state_of("{x:2}", "f32[{x}4]");
  MeshData data = distribute(s.mesh, s.type);
  data.pop_back();
  const auto m = compare(s.mesh, s.type, data);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->device, -1);
  EXPECT_EQ(m->expected, 2);
  EXPECT_EQ(m->actual, 1);
  EXPECT_EQ(m->to_string(), "data holds 1 device buffers but the mesh has 2 devices");
}

TEST(VerifyCompare, ReducesOverTheReductionGroup) {
  const auto s = state_of("{x:2, y:2}", "f32[{x}4] sum{y}");
  MeshData data = distribute(s.mesh, s.type);
  EXPECT_EQ(compare(s.mesh, s.type, data), std::nullopt);
  data[3].values[0] += 1;  // a summand of element 2, held with device 2 (position 0)
  const auto m = compare(s.mesh, s.type, data);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->device, 2);
  EXPECT_EQ(m->local_index, std::vector<int64_t>{0});
  EXPECT_EQ(m->expected, 2);
  EXPECT_EQ(m->actual, 3);
}

TEST(VerifyCompare, FindsADroppedOrDoubledSummand) {
  const auto s = state_of("{y:4}", "f32[2] sum{y}");
  MeshData data = distribute(s.mesh, s.type);
  data[2].values[1] = 0;  // dropped
  EXPECT_TRUE(compare(s.mesh, s.type, data).has_value());
  data = distribute(s.mesh, s.type);
  data[2].values[1] *= 2;  // doubled
  EXPECT_TRUE(compare(s.mesh, s.type, data).has_value());
}

TEST(VerifyCompare, MaxNeedsTheValueAtPositionZero) {
  const auto s = state_of("{x:2}", "f32[2] max{x}");
  MeshData data = distribute(s.mesh, s.type);
  EXPECT_EQ(compare(s.mesh, s.type, data), std::nullopt);
  data[0] = data[1];  // position 0 lost its share
  EXPECT_TRUE(compare(s.mesh, s.type, data).has_value());
}

RC_GTEST_PROP(VerifyCompare, AcceptsDistributeAndFindsAnyWrongElement, ()) {
  const Mesh mesh = *gen_mesh();
  DistType type = *gen_type(mesh, {.divisible = false, .reductions = true, .max_multiple = 2});
  type.reduce_op = *rc::gen::element(ReduceOp::sum, ReduceOp::max, ReduceOp::min);
  RC_LOG() << to_string(mesh) << " | " << to_string(type) << "\n";
  const auto shape = local_shape(type);
  int64_t count = 1;
  for (int64_t s : shape) count *= s;
  RC_PRE(mesh.num_devices() * count <= int64_t{1} << 17);
  MeshData data = distribute(mesh, type);
  RC_ASSERT(!compare(mesh, type, data).has_value());

  const auto device = *rc::gen::inRange<int64_t>(0, mesh.num_devices());
  const auto k = *rc::gen::inRange<int64_t>(0, count);
  std::vector<int64_t> local(shape.size());
  for (std::size_t i = shape.size(), rest = static_cast<std::size_t>(k); i-- > 0;) {
    local[i] = static_cast<int64_t>(rest) % shape[i];
    rest /= static_cast<std::size_t>(shape[i]);
  }
  RC_PRE(local_to_global(mesh, type, mesh.coords_of_device(device), local).has_value());
  // Past every other share of the element in the direction the op keeps.
  const int64_t shift = kSummandUnit * 512;
  auto& value = data[static_cast<std::size_t>(device)].values[static_cast<std::size_t>(k)];
  value += type.reduce_op == ReduceOp::min ? -shift : shift;
  const auto m = compare(mesh, type, data);
  RC_ASSERT(m.has_value());
  RC_ASSERT(!m->local_index.empty());
  RC_ASSERT(m->local_index == local);
}

}  // namespace
}  // namespace redist::testing
