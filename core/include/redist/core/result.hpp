#pragma once
// Errors as values: every fallible library call returns Result<T>.

#include <cstddef>
#include <string>
#include <utility>
#include <variant>

namespace redist {

/// What went wrong. `position` is a 0-based character offset into the text that was
/// parsed (npos when the error is not about a place in a text).
struct Error {
  enum class Kind { parse, invalid, unsupported, overflow, no_plan, runtime };
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  Kind kind = Kind::invalid;
  std::string message;
  std::size_t position = npos;

  /// "at column N: message" (1-based column) or just the message.
  std::string to_string() const;
};

Error parse_error(std::size_t position, std::string message);
Error invalid_error(std::string message, std::size_t position = Error::npos);
Error unsupported_error(std::string message);

/// A value or an Error. Access the value only after checking ok().
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const { return std::get<1>(v_); }

 private:
  std::variant<T, Error> v_;
};

/// Result of a call that returns nothing on success.
struct Ok {};
using Status = Result<Ok>;

}  // namespace redist
