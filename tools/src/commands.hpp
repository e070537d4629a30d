#pragma once
// The verbs of the `redist` command. Each add_*_command registers one subcommand on
// `app`; its callback runs the verb and stores the process exit status in `exit_code`
// (0 ok, 1 a property failed, 2 bad input, 3 no plan within the budget).

#include <CLI/CLI.hpp>

namespace redist::cli {

void add_type_command(CLI::App& app, int& exit_code);
void add_plan_command(CLI::App& app, int& exit_code);

}  // namespace redist::cli
