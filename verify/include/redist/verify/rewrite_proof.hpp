#pragma once
// The proof that a type rewritten on a refined mesh (core/refine.hpp, docs/meshes.md)
// denotes the placement of the original: a G1-style Z3 query over a symbolic mesh
// position p, asking for a p at which some dim's block index, or the pending
// reduction's summand index, differs between the original type on its mesh and the
// rewritten type on the refined mesh. Unsat proves that every device holds the same
// elements (the local sizes, element type and device order are compared exactly
// beside it, so block equality is element equality).

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/verify/verdict.hpp"

namespace redist {

/// Proved when `rewritten` on `refined` places on every physical device the elements
/// (and summands) that `original` places there on `mesh`; refuted with the first
/// device and dim where they differ; unknown on a solver timeout. `smt2` is kept when
/// `keep_smt2`.
PropertyResult prove_rewrite(const Mesh& mesh, const DistType& original, const Mesh& refined,
                             const DistType& rewritten, unsigned timeout_ms = 10000, bool keep_smt2 = false);

}  // namespace redist
