#pragma once
// A reshard pair as the constructive builders (synth/src/synth_builders.hpp) see it: the
// parsed mesh and types, the problem and its prime atoms.

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
  synth_detail::Atomized primes;
};

/// Returns the pair from `src` to `dst` on `mesh` (all three valid).
inline BuilderPair builder_pair(const char* mesh, const char* src, const char* dst) {
  BuilderPair p;
  p.mesh = parse_mesh(mesh).value();
  p.src = parse_type(src, p.mesh).value();
  p.dst = parse_type(dst, p.mesh).value();
  p.problem = synth_detail::make_problem(p.mesh, p.src, p.mesh, p.dst).value();
  p.primes = *synth_detail::atomize(p.problem.frame, p.problem.src, p.problem.dst, true);
  return p;
}

}  // namespace redist::testing
