#pragma once
// The constructive plans that seed the search engine (engine.hpp) with an upper bound:
// the direct, count-matched and balanced builders of synth_builders.hpp and XLA's own
// first choices (one permute; all_to_alls then a permute), each a plan in normal form
// built in microseconds, or nothing when its construction does not apply.

#include <vector>

#include "redist/plan/plan.hpp"
#include "synth_moves.hpp"

namespace redist::synth_detail {

/// The builders' plans for `problem` (from `src` on `src_mesh` to `dst` on `dst_mesh`),
/// target asserted, the direct plan first. When the direct plan slices first, has at
/// most two all_to_alls and the device order stays, only XLA's choices join it (the
/// others would refine it). Unchecked: the engine keeps only those that are valid.
/// `backtrack`: the balanced builder searches past its greedy path (synthesize()'s
/// fallback, when no seed of the plain call is valid).
std::vector<Plan> constructive_seeds(const Problem& problem, const Mesh& src_mesh, const DistType& src,
                                     const Mesh& dst_mesh, const DistType& dst, bool backtrack = false);

/// The seeds of a pair with pending reductions (`dst`'s a subset of `src`'s, same op):
/// a prefix of reduce_scatters / all_reduces (seeds_reduce.cpp), then the constructive
/// plans of the rest. Unchecked, like constructive_seeds.
std::vector<Plan> reduction_seeds(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                                  const DistType& dst);

}  // namespace redist::synth_detail
