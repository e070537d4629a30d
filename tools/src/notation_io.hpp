#pragma once
// The CLI's --from/--to (docs/interop.md): SRC, DST and the meshes read in another
// system's notation (XLA HloSharding, Shardy, JAX, DTensor), and the plan's types
// printed in one. The verbs register the options with add_notation_options; the
// chosen notations are process-wide, as the command runs one verb.

#include <CLI/CLI.hpp>
#include <optional>
#include <string>

#include "input.hpp"
#include "redist/plan/plan.hpp"

namespace redist::cli {

/// Adds `--from NOTATION` and, when `with_to`, `--to NOTATION` (redist, hlo, sdy, jax,
/// dtensor) to `cmd`.
void add_notation_options(CLI::App& cmd, bool with_to = true);
/// True when --from names another notation than redist's.
bool reading_other_notation();
/// Reads --mesh, --target-mesh, SRC and DST in the --from notation (`<shape> <sharding>`,
/// e.g. `f32[16,8] {devices=[4,2]<=[8]}`; with hlo, --mesh may be left out and a mesh is
/// invented), or returns nullopt after reporting the first error.
std::optional<ReshardArgs> parse_reshard_args_in_notation(const std::string& mesh, const std::string& target_mesh,
                                                          const std::string& src, const std::string& dst);
/// With --to, prints the plan's meshes and types (source and after each step) in that
/// notation as `#` comment lines, or why a type has no spelling in it.
void print_plan_in_notation(const Plan& plan, std::ostream& out);

}  // namespace redist::cli
