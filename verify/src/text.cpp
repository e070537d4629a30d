#include "text.hpp"

#include <fmt/format.h>

namespace redist::smt {

std::string shape_text(const std::vector<int64_t>& values) {
  return fmt::format("[{}]", fmt::join(values, ", "));
}

std::string ratio_text(const BigInt& num, const BigInt& den, int digits) {
  if (den == 0) return num == 0 ? "1" : "inf";
  BigInt scale = 1;
  for (int i = 0; i < digits; ++i) scale *= 10;
  const BigInt scaled = (num * scale + den / 2) / den;  // rounded to the last place
  std::string frac = to_decimal(scaled % scale);
  frac.insert(0, static_cast<std::size_t>(digits) - frac.size(), '0');
  return fmt::format("{}.{}", to_decimal(scaled / scale), frac);
}

}  // namespace redist::smt
