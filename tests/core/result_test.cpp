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
