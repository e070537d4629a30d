#pragma once
// Benchmark cases: the anchors whose meshes fit the job, grown to its size and to a
// minimum array size.

#include <cstdint>
#include <string>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"

namespace redist::mpi::bench {

struct BenchCase {
  std::string name;
  Mesh mesh;
  DistType source;
  Mesh target_mesh;
  DistType target;
  std::string note;  // how the anchor was grown
};

/// The anchors of the file at `path` (`name | mesh | source | target [| target mesh]`)
/// with 4-byte elements, divisible dims, pending reductions only where the plan does
/// some of them (the all_reduce_then_slice baseline's cases), and a device count
/// dividing `devices`: a mesh of fewer devices gains a replicated axis `rep` (minor-most)
/// to reach `devices`, and every global size is multiplied by the smallest integer that
/// makes the array at least `min_bytes`. Skipped anchors are listed in `skipped`.
Result<std::vector<BenchCase>> bench_cases(const std::string& path, int64_t devices, int64_t min_bytes,
                                           std::vector<std::string>& skipped);

}  // namespace redist::mpi::bench
