#pragma once
// What `redist plan` and `redist prove` say about a reshard between meshes with other
// axes (docs/meshes.md): the common refinement the plan runs on, one line per refined
// axis naming the source and target axes it came from, and (prove) the Z3 proofs
// that the rewritten source and target types denote the original placements.

#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>

#include "input.hpp"
#include "redist/core/refine.hpp"
#include "redist/verify/verdict.hpp"

namespace redist::cli {

/// The refinement the plan of `in` runs on, or nullopt when the meshes have the same
/// axes over devices 0..N-1 (or have no refinement: synthesis reports that).
std::optional<Refinement> refinement_of(const ReshardArgs& in);

/// `# ` comment lines naming the refined mesh and, per refined axis, its origins.
void print_refinement(const Refinement& r, std::ostream& out);

/// {"mesh": refined source mesh, "axes": [{name, size, source, target}]}.
nlohmann::json refinement_json(const Refinement& r);

/// The two rewrite proofs (source, target) of `r` for `in`.
std::pair<PropertyResult, PropertyResult> prove_rewrites(const ReshardArgs& in, const Refinement& r,
                                                         unsigned timeout_ms);

}  // namespace redist::cli
