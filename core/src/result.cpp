#include "redist/core/result.hpp"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>

namespace redist {

std::string Error::to_string() const {
  if (position == npos) return message;
  return fmt::format("at column {}: {}", position + 1, message);
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
