// The `redist` command: synthesize, prove and emit array redistributions.

#include <iostream>
#include <string>

#include "commands.hpp"
#include "redist/core/version.hpp"

int main(int argc, char** argv) {
  CLI::App app{
      "redist: verified array redistributions for SPMD programs.\n"
      "Types use the paper's notation, e.g. 'f32[{x,y}512, 128] sum{z}' over a mesh '{x:4, y:2}'."};
  app.require_subcommand(1);
  app.set_version_flag("--version", "redist " + std::string(redist::version_string));
  int exit_code = 0;
  redist::cli::add_type_command(app, exit_code);
  redist::cli::add_plan_command(app, exit_code);
  redist::cli::add_emit_command(app, exit_code);
  redist::cli::add_prove_command(app, exit_code);
  redist::cli::add_check_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Usage errors are bad input (exit 2); --help exits 0.
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  return exit_code;
}
