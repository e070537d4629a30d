#include "report.hpp"

#include <iostream>
#include <nlohmann/json.hpp>

namespace redist::cli {

namespace {

struct Command {
  std::string name;
  bool json = false;
};

/// The one verb a process runs.
Command& current() {
  static Command command;
  return command;
}

/// The name of an exit status in the JSON error's `kind`.
const char* kind_of(int exit_code) {
  switch (exit_code) {
    case kExitUnproved: return "unproved";
    case kExitBadInput: return "bad_input";
    case kExitNoPlan: return "no_plan";
    default: return "internal";
  }
}

}  // namespace

void begin_command(const std::string& command, bool json) { current() = Command{command, json}; }

int fail(int exit_code, const std::string& message, const std::string& argument, std::size_t position) {
  std::cerr << "redist: " << message << "\n";
  if (current().json) {
    nlohmann::json out = json_header(exit_code);
    out["error"] = {{"kind", kind_of(exit_code)},
                    {"message", message},
                    {"argument", argument.empty() ? nlohmann::json(nullptr) : nlohmann::json(argument)},
                    {"column", position == static_cast<std::size_t>(-1) ? nlohmann::json(nullptr)
                                                                        : nlohmann::json(position + 1)}};
    std::cout << out.dump(2) << "\n";
  }
  return exit_code;
}

nlohmann::json json_header(int exit_code) {
  return {{"schema_version", kJsonSchemaVersion},
          {"command", current().name.empty() ? nlohmann::json(nullptr) : nlohmann::json(current().name)},
          {"exit_code", exit_code}};
}

}  // namespace redist::cli
