#include "numbers.hpp"

#include "input.hpp"

#include <array>
#include <fmt/format.h>
#include <string>
#include <utility>

namespace redist::cli {

namespace {

/// The value of the leading decimal digits of `text` and how many there are, or an
/// error at the first character that cannot start or continue the number.
Result<std::pair<uint64_t, std::size_t>> leading_digits(std::string_view text) {
  uint64_t value = 0;
  std::size_t i = 0;
  for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
    const uint64_t digit = static_cast<uint64_t>(text[i] - '0');
    if (value > (UINT64_MAX - digit) / 10) return parse_error(i, "the number does not fit 64 bits");
    value = value * 10 + digit;
  }
  if (i == 0) {
    if (text.empty()) return parse_error(0, "expected a number, got nothing");
    if (text[0] == '-') return parse_error(0, "expected a number of at least 0, got a sign");
    if (text[0] == '+' || text[0] == ' ') return parse_error(0, "expected decimal digits");
    return parse_error(0, "expected decimal digits");
  }
  if (i < text.size() && (text[i] == 'x' || text[i] == 'X') && value == 0)
    return parse_error(i, "expected decimal digits (no hexadecimal)");
  if (i < text.size() && (text[i] == '.' || text[i] == ','))
    return parse_error(i, "expected a whole number (no fraction: write 1536MiB for 1.5GiB)");
  return std::pair{value, i};
}

struct Unit {
  std::string_view name;
  uint64_t factor;
};
constexpr std::array<Unit, 9> kUnits = {{{"B", 1},
                                         {"KB", 1000},
                                         {"MB", 1000 * 1000},
                                         {"GB", 1000 * 1000 * 1000},
                                         {"TB", uint64_t{1000} * 1000 * 1000 * 1000},
                                         {"KiB", uint64_t{1} << 10},
                                         {"MiB", uint64_t{1} << 20},
                                         {"GiB", uint64_t{1} << 30},
                                         {"TiB", uint64_t{1} << 40}}};

}  // namespace

Result<uint64_t> parse_byte_count(std::string_view text) {
  auto digits = leading_digits(text);
  if (!digits) return digits.error();
  const auto [value, length] = *digits;
  const std::string_view unit = text.substr(length);
  if (unit.empty()) return value;
  for (const Unit& u : kUnits) {
    if (unit != u.name) continue;
    if (value > UINT64_MAX / u.factor) return parse_error(0, "the byte count does not fit 64 bits");
    return value * u.factor;
  }
  return parse_error(
      length, fmt::format("expected a unit B, KB, MB, GB, TB, KiB, MiB, GiB or TiB after the number, got '{}'", unit));
}

Result<uint64_t> parse_whole_number(std::string_view text, uint64_t min, uint64_t max) {
  auto digits = leading_digits(text);
  if (!digits) return digits.error();
  const auto [value, length] = *digits;
  if (length < text.size()) return parse_error(length, "expected only decimal digits");
  if (value < min || value > max)
    return parse_error(0, fmt::format("expected a number from {} to {}", min, max));
  return value;
}

std::optional<uint64_t> parse_bytes_arg(const std::string& text, const std::string& what) {
  auto value = parse_byte_count(text);
  if (!value) {
    report_error(what, text, value.error());
    return std::nullopt;
  }
  return *value;
}

std::optional<uint64_t> parse_number_arg(const std::string& text, const std::string& what, uint64_t min,
                                         uint64_t max) {
  auto value = parse_whole_number(text, min, max);
  if (!value) {
    report_error(what, text, value.error());
    return std::nullopt;
  }
  return *value;
}

}  // namespace redist::cli
