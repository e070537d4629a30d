#pragma once
// What `redist prove` and `redist check` share: the options of a check, running it,
// writing certificates, and printing the plan with its verdicts as text or JSON.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "redist/plan/plan.hpp"

namespace redist::cli {

/// Options common to the verifying verbs, as given.
struct VerifyArgs {
  std::optional<std::string> budget;  // a byte count (numbers.hpp); none: the default bound
  std::string certificate_dir;
  bool json = false;
  std::string timeout_ms = "10000";
};

/// The verifying options parsed.
struct VerifySettings {
  std::optional<uint64_t> budget;
  unsigned timeout_ms = 10000;
};

/// Registers --budget, --certificate, --json and --timeout-ms on `cmd`.
void add_verify_options(CLI::App& cmd, VerifyArgs& args);

/// The parsed --budget and --timeout-ms, or nullopt after reporting the error.
std::optional<VerifySettings> parse_verify_settings(const VerifyArgs& args);

/// Checks `plan`, writes certificates if asked, prints the plan and the verdicts
/// (`origin` says where the plan came from), and returns the exit status. `extra`
/// (an object) is merged into the JSON output.
int verify_and_report(const Plan& plan, const VerifyArgs& args, const VerifySettings& settings,
                      const std::string& origin, const nlohmann::json& extra = {});

}  // namespace redist::cli
