#pragma once
// A reshard pair as the constructive builders (synth/src/synth_builders.hpp) see it: the
// parsed mesh and types, the problem and its atoms.

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "synth/src/synth_atoms.hpp"
#include "synth/src/synth_moves.hpp"
#include "synth/src/synth_scope.hpp"

namespace redist::testing {

struct BuilderPair {
  Mesh mesh;
  DistType src, dst;
  synth_detail::Problem problem;
  synth_detail::Atomized atoms;  // prime atoms, or factor-level ones
};

/// Returns the pair from `src` to `dst` on `mesh` (all three valid, their boundaries
/// nesting), over prime atoms or, without `primes`, factor-level ones.
inline BuilderPair builder_pair(const char* mesh, const char* src, const char* dst, bool primes = true) {
  BuilderPair p;
  p.mesh = parse_mesh(mesh).value();
  p.src = parse_type(src, p.mesh).value();
  p.dst = parse_type(dst, p.mesh).value();
  p.problem = synth_detail::make_problem(p.mesh, p.src, p.mesh, p.dst).value();
  p.atoms = synth_detail::atomize(p.problem.frame, p.problem.src, p.problem.dst, primes).value();
  return p;
}

}  // namespace redist::testing
