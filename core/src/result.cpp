#include "redist/core/result.hpp"

#include <fmt/format.h>

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

}  // namespace redist
