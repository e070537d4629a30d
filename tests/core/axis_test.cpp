#include <gtest/gtest.h>

#include "redist/core/axis.hpp"

namespace redist {
namespace {

AxisRef whole(const char* n, int64_t size) { return {n, 1, size, false}; }
AxisRef sub(const char* n, int64_t pre, int64_t size) { return {n, pre, size, true}; }
auto size_of_x4(const std::string&) { return int64_t{4}; }

TEST(Axis, PrintsWholeAndSubAxes) {
  EXPECT_EQ(to_string(whole("x", 4)), "x");
  EXPECT_EQ(to_string(sub("x", 1, 2)), "x:(1)2");
  const std::vector<AxisRef> list{whole("x", 4), sub("y", 2, 3)};
  EXPECT_EQ(to_string(list), "{x,y:(2)3}");
  EXPECT_EQ(to_string(std::vector<AxisRef>{}), "{}");
}

TEST(Axis, OverlapAndCompatibility) {
  EXPECT_TRUE(overlaps(whole("x", 4), sub("x", 2, 2)));
  EXPECT_FALSE(overlaps(sub("x", 1, 2), sub("x", 2, 2)));
  EXPECT_TRUE(compatible(sub("x", 1, 2), sub("x", 2, 2)));
  EXPECT_FALSE(compatible(sub("x", 1, 2), sub("x", 1, 3)));  // x:6, both major
  EXPECT_FALSE(compatible(sub("x", 1, 2), sub("x", 3, 2)));  // x:6, do not nest
  EXPECT_TRUE(compatible(whole("x", 4), whole("y", 4)));
  EXPECT_FALSE(compatible(whole("x", 1), whole("x", 1)));
}

TEST(Axis, MergeAdjacentFactors) {
  auto merged = merge_adjacent({sub("x", 1, 2), sub("x", 2, 2)}, size_of_x4);
  EXPECT_EQ(merged, (std::vector<AxisRef>{whole("x", 4)}));
  auto kept = merge_adjacent({sub("x", 2, 2), sub("x", 1, 2)}, size_of_x4);  // minor first: no merge
  EXPECT_EQ(kept.size(), 2u);
}

TEST(Axis, StripSuffixAtFactorLevel) {
  auto rest = strip_suffix({whole("x", 4)}, {sub("x", 2, 2)}, size_of_x4);
  ASSERT_TRUE(rest.has_value());
  EXPECT_EQ(*rest, (std::vector<AxisRef>{sub("x", 1, 2)}));
  auto all = strip_suffix({sub("x", 1, 2), sub("x", 2, 2)}, {whole("x", 4)}, size_of_x4);
  ASSERT_TRUE(all.has_value());
  EXPECT_TRUE(all->empty());
  EXPECT_FALSE(strip_suffix({whole("x", 4)}, {sub("x", 1, 2)}, size_of_x4).has_value());
  EXPECT_FALSE(strip_suffix({whole("x", 4), whole("y", 4)}, {whole("x", 4)}, size_of_x4).has_value());
}

}  // namespace
}  // namespace redist
