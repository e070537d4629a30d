#pragma once
// The scope check shared by synthesis and the baselines.

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"
#include "synth_moves.hpp"

namespace redist::synth_detail {

/// The factor-level problem of resharding `src` on `src_mesh` to `dst` on `dst_mesh`,
/// or the error that puts the pair out of scope: `invalid` for inputs that do not
/// validate or describe different arrays, `unsupported` for different mesh axes,
/// pending reductions and non-divisible dims.
Result<Problem> make_problem(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                             const DistType& dst);

}  // namespace redist::synth_detail
