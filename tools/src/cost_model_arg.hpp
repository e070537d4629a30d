#pragma once
// The --cost-model argument of the verbs that synthesize (plan, prove, emit): a config
// file (docs/cost_model.md) read, parsed and checked against the meshes of the reshard.

#include <optional>
#include <string>

#include "redist/core/mesh.hpp"
#include "redist/synth/cost_model.hpp"

namespace CLI {
class App;
}

namespace redist::cli {

/// Returns the model in the --cost-model file `path`, each axis it names an axis of
/// `mesh` or `target_mesh`; the defaults when `path` is empty; nullopt after reporting
/// the error (exit 2: unreadable file, bad line, unknown axis).
std::optional<CostModel> cost_model_arg(const std::string& path, const Mesh& mesh, const Mesh& target_mesh);

/// Adds `--cost-model FILE` to `cmd`, storing the path in `path`; `what` ends the help
/// text (what the model does for this verb).
void add_cost_model_option(CLI::App& cmd, std::string& path, const std::string& what);

}  // namespace redist::cli
