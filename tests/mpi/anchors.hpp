#pragma once
// The anchor corpus (anchors.txt: `name | mesh | source | target [| target mesh]  # tags`)
// and the plans the MPI tests run for its cases.

#include <string>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"
#include "redist/proofs/anchors.hpp"
#include "redist/plan/plan.hpp"

namespace redist::mpi::testing {

using redist::Anchor;

/// The anchors of the file at `path`; an error names the line that does not parse.
Result<std::vector<Anchor>> read_anchors(const std::string& path);

/// The plan the tests run for `anchor`: synthesize()'s, under the cost model
/// tests/data/device_sets.cost for a case tagged `staged`. An error says why there is none.
Result<Plan> anchor_plan(const Anchor& anchor);

}  // namespace redist::mpi::testing
