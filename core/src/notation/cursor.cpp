// The shared cursor of the notation readers (cursor.hpp).

#include "notation/cursor.hpp"

#include <cctype>
#include <limits>

namespace redist::notation::detail {

namespace {
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }
}  // namespace

void Cursor::skip_spaces() {
  while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
}

bool Cursor::at_end() {
  skip_spaces();
  return pos_ >= text_.size();
}

char Cursor::peek() {
  skip_spaces();
  return pos_ < text_.size() ? text_[pos_] : '\0';
}

bool Cursor::accept(char c) {
  if (peek() != c || c == '\0') return false;
  ++pos_;
  return true;
}

bool Cursor::accept(std::string_view word) {
  skip_spaces();
  if (text_.substr(pos_, word.size()) != word) return false;
  const std::size_t end = pos_ + word.size();
  if (!word.empty() && ident_char(word.back()) && end < text_.size() && ident_char(text_[end])) return false;
  pos_ = end;
  return true;
}

std::string Cursor::found() {
  skip_spaces();
  if (pos_ >= text_.size()) return "found the end of the text";
  return str("found '", text_[pos_], "'");
}

Status Cursor::expect(char c, std::string_view context) {
  if (accept(c)) return Ok{};
  return error_here(str("expected '", c, "' ", context, ", ", found()));
}

Status Cursor::expect(std::string_view word, std::string_view context) {
  if (accept(word)) return Ok{};
  return error_here(str("expected '", word, "' ", context, ", ", found()));
}

Status Cursor::expect_end(std::string_view context) {
  if (at_end()) return Ok{};
  return error_here(str("unexpected text after ", context, ": ", found()));
}

Result<int64_t> Cursor::integer(std::string_view what, int64_t min) {
  skip_spaces();
  const std::size_t start = pos_;
  if (pos_ < text_.size() && text_[pos_] == '-') return error_here(str(what, " must be >= ", min));
  if (pos_ >= text_.size() || !std::isdigit(static_cast<unsigned char>(text_[pos_])))
    return error_here(str("expected ", what, " (an integer), ", found()));
  int64_t v = 0;
  while (pos_ < text_.size() && std::isdigit(static_cast<unsigned char>(text_[pos_]))) {
    const int digit = text_[pos_] - '0';
    if (v > (std::numeric_limits<int64_t>::max() - digit) / 10)
      return parse_error(base_ + start, str(what, " does not fit 64 bits"));
    v = v * 10 + digit;
    ++pos_;
  }
  if (v < min) return parse_error(base_ + start, str(what, " must be >= ", min, ", found ", v));
  return v;
}

Result<std::vector<int64_t>> Cursor::integer_list(char open, char close, std::string_view what, int64_t min) {
  if (auto s = expect(open, str("to open the ", what)); !s) return s.error();
  std::vector<int64_t> out;
  if (accept(close)) return out;
  do {
    if (peek() == close) break;  // trailing comma, as Python allows
    auto v = integer(what, min);
    if (!v) return v.error();
    out.push_back(*v);
  } while (accept(','));
  if (auto s = expect(close, str("to close the ", what)); !s) return s.error();
  return out;
}

Result<std::string> Cursor::quoted(std::string_view what) {
  skip_spaces();
  if (pos_ >= text_.size() || (text_[pos_] != '\'' && text_[pos_] != '"'))
    return error_here(str("expected ", what, " in quotes, ", found()));
  const char q = text_[pos_];
  const std::size_t start = pos_++;
  std::string out;
  while (pos_ < text_.size() && text_[pos_] != q) {
    if (text_[pos_] == '\\') return error_here("escapes are not supported in names");
    out += text_[pos_++];
  }
  if (pos_ >= text_.size()) return parse_error(base_ + start, str("unterminated quoted ", what));
  ++pos_;
  return out;
}

Result<std::string> Cursor::word(std::string_view what) {
  skip_spaces();
  const std::size_t start = pos_;
  if (pos_ >= text_.size() || !(std::isalpha(static_cast<unsigned char>(text_[pos_])) || text_[pos_] == '_'))
    return error_here(str("expected ", what, ", ", found()));
  while (pos_ < text_.size() && (ident_char(text_[pos_]) || text_[pos_] == '.')) ++pos_;
  return std::string(text_.substr(start, pos_ - start));
}

Status Cursor::skip_group() {
  skip_spaces();
  const std::size_t start = pos_;
  std::string stack;
  do {
    if (pos_ >= text_.size()) return parse_error(base_ + start, "unbalanced brackets");
    const char c = text_[pos_++];
    if (c == '\'' || c == '"') {
      while (pos_ < text_.size() && text_[pos_] != c) ++pos_;
      if (pos_ >= text_.size()) return parse_error(base_ + start, "unterminated string");
      ++pos_;
    } else if (c == '(' || c == '[' || c == '{' || c == '<') {
      stack += c == '(' ? ')' : c == '[' ? ']' : c == '{' ? '}' : '>';
    } else if (c == ')' || c == ']' || c == '}' || c == '>') {
      if (stack.empty() || stack.back() != c) return parse_error(base_ + pos_ - 1, "unbalanced brackets");
      stack.pop_back();
    } else if (stack.empty()) {
      return parse_error(base_ + start, "expected a bracketed group");
    }
  } while (!stack.empty());
  return Ok{};
}

Error at(Error error, std::size_t position) {
  if (error.position == Error::npos) error.position = position;
  return error;
}

}  // namespace redist::notation::detail
