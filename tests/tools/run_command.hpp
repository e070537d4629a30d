#pragma once
// Runs the `redist` binary under test and captures its exit status and output.

#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace redist::testing {

struct CommandResult {
  int exit_code = -1;
  std::string output;  // stdout and stderr together, or stdout alone
};

/// Runs `redist <args>` through the shell (args must be shell-quoted by the caller);
/// the output is stdout and stderr together, or stdout alone when `stdout_only`.
inline CommandResult run_redist(const std::string& args, const std::string& stdin_text = "",
                                bool stdout_only = false) {
  std::string command = std::string(REDIST_BINARY) + " " + args + (stdout_only ? " 2>/dev/null" : " 2>&1");
  if (!stdin_text.empty()) command = "printf '%s' '" + stdin_text + "' | " + command;
  CommandResult result;
  FILE* pipe = popen(command.c_str(), "r");
  if (!pipe) return result;
  std::array<char, 4096> buffer;
  while (std::size_t n = fread(buffer.data(), 1, buffer.size(), pipe)) result.output.append(buffer.data(), n);
  const int status = pclose(pipe);
  result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

}  // namespace redist::testing
