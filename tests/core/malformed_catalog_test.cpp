// A catalog of malformed inputs: each must fail with a clear reason at the right place.

#include <gtest/gtest.h>

#include "redist/core/dist_type.hpp"

namespace redist {
namespace {

struct Malformed {
  const char* text;
  std::size_t position;  // 0-based offset the error must name
  const char* reason;    // substring of the message
};

void PrintTo(const Malformed& m, std::ostream* os) { *os << '"' << m.text << '"'; }

class MalformedType : public ::testing::TestWithParam<Malformed> {};
class MalformedMesh : public ::testing::TestWithParam<Malformed> {};

TEST_P(MalformedType, IsRejectedWithPositionAndReason) {
  static const Mesh mesh = parse_mesh("{x:4, y:2, z:2, w:6}").value();
  const auto& c = GetParam();
  auto t = parse_type(c.text, mesh);
  ASSERT_FALSE(t.ok()) << c.text << " parsed as " << to_string(*t);
  EXPECT_EQ(t.error().position, c.position) << c.text << ": " << t.error().to_string();
  EXPECT_NE(t.error().message.find(c.reason), std::string::npos) << c.text << ": " << t.error().message;
}

TEST_P(MalformedMesh, IsRejectedWithPositionAndReason) {
  const auto& c = GetParam();
  auto m = parse_mesh(c.text);
  ASSERT_FALSE(m.ok()) << c.text << " parsed as " << to_string(*m);
  EXPECT_EQ(m.error().position, c.position) << c.text << ": " << m.error().to_string();
  EXPECT_NE(m.error().message.find(c.reason), std::string::npos) << c.text << ": " << m.error().message;
}

INSTANTIATE_TEST_SUITE_P(Catalog, MalformedType, ::testing::Values(
    Malformed{"", 0, "expected an element type or '['"},
    Malformed{"f33[16]", 0, "unknown element type 'f33'"},
    Malformed{"f32(16)", 3, "expected '[' to open the dimensions"},
    Malformed{"f32[16", 6, "expected ']' to close the dimensions"},
    Malformed{"f32[16,]", 7, "expected a size for dimension 1"},
    Malformed{"f32[0]", 4, "must be at least 1, found 0"},
    Malformed{"f32[-4]", 4, "must not be negative"},
    Malformed{"f32[{x}0]", 7, "must be at least 1, found 0"},
    Malformed{"f32[99999999999999999999]", 4, "does not fit in 64 bits"},
    Malformed{"f32[{q}16]", 5, "unknown axis 'q'"},
    Malformed{"f32[{x}16, {x}8]", 12, "axis 'x' is used twice"},
    Malformed{"f32[{x,x}16]", 7, "axis 'x' is used twice"},
    Malformed{"f32[{x}16] sum{x}", 15, "axis 'x' is used twice"},
    Malformed{"f32[{x}16", 9, "expected ']' to close the dimensions"},
    Malformed{"f32[{x 16]", 7, "expected '}' to close the axes of dimension 0"},
    Malformed{"f32[{x}]", 7, "expected the global size of dimension 0"},
    Malformed{"f32[{,}16]", 5, "expected an axis name"},
    Malformed{"f32[{3}16]", 5, "expected an axis name"},
    Malformed{"f32[5{x}16]", 4, "local size 5 of dimension 0 contradicts ceil(16 / 4) = 4"},
    Malformed{"f32[{x:(1)3}16]", 5, "does not divide the size of axis 'x' (4)"},
    Malformed{"f32[{x:(1)4}16]", 5, "covers the whole axis; write 'x'"},
    Malformed{"f32[{x:(2)1}16]", 5, "has size 1"},
    Malformed{"f32[{x:(0)2}16]", 8, "must be at least 1, found 0"},
    Malformed{"f32[{x:1)2}16]", 7, "expected '(' to open the sub-axis of 'x'"},
    Malformed{"f32[{x:(1 2}16]", 10, "expected ')' after the major size of the sub-axis"},
    Malformed{"f32[{x}16, {x:(2)2}8]", 12, "x:(2)2 overlaps x, already used"},
    Malformed{"f32[{w:(1)2}12, {w:(1)3}12]", 17, "overlaps w:(1)2"},
    Malformed{"f32[{w:(1)2}12, {w:(3)2}12]", 17, "do not nest"},
    Malformed{"f32[16] prod{x}", 8, "unknown reduction 'prod'"},
    Malformed{"f32[16] sum{}", 11, "a reduction needs at least one axis"},
    Malformed{"f32[16] sum", 11, "expected '{' to open the axes of the reduction"},
    Malformed{"f32[16] sum{x} extra", 15, "unexpected text after the type"},
    Malformed{"f32[16]]", 7, "unexpected text after the type"},
    Malformed{"f32[16 8]", 7, "expected ']' to close the dimensions"},
    Malformed{"f32[{x}16, {y}8] sum{z, q}", 24, "unknown axis 'q'"}));

INSTANTIATE_TEST_SUITE_P(Catalog, MalformedMesh, ::testing::Values(
    Malformed{"", 0, "expected '{' to open the mesh"},
    Malformed{"{x:4, y:2", 9, "expected '}' to close the mesh"},
    Malformed{"{x:4, x:2}", 6, "mesh axis 'x' is declared twice"},
    Malformed{"{x:0}", 3, "must be at least 1, found 0"},
    Malformed{"{x:-2}", 3, "must not be negative"},
    Malformed{"{x 4}", 3, "expected ':' after axis name 'x'"},
    Malformed{"{4:x}", 1, "expected an axis name"},
    Malformed{"{x:65536, y:65536, z:65536}", 19, "more than 2^40 devices"},
    Malformed{"{x:2, y:2} devices=[0,1,2]", 11, "lists 3 devices but the mesh has 4"},
    Malformed{"{x:2, y:2} devices=[0,1,1,3]", 24, "device id 1 appears twice"},
    Malformed{"{x:2, y:2} devices=[0,1,2,1099511627776]", 26, "device id 1099511627776 at index 3 is outside 0..2^40-1"},
    Malformed{"{x:4} devices=[4,5,6,4]", 21, "device id 4 appears twice"},
    Malformed{"{x:4} devices=[4,5,6]", 6, "lists 3 devices but the mesh has 4"},
    Malformed{"{x:2} devices=[4,-5]", 17, "must not be negative"},
    Malformed{"{x:2} devices=[1,0", 18, "expected ']' to close the device list"},
    Malformed{"{x:2} devices=[1,-1]", 17, "must not be negative"},
    Malformed{"{x:2} junk", 6, "unexpected text after the mesh"}));

}  // namespace
}  // namespace redist
