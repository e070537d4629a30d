#pragma once
// The reshard cases the comparison harness and the optimal benchmarks run on: the
// anchors (tests/data/anchors.txt), the Shardy suite with Shardy's own plan
// (tests/data/shardy_reshard_to_collectives.json, read with the synthesis tests'
// loader tests/synth/shardy_cases.hpp), and a seeded random suite.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/plan/plan.hpp"

namespace redist::corpus {

struct Case {
  std::string suite;  // "anchor", "shardy" or "random"
  std::string name;
  Mesh mesh;
  Mesh target_mesh;
  DistType src;
  DistType dst;
  std::optional<Plan> shardy;  // Shardy's plan, for cases of its suite
  std::string skip;            // why the case is out of scope, if it is
};

/// Every case of the anchors file at `path`; a case whose text does not parse is kept
/// with `skip` set.
std::vector<Case> anchor_cases(const std::string& path);

/// Every case of the Shardy suite at `path`, with Shardy's collectives (its check
/// lines) as a plan on our IR, ending on the target mesh; `skip` says why a case is
/// out of scope (no collectives, other axes, padding, a line that does not translate).
std::vector<Case> shardy_cases(const std::string& path);

struct RandomSuiteOptions {
  int count = 1000;
  uint64_t seed = 20240611;
  int min_axes = 1;
  int max_axes = 6;
  int64_t max_devices = 4096;
  int min_rank = 1;
  int max_rank = 4;
  /// Whole-array sizes are drawn log-uniformly in [2^min_log2_bytes, 2^max_log2_bytes].
  int min_log2_bytes = 16;
  int max_log2_bytes = 30;
  /// Each mesh gets one more axis, `s` of size 1, at a random place in its axis order,
  /// which the target names at a random place of a random dim, and the source half the
  /// time (a partitioner's ('data', 'model') mesh with one model shard). The cases are
  /// otherwise those without it: its places are drawn from a stream of their own.
  bool size_one_axis = false;
};

/// `options.count` random divisible cases without reductions: meshes of min_axes..
/// max_axes axes (sizes 2, 3, 4, 6, 8, 16; an axis is cut to 2 where the device count
/// would pass max_devices, dropped where even 2 would) one in ten with a new device
/// order for the target; types of rank min_rank..max_rank whose axes (some split into
/// two sub-axes) go to random dims or stay replicated. Deterministic in the seed.
std::vector<Case> random_cases(const RandomSuiteOptions& options);

/// Returns `text` as one CSV field: quoted when it has a comma, a quote or a newline
/// (quotes doubled, newlines as spaces).
std::string csv_field(const std::string& text);

/// Returns the case's mesh as the harness CSVs write it: "MESH", or "MESH -> TARGET_MESH"
/// where the target's device order differs.
std::string mesh_text(const Case& c);

}  // namespace redist::corpus
