#pragma once
// C++ text of the constant tables that emitted MPI programs bake in.

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace redist::mpi {

/// `{1, 2, 3}`.
std::string brace_list(std::span<const int64_t> values);
/// `{1, 2, 3}`.
std::string brace_list(std::span<const int> values);
/// `{{0, 4}, {4, 0}}`, eight rows per line after the first, indented by `indent`.
std::string brace_rows(const std::vector<std::vector<int64_t>>& rows, std::string_view indent);
/// `text` as a C++ string literal (quotes and backslashes escaped).
std::string string_literal(std::string_view text);

}  // namespace redist::mpi
