#pragma once
// The scope check shared by synthesis and the baselines.

#include <optional>

#include "redist/core/bigint.hpp"
#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"
#include "synth_moves.hpp"

namespace redist::synth_detail {

/// Why synthesis cannot plan the pending reductions of `src` on `src_mesh` into `dst`
/// on `dst_mesh`, if it cannot: either type invalid, different reduction ops, or a
/// target reduction the source does not have over an axis the source does not
/// replicate (`invalid`; over a replicated axis add_pending adds it); nothing when
/// neither has one.
std::optional<Error> reduction_error(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                                     const DistType& dst);

/// True when `src` or `dst` has pending reductions.
bool has_reductions(const DistType& src, const DistType& dst);

/// `type` without pending reductions.
DistType without_reductions(DistType type);

/// The factor-level problem of resharding `src` on `src_mesh` to `dst` on `dst_mesh`,
/// or the error that puts the pair out of scope: `invalid` for inputs that do not
/// validate or describe different arrays, `unsupported` for different mesh axes,
/// pending reductions (synthesize() strips them first: only the baselines refuse them).
Result<Problem> make_problem(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                             const DistType& dst);

/// Why no plan within `bound` bytes per device exists for a pair with padded dims, if
/// that is the reason: the first dim padded on either side whose source and target
/// blocks do not nest (docs/notation.md, "Padded dims"), which only a whole copy of the
/// dim on a device moves correctly (gather whole, then slice), and that copy exceeds
/// the bound. Nothing when every padded dim nests.
std::optional<Error> padding_error(const DistType& src, const DistType& dst, const BigInt& bound);

}  // namespace redist::synth_detail
