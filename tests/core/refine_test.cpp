// Meshes over other device ids, and the common refinement of two meshes over the same
// devices (core/refine.hpp, docs/meshes.md): refined axes, their origins, device
// orders, rewritten types, and the pairs that have no refinement.

#include <gtest/gtest.h>

#include "redist/core/refine.hpp"

namespace redist {
namespace {

Refinement refined(const std::string& a, const std::string& src, const std::string& b, const std::string& dst) {
  const Mesh ma = parse_mesh(a).value(), mb = parse_mesh(b).value();
  auto r = refine(ma, parse_type(src, ma).value(), mb, parse_type(dst, mb).value());
  if (!r) throw std::runtime_error(r.error().to_string());
  return *r;
}

TEST(MeshDevices, OtherIdsAreKeptAndLookedUp) {
  const Mesh m = parse_mesh("{x:2, y:2} devices=[7,4,5,6]").value();
  EXPECT_FALSE(m.compact());
  EXPECT_TRUE(m.has_explicit_order());
  EXPECT_EQ(m.device_ids(), (std::vector<int64_t>{4, 5, 6, 7}));
  EXPECT_EQ(m.device_at(0), 7);
  EXPECT_EQ(m.position_of(7), 0);
  EXPECT_EQ(m.position_of(5), 2);
  EXPECT_EQ(m.coords_of_device(6), (Coords{1, 1}));
  EXPECT_TRUE(m.has_device(4));
  EXPECT_FALSE(m.has_device(0));
  EXPECT_THROW((void)m.position_of(0), std::out_of_range);
  EXPECT_EQ(to_string(m), "{x:2, y:2} devices=[7,4,5,6]");
  EXPECT_EQ(parse_mesh(to_string(m)).value(), m);
}

TEST(MeshDevices, CompactMeshesAreUnchanged) {
  const Mesh m = parse_mesh("{x:4} devices=[3,2,1,0]").value();
  EXPECT_TRUE(m.compact());
  EXPECT_EQ(m.device_ids(), (std::vector<int64_t>{0, 1, 2, 3}));
  EXPECT_EQ(m.position_of(3), 0);
  EXPECT_THROW((void)m.position_of(4), std::out_of_range);
  EXPECT_TRUE(parse_mesh("{x:4}").value().compact());
  EXPECT_FALSE(parse_mesh("{x:4}").value().has_device(4));
}

TEST(Refine, TwoByFourAndFourByTwoBecomeThreeAxesOfTwo) {
  const Refinement r = refined("{a:2, b:4}", "f32[{a}8, {b}8]", "{x:4, y:2}", "f32[{x}8, {y}8]");
  EXPECT_EQ(to_string(r.source_mesh), "{a:2, b_0:2, y:2}");
  EXPECT_EQ(r.source_mesh, r.target_mesh);
  ASSERT_EQ(r.axes.size(), 3u);
  EXPECT_EQ(describe(r.axes), (std::vector<std::string>{"a:2 = a (source) = x:(1)2 (target)",
                                                        "b_0:2 = b:(1)2 (source) = x:(2)2 (target)",
                                                        "y:2 = b:(2)2 (source) = y (target)"}));
  EXPECT_EQ(to_string(r.source), "f32[{a}8, {b_0,y}8]");
  EXPECT_EQ(to_string(r.target), "f32[{a,b_0}8, {y}8]");
}

TEST(Refine, SixDevicesSplitIntoTwoByThree) {
  const Refinement r = refined("{d:6}", "f32[{d}12, 5]", "{x:2, y:3}", "f32[{y}12, {x}5]");
  EXPECT_EQ(to_string(r.source_mesh), "{x:2, y:3}");
  EXPECT_EQ(describe(r.axes), (std::vector<std::string>{"x:2 = d:(1)2 (source) = x (target)",
                                                        "y:3 = d:(2)3 (source) = y (target)"}));
  EXPECT_EQ(to_string(r.source), "f32[{x,y}12, 5]");
  EXPECT_EQ(to_string(r.target), "f32[{y}12, {x}5]");
}

TEST(Refine, DeviceOrdersStayWithTheirSide) {
  const Refinement r =
      refined("{d:8}", "f32[{d}8]", "{p:2, q:2, r:2} devices=[0,4,2,6,1,5,3,7]", "f32[{p,q}8]");
  EXPECT_EQ(to_string(r.source_mesh), "{p:2, q:2, r:2}");
  EXPECT_EQ(to_string(r.target_mesh), "{p:2, q:2, r:2} devices=[0,4,2,6,1,5,3,7]");
  EXPECT_EQ(to_string(r.source), "f32[{p,q,r}8]");
  EXPECT_EQ(to_string(r.target), "f32[{p,q}8]");
}

TEST(Refine, SubAxesOfTheTypesAddCuts) {
  // x:(2)2 cuts x:4 at stride 2, which neither mesh's axes do.
  const Refinement r = refined("{x:4, y:2}", "f32[{x:(2)2}8, {y}4]", "{u:8}", "f32[{u}8, 4]");
  EXPECT_EQ(to_string(r.source_mesh), "{x_0:2, x_1:2, y:2}");
  EXPECT_EQ(to_string(r.source), "f32[{x_1}8, {y}4]");
  EXPECT_EQ(to_string(r.target), "f32[{x_0,x_1,y}8, 4]");
}

TEST(Refine, PendingReductionsAreRewritten) {
  const Refinement r = refined("{a:2, b:4}", "f32[{a}8] sum{b}", "{x:4, y:2}", "f32[{x}8] sum{y}");
  EXPECT_EQ(to_string(r.source), "f32[{a}8] sum{b_0,y}");
  EXPECT_EQ(to_string(r.target), "f32[{a,b_0}8] sum{y}");
}

TEST(Refine, SizeOneAxesVanish) {
  const Refinement r = refined("{o:1, a:4}", "f32[{o,a}8]", "{x:2, y:2}", "f32[{y}8]");
  EXPECT_EQ(to_string(r.source_mesh), "{x:2, y:2}");
  EXPECT_EQ(to_string(r.source), "f32[{x,y}8]");
  EXPECT_EQ(to_string(r.target), "f32[{y}8]");
}

Error refine_error(const std::string& a, const std::string& src, const std::string& b, const std::string& dst) {
  const Mesh ma = parse_mesh(a).value(), mb = parse_mesh(b).value();
  auto r = refine(ma, parse_type(src, ma).value(), mb, parse_type(dst, mb).value());
  EXPECT_FALSE(r.ok());
  return r.ok() ? Error{} : r.error();
}

TEST(Refine, RefusesWhatItCannotRefine) {
  Error e = refine_error("{x:2, y:3}", "f32[{x}6]", "{u:3, v:2}", "f32[{u}6]");
  EXPECT_EQ(e.kind, Error::Kind::unsupported);
  EXPECT_NE(e.message.find("no common refinement"), std::string::npos) << e.message;
  EXPECT_NE(e.message.find("2 does not divide 3"), std::string::npos) << e.message;
  e = refine_error("{x:4}", "f32[{x}8]", "{u:8}", "f32[{u}8]");
  EXPECT_EQ(e.kind, Error::Kind::unsupported);
  EXPECT_NE(e.message.find("has 4 devices and the target mesh {u:8} has 8"), std::string::npos) << e.message;
  e = refine_error("{x:4}", "f32[{x}8]", "{u:4} devices=[4,5,6,7]", "f32[{u}8]");
  EXPECT_EQ(e.kind, Error::Kind::unsupported);
  EXPECT_NE(e.message.find("not both over devices 0..3"), std::string::npos) << e.message;
  e = refine_error("{x:4}", "f32[{x}8]", "{u:2, v:2}", "bf16[{u}8]");
  EXPECT_EQ(e.kind, Error::Kind::invalid);
  EXPECT_NE(e.message.find("element types differ: f32 and bf16"), std::string::npos) << e.message;
  e = refine_error("{x:4}", "f32[{x}8]", "{u:2, v:2}", "f32[{u}16]");
  EXPECT_EQ(e.kind, Error::Kind::invalid);
  EXPECT_NE(e.message.find("different global shapes"), std::string::npos) << e.message;
}

}  // namespace
}  // namespace redist
