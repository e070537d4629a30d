#include "lexer.hpp"

#include <cctype>
#include <fmt/format.h>
#include <limits>

namespace redist::detail {

void Lexer::skip_spaces() {
  while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
}

char Lexer::peek() {
  skip_spaces();
  return pos_ < text_.size() ? text_[pos_] : '\0';
}

bool Lexer::accept(char c) {
  if (peek() != c || c == '\0') return false;
  ++pos_;
  return true;
}

bool Lexer::accept_word(std::string_view word) {
  skip_spaces();
  if (text_.substr(pos_, word.size()) != word) return false;
  pos_ += word.size();
  return true;
}

std::string Lexer::found() {
  const char c = peek();
  if (c == '\0') return "found the end of the text";
  return fmt::format("found '{}'", c);
}

Status Lexer::expect(char c, std::string_view context) {
  if (accept(c)) return Ok{};
  return error_here(fmt::format("expected '{}' {}, {}", c, context, found()));
}

Result<std::string> Lexer::identifier(std::string_view what) {
  skip_spaces();
  const std::size_t start = pos_;
  auto is_start = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; };
  auto is_rest = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  if (pos_ >= text_.size() || !is_start(text_[pos_]))
    return error_here(fmt::format("expected {}, {}", what, found()));
  while (pos_ < text_.size() && is_rest(text_[pos_])) ++pos_;
  return std::string(text_.substr(start, pos_ - start));
}

Result<int64_t> Lexer::non_negative_integer(std::string_view what) {
  skip_spaces();
  const std::size_t start = position();
  if (pos_ < text_.size() && text_[pos_] == '-')
    return parse_error(start, fmt::format("{} must not be negative", what));
  if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_])))
    return error_here(fmt::format("expected {}, {}", what, found()));
  int64_t value = 0;
  constexpr int64_t kMax = std::numeric_limits<int64_t>::max();
  while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
    const int digit = text_[pos_] - '0';
    if (value > (kMax - digit) / 10)
      return parse_error(start, fmt::format("{} does not fit in 64 bits", what));
    value = value * 10 + digit;
    ++pos_;
  }
  return value;
}

Result<int64_t> Lexer::positive_integer(std::string_view what) {
  skip_spaces();
  const std::size_t start = position();
  auto value = non_negative_integer(what);
  if (!value) return value;
  if (*value == 0) return parse_error(start, fmt::format("{} must be at least 1, found 0", what));
  return value;
}

}  // namespace redist::detail
