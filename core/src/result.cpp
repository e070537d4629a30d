#include "redist/core/result.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace redist {

std::string Error::to_string() const {
  if (position == npos) return message;
  return fmt::format("at column {}: {}", position + 1, message);
}

std::string Error::to_string(std::string_view text) const {
  if (position == npos || position > text.size() || text.find('\n') == std::string_view::npos) return to_string();
  const std::string_view before = text.substr(0, position);
  const std::size_t line = 1 + static_cast<std::size_t>(std::count(before.begin(), before.end(), '\n'));
  const std::size_t last_newline = before.rfind('\n');
  const std::size_t column = position - (last_newline == std::string_view::npos ? 0 : last_newline + 1) + 1;
  std::string_view reason = message;
  if (const std::string own = fmt::format("line {}: ", line); reason.starts_with(own)) reason.remove_prefix(own.size());
  return fmt::format("at line {}, column {}: {}", line, column, reason);
}

Error parse_error(std::size_t position, std::string message) {
  return Error{Error::Kind::parse, std::move(message), position};
}

Error invalid_error(std::string message, std::size_t position) {
  return Error{Error::Kind::invalid, std::move(message), position};
}

Error unsupported_error(std::string message) {
  return Error{Error::Kind::unsupported, "unsupported: " + std::move(message), Error::npos};
}

namespace detail {

void value_of_error(const Error& error) {
  fmt::print(stderr, "redist: Result::value() called on an error: {}\n", error.to_string());
  std::abort();
}

void error_of_value() {
  fmt::print(stderr, "redist: Result::error() called on a value\n");
  std::abort();
}

}  // namespace detail

}  // namespace redist
