// Reading the anchor corpus and choosing the plans of its cases.

#include "anchors.hpp"

#include <fstream>
#include <sstream>

#include "redist/synth/cost_model.hpp"
#include "redist/synth/synthesize.hpp"

namespace redist::mpi::testing {

Result<std::vector<Anchor>> read_anchors(const std::string& path) {
  std::ifstream in(path);
  if (!in) return invalid_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return parse_anchors(text.str());
}

Result<Plan> anchor_plan(const Anchor& anchor) {
  SynthOptions options;
  auto model = read_cost_model(REDIST_DEVICE_SETS_COST_FILE);
  if (!model) return model.error();
  if (anchor.tags.find("staged") != std::string::npos) options.cost_model = &*model;
  return synthesize(anchor.mesh, anchor.source, anchor.target_mesh, anchor.target, options);
}

}  // namespace redist::mpi::testing
