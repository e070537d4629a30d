#include "read_input.hpp"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <system_error>
#include <filesystem>

#include "report.hpp"

namespace redist::cli {

namespace {

/// Reads at most kMaxInputBytes + 1 bytes of `in`.
std::string read_capped(std::istream& in) {
  std::string text;
  char buffer[1 << 16];
  while (text.size() <= kMaxInputBytes && in.read(buffer, sizeof buffer), in.gcount() > 0)
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
  return text;
}

/// The error about `text` read from `path`, or an empty string when it is acceptable.
std::string check_text(const std::string& text, const std::string& path) {
  if (text.size() > kMaxInputBytes)
    return fmt::format("{} is larger than {} MiB", path, kMaxInputBytes >> 20);
  if (text.empty()) return path + " is empty";
  if (const auto nul = text.find('\0'); nul != std::string::npos)
    return fmt::format("{} is not a text file (a NUL byte at offset {})", path, nul);
  return {};
}

}  // namespace

std::optional<std::string> read_text_input(const std::string& path, const std::string& argument) {
  const std::string name = path == "-" ? std::string("standard input") : "'" + path + "'";
  std::string text;
  if (path == "-") {
    text = read_capped(std::cin);
    if (std::cin.bad()) {
      fail(kExitBadInput, "cannot read " + argument + " from standard input", argument);
      return std::nullopt;
    }
  } else {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec) {
      fail(kExitBadInput, fmt::format("cannot read {} {}: {}", argument, name, ec.message()), argument);
      return std::nullopt;
    }
    if (std::filesystem::is_directory(status)) {
      fail(kExitBadInput, fmt::format("{} {} is a directory, not a file", argument, name), argument);
      return std::nullopt;
    }
    if (!std::filesystem::is_regular_file(status)) {
      fail(kExitBadInput, fmt::format("{} {} is not a regular file", argument, name), argument);
      return std::nullopt;
    }
    if (std::filesystem::file_size(path, ec) > kMaxInputBytes && !ec) {
      fail(kExitBadInput, fmt::format("{} {} is larger than {} MiB", argument, name, kMaxInputBytes >> 20), argument);
      return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      fail(kExitBadInput, fmt::format("cannot read {} {}: {}", argument, name, std::strerror(errno)), argument);
      return std::nullopt;
    }
    text = read_capped(in);
    if (in.bad()) {
      fail(kExitBadInput, fmt::format("cannot read {} {}", argument, name), argument);
      return std::nullopt;
    }
  }
  if (const std::string why = check_text(text, argument + " " + name); !why.empty()) {
    fail(kExitBadInput, why, argument);
    return std::nullopt;
  }
  return text;
}

}  // namespace redist::cli
