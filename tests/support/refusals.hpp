// A table of inputs a parser must refuse, each with the position and a part of the
// reason its error must give (docs/interop.md: every refusal names both).
#pragma once

#include <gtest/gtest.h>

#include <cstddef>
#include <string>

namespace redist::testing {

struct Refusal {
  const char* text;
  std::size_t position;
  const char* reason;  // a substring of the message; "" when only the position matters
};

/// Checks that `parse(text)` fails with the table's position and reason for every row.
template <std::size_t N, class Parse>
void expect_refusals(const Refusal (&table)[N], Parse parse) {
  for (const Refusal& b : table) {
    auto r = parse(b.text);
    ASSERT_FALSE(r.ok()) << b.text;
    EXPECT_EQ(r.error().position, b.position) << b.text << ": " << r.error().to_string();
    EXPECT_NE(r.error().message.find(b.reason), std::string::npos) << b.text << ": " << r.error().message;
  }
}

}  // namespace redist::testing
