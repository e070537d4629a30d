// Result<T>: errors as values, and misuse that aborts with a message naming it.

#include "redist/core/result.hpp"

#include <gtest/gtest.h>

namespace redist {
namespace {

TEST(Result, HoldsAValueOrAnError) {
  Result<int> value = 7;
  ASSERT_TRUE(value.ok());
  EXPECT_EQ(*value, 7);
  Result<int> error = invalid_error("no such axis", 4);
  ASSERT_FALSE(error.ok());
  EXPECT_EQ(error.error().kind, Error::Kind::invalid);
  EXPECT_EQ(error.error().to_string(), "at column 5: no such axis");
}

TEST(Result, AnErrorInAMultiLineTextNamesTheLineAndColumn) {
  const std::string text = "mesh {x:4}\nsource f32[{x}16]\nall_gathr(dim=0)\n";
  const Error e = parse_error(text.find("all_gathr"), "line 3: unknown step 'all_gathr'");
  EXPECT_EQ(e.to_string(), "at column 30: line 3: unknown step 'all_gathr'");
  EXPECT_EQ(e.to_string(text), "at line 3, column 1: unknown step 'all_gathr'");
  const Error inside = parse_error(text.find("{x}16"), "no such axis");
  EXPECT_EQ(inside.to_string(text), "at line 2, column 12: no such axis");
  const Error at_newline = parse_error(text.find('\n'), "line 1: cut short");
  EXPECT_EQ(at_newline.to_string(text), "at line 1, column 11: cut short");
  // One line, no position, or a position past the text: as without the text.
  EXPECT_EQ(invalid_error("no such axis", 4).to_string("f32[{q}16]"), "at column 5: no such axis");
  EXPECT_EQ(invalid_error("bad").to_string(text), "bad");
  EXPECT_EQ(parse_error(text.size() + 1, "far").to_string(text), "at column 48: far");
}

TEST(ResultDeathTest, ValueOfAnErrorAbortsNamingTheError) {
  Result<int> error = invalid_error("no such axis", 4);
  EXPECT_DEATH((void)error.value(), "Result::value\\(\\) called on an error: at column 5: no such axis");
  EXPECT_DEATH((void)*error, "called on an error");
}

TEST(ResultDeathTest, ErrorOfAValueAborts) {
  Result<int> value = 7;
  EXPECT_DEATH((void)value.error(), "Result::error\\(\\) called on a value");
}

}  // namespace
}  // namespace redist
