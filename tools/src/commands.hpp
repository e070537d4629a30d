#pragma once
// The verbs of the `redist` command. Each add_*_command registers one subcommand on
// `app`; its callback runs the verb and stores the process exit status in `exit_code`:
// 0 ok (for prove/check: every property proved, transfers tight or excess), 1 a
// property refuted or unknown, 2 bad input, 3 no plan within the budget.

#include <CLI/CLI.hpp>

namespace redist::cli {

void add_type_command(CLI::App& app, int& exit_code);
void add_plan_command(CLI::App& app, int& exit_code);
/// `emit --target stablehlo|hlo|mpi (--mesh M [--target-mesh M2] SRC DST | --plan FILE)
/// [--budget BYTES] [-o FILE]`: 0 ok, 2 bad input, 3 no plan.
void add_emit_command(CLI::App& app, int& exit_code);
/// `prove --mesh M [--target-mesh M2] SRC DST [--budget B] [--certificate DIR] [--json]
/// [--timeout-ms T]`: synthesizes a plan, proves it, prints the plan and the verdicts.
void add_prove_command(CLI::App& app, int& exit_code);
/// `check --plan FILE|- [--budget B] [--certificate DIR] [--json] [--timeout-ms T]`:
/// proves a given plan (plan text format, explicit groups=/pairs= accepted).
void add_check_command(CLI::App& app, int& exit_code);

/// `explain (--mesh M [--target-mesh M2] SRC DST | --plan FILE) [--svg FILE]`: the plan
/// in words, per step and device, and optionally as an SVG picture.
void add_explain_command(CLI::App& app, int& exit_code);

}  // namespace redist::cli
