#pragma once
// The one parser of numeric command-line options (docs/cli.md "Numbers"): every verb
// reads --budget and --timeout-ms through it, so the same text means the same number,
// or the same error, everywhere.
//
// A number is plain decimal digits: no sign, no base prefix (`0x10`), no spaces, no
// fraction. A byte count may end in a unit: B, KB/MB/GB/TB (powers of 1000) or
// KiB/MiB/GiB/TiB (powers of 1024), case as written here. Values must fit 64 bits.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "redist/core/result.hpp"

namespace redist::cli {

/// The number of bytes in `text` (e.g. `4096`, `64KiB`, `2GB`); errors name the
/// offending character.
Result<uint64_t> parse_byte_count(std::string_view text);

/// The whole number in `text`, which must lie in [min, max]; no unit.
Result<uint64_t> parse_whole_number(std::string_view text, uint64_t min, uint64_t max);

/// The byte count in `text` given as option `what`, or nullopt after reporting the
/// error (exit 2).
std::optional<uint64_t> parse_bytes_arg(const std::string& text, const std::string& what);

/// The whole number in `text` given as option `what`, in [min, max], or nullopt after
/// reporting the error (exit 2).
std::optional<uint64_t> parse_number_arg(const std::string& text, const std::string& what, uint64_t min,
                                         uint64_t max);

}  // namespace redist::cli
