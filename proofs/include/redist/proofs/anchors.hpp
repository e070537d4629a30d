#pragma once
// The anchor corpus (tests/data/anchors.txt): one reshard case per line,
//   name | mesh | source type | target type [| target mesh]   # tags
// with blank lines and lines starting with '#' ignored.

#include <string>
#include <string_view>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"

namespace redist {

struct Anchor {
  std::string name;
  Mesh mesh;
  DistType source;
  Mesh target_mesh;  // the mesh itself unless the line names another device order
  DistType target;
  std::string tags;  // the text after '#', trimmed
};

/// Every case of `text`; the first malformed line is an error naming the line.
Result<std::vector<Anchor>> parse_anchors(std::string_view text);

/// True when the case is in the synthesizer's scope: divisible dims and no pending
/// reduction on either side.
bool divisible_without_reductions(const Anchor& anchor);

}  // namespace redist
