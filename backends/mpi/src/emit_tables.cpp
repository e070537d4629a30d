// C++ text of constant tables for emitted programs.

#include "emit_tables.hpp"

namespace redist::mpi {

namespace {

template <class T>
std::string join(std::span<const T> values) {
  std::string out = "{";
  for (std::size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + std::to_string(values[i]);
  return out + "}";
}

}  // namespace

std::string brace_list(std::span<const int64_t> values) { return join(values); }
std::string brace_list(std::span<const int> values) { return join(values); }

std::string brace_rows(const std::vector<std::vector<int64_t>>& rows, std::string_view indent) {
  std::string out = "{";
  for (std::size_t i = 0; i < rows.size(); ++i) {
    if (i) out += (i % 8 == 0) ? ",\n" + std::string(indent) : ", ";
    out += brace_list(rows[i]);
  }
  return out + "}";
}

std::string string_literal(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace redist::mpi
