#pragma once
// Small text helpers for verdict messages.

#include <cstdint>
#include <string>
#include <vector>

#include "redist/core/bigint.hpp"

namespace redist::smt {

/// "[3, 2]".
std::string shape_text(const std::vector<int64_t>& values);

/// `num / den` as a decimal with `digits` places ("1.5000"); "inf" when den is 0 and
/// num is not, "1" when both are 0.
std::string ratio_text(const BigInt& num, const BigInt& den, int digits = 4);

}  // namespace redist::smt
