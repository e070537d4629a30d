#pragma once
// The arguments that decide which plan the verbs that synthesize (plan, prove, emit)
// pick: --cost-model, a config file (docs/cost_model.md) read, parsed and checked
// against the meshes of the reshard, and --search, the states the default synthesis may
// expand from its seeds.

#include <cstdint>
#include <optional>
#include <string>

#include "redist/core/mesh.hpp"
#include "redist/synth/cost_model.hpp"

namespace CLI {
class App;
class Option;
}

namespace redist::cli {

/// Returns the model in the --cost-model file `path`, each axis it names an axis of
/// `mesh` or `target_mesh`; the defaults when `path` is empty; nullopt after reporting
/// the error (exit 2: unreadable file, bad line, unknown axis).
std::optional<CostModel> cost_model_arg(const std::string& path, const Mesh& mesh, const Mesh& target_mesh);

/// Adds `--cost-model FILE` to `cmd`, storing the path in `path`; `what` ends the help
/// text (what the model does for this verb).
void add_cost_model_option(CLI::App& cmd, std::string& path, const std::string& what);

/// Adds `--search N` to `cmd` (SynthOptions::max_expanded, a whole number >= 0), storing
/// it in `expanded` (left absent without the flag: the synthesizer's default); returns
/// the option, for the verb's exclusions.
CLI::Option* add_search_option(CLI::App& cmd, std::optional<int64_t>& expanded);

}  // namespace redist::cli
