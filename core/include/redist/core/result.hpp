#pragma once
// Errors as values: every fallible library call returns Result<T>.

#include <cstddef>
#include <string>
#include <string_view>
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
  /// The same, placed in `text` (the text that was parsed): where it has more than one
  /// line, "at line L, column C: message", the message's own "line L: " (which the
  /// parsers of multi-line texts add for callers without the text) left out; e.g.
  /// "at line 3, column 1: unknown step 'all_gathr' ..." for a plan file.
  std::string to_string(std::string_view text) const;
};

Error parse_error(std::size_t position, std::string message);
Error invalid_error(std::string message, std::size_t position = Error::npos);
Error unsupported_error(std::string message);

namespace detail {
/// Reports value() called on an error (with the error's text) and aborts.
[[noreturn]] void value_of_error(const Error& error);
/// Reports error() called on a value and aborts.
[[noreturn]] void error_of_value();
}  // namespace detail

/// A value or an Error. Access the value only after checking ok(): value() on an error
/// and error() on a value abort with a message naming the misuse (and the error), not
/// a bare std::bad_variant_access.
template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { return *checked(this); }
  const T& value() const& { return *checked(this); }
  T&& value() && { return std::move(*checked(this)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }

  const Error& error() const {
    if (ok()) detail::error_of_value();
    return *std::get_if<1>(&v_);
  }

 private:
  /// Returns the value of `self`, or aborts naming its error.
  template <class Self>
  static auto checked(Self* self) {
    if (!self->ok()) detail::value_of_error(*std::get_if<1>(&self->v_));
    return std::get_if<0>(&self->v_);
  }

  std::variant<T, Error> v_;
};

/// Result of a call that returns nothing on success.
struct Ok {};
using Status = Result<Ok>;

}  // namespace redist
