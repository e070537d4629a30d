#pragma once
// How the `redist` command ends (docs/cli.md): its exit statuses, and its errors, which
// go to standard error as text and, when the verb was given --json, also to standard
// output as one JSON object, so a caller that parses stdout always gets an answer.

#include <cstddef>
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace redist::cli {

inline constexpr int kExitOk = 0;
inline constexpr int kExitUnproved = 1;   // prove/check: a property refuted or unknown
inline constexpr int kExitBadInput = 2;   // bad arguments or files, pairs out of scope
inline constexpr int kExitNoPlan = 3;     // no plan within the budget
inline constexpr int kExitInternal = 4;   // a bug in redist (e.g. the solver failed)

/// The version of the JSON objects every verb prints with --json.
inline constexpr int kJsonSchemaVersion = 1;

/// Records the verb running and whether it prints JSON (errors included).
void begin_command(const std::string& command, bool json);

/// Prints the error `message` (about `argument`, at offset `position` of its text when
/// known) and returns `exit_code`. The JSON form is the header plus `error`: kind
/// (unproved, bad_input, no_plan, internal), message, argument and 1-based column (null
/// when unknown).
int fail(int exit_code, const std::string& message, const std::string& argument = {},
         std::size_t position = static_cast<std::size_t>(-1));

/// The fields every JSON object starts with: schema_version, command, exit_code.
nlohmann::json json_header(int exit_code);

}  // namespace redist::cli
