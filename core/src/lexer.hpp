#pragma once
// A small cursor over notation text shared by the mesh and type parsers. Every failure
// is an Error naming the character offset (offsets count from `base`, so texts embedded
// in larger ones report offsets into the whole).

#include <cstdint>
#include <string>
#include <string_view>

#include "redist/core/result.hpp"

namespace redist::detail {

class Lexer {
 public:
  explicit Lexer(std::string_view text, std::size_t base = 0) : text_(text), base_(base) {}

  /// Offset of the cursor (after skipping nothing), counted from the base.
  std::size_t position() const { return base_ + pos_; }
  /// Characters consumed so far.
  std::size_t consumed() const { return pos_; }
  void skip_spaces();
  bool at_end() { skip_spaces(); return pos_ >= text_.size(); }
  /// Next non-space character, or '\0' at the end.
  char peek();
  /// Consumes `c` (after spaces) if it is next.
  bool accept(char c);
  /// Consumes `word` (after spaces) if it is next.
  bool accept_word(std::string_view word);
  /// Consumes `c` or fails with "expected 'c' <context>".
  Status expect(char c, std::string_view context);
  /// An identifier [A-Za-z_][A-Za-z0-9_]*, or an error saying what was expected.
  Result<std::string> identifier(std::string_view what);
  /// A decimal integer >= 1 that fits 64 bits; errors for '-', zero, overflow, no digits.
  Result<int64_t> positive_integer(std::string_view what);
  /// A decimal integer >= 0 that fits 64 bits.
  Result<int64_t> non_negative_integer(std::string_view what);
  /// "found 'c'" or "found the end of the text", for error messages.
  std::string found();
  Error error_here(std::string message) { return parse_error(position(), std::move(message)); }

 private:
  std::string_view text_;
  std::size_t base_ = 0;
  std::size_t pos_ = 0;
};

}  // namespace redist::detail
