// The `redist` command: synthesize, prove and emit array redistributions.

#include <fmt/format.h>
#include <iostream>
#include <string>
#include <string_view>

#include "commands.hpp"
#include "redist/core/version.hpp"
#include "report.hpp"

namespace {

/// The verb named on the command line and whether --json was given, for reporting
/// usage errors in the form the caller asked for.
void begin_from_argv(int argc, char** argv) {
  std::string verb;
  bool json = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    if (arg == "--json") json = true;
    if (verb.empty() && (arg == "type" || arg == "plan" || arg == "emit" || arg == "prove" || arg == "check" ||
                          arg == "explain"))
      verb = arg;
  }
  redist::cli::begin_command(verb, json);
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "redist: verified array redistributions for SPMD programs.\n"
      "Types use the paper's notation, e.g. 'f32[{x,y}512, 128] sum{z}' over a mesh '{x:4, y:2}'.\n"
      "Exit status: 0 ok, 1 not verified (prove/check), 2 bad input, 3 no plan within the budget, "
      "4 internal error (docs/cli.md).",
      "redist"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "redist " + std::string(redist::version_string));
  int exit_code = 0;
  redist::cli::add_type_command(app, exit_code);
  redist::cli::add_plan_command(app, exit_code);
  redist::cli::add_emit_command(app, exit_code);
  redist::cli::add_prove_command(app, exit_code);
  redist::cli::add_check_command(app, exit_code);
  redist::cli::add_explain_command(app, exit_code);
  if (argc <= 1) {  // a bare `redist` prints the usage
    std::cout << app.help();
    return 0;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help
    // Usage errors are bad input (exit 2), in JSON too when --json was given.
    begin_from_argv(argc, argv);
    return redist::cli::fail(redist::cli::kExitBadInput, fmt::format("{}; run 'redist --help' for usage", e.what()));
  }
  return exit_code;
}
