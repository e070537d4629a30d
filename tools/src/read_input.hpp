#pragma once
// Reading the text files the verbs take (--plan, --cost-model): anything that is not a
// readable, non-empty text file of at most kMaxInputBytes is refused with a message
// (exit 2), never a crash (docs/cli.md "Files").

#include <cstdint>
#include <optional>
#include <string>

namespace redist::cli {

/// The largest input file read: a plan with explicit tables for 2^22 devices fits.
inline constexpr std::uintmax_t kMaxInputBytes = std::uintmax_t{256} << 20;

/// The text of the file `path` ("-": standard input) given as `argument`, or nullopt
/// after reporting why not: missing, a directory or other non-regular file,
/// unreadable, empty, larger than kMaxInputBytes, or binary (a NUL byte).
std::optional<std::string> read_text_input(const std::string& path, const std::string& argument);

}  // namespace redist::cli
