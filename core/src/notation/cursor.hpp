#pragma once
// A cursor over the text of another system's notation (docs/interop.md): Python-like
// quoted strings, MLIR-like `@names` and `#attr<...>`, integers, with every failure an
// Error naming the character offset (counted from `base`, so embedded texts report
// offsets into the whole).

#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "redist/core/result.hpp"

namespace redist::notation::detail {

/// Concatenates the arguments as text (streams them), for error messages.
template <class... Args>
std::string str(const Args&... args) {
  std::ostringstream out;
  (out << ... << args);
  return out.str();
}

class Cursor {
 public:
  explicit Cursor(std::string_view text, std::size_t base = 0) : text_(text), base_(base) {}

  /// Offset of the next unread character, counted from the base.
  std::size_t position() const { return base_ + pos_; }
  /// Characters consumed so far.
  std::size_t consumed() const { return pos_; }
  void skip_spaces();
  /// True when only spaces are left.
  bool at_end();
  /// Next non-space character, or '\0' at the end.
  char peek();
  /// Consumes `c` (after spaces) if it is next.
  bool accept(char c);
  /// Consumes `word` (after spaces) if it is next; a word ending in a letter must not be
  /// followed by another identifier character.
  bool accept(std::string_view word);
  /// Consumes `c` or fails with "expected 'c' <context>, found ...".
  Status expect(char c, std::string_view context);
  /// Consumes `word` or fails with "expected 'word' <context>, found ...".
  Status expect(std::string_view word, std::string_view context);
  /// A decimal integer >= `min` that fits 64 bits.
  Result<int64_t> integer(std::string_view what, int64_t min = 0);
  /// `[i, j, ...]` (possibly empty) of integers >= `min`.
  Result<std::vector<int64_t>> integer_list(char open, char close, std::string_view what, int64_t min = 0);
  /// A string in single or double quotes (no escapes).
  Result<std::string> quoted(std::string_view what);
  /// An identifier-like word [A-Za-z_][A-Za-z0-9_.]*.
  Result<std::string> word(std::string_view what);
  /// Skips a balanced (), [], {} or <> group starting at the cursor (after spaces).
  Status skip_group();
  /// "found 'c'" or "found the end of the text".
  std::string found();
  Error error_here(std::string message) { return parse_error(position(), std::move(message)); }
  /// Fails unless only spaces are left.
  Status expect_end(std::string_view context);

 private:
  std::string_view text_;
  std::size_t base_ = 0;
  std::size_t pos_ = 0;
};

/// Prefixes an error without a position with `position` (used for validation errors
/// about a whole construct).
Error at(Error error, std::size_t position);

}  // namespace redist::notation::detail
