// Reading the anchor corpus and choosing the plans of its cases.

#include "anchors.hpp"

#include <fstream>
#include <map>
#include <sstream>

#include "redist/plan/plan_text.hpp"
#include "redist/synth/synthesize.hpp"

namespace redist::mpi::testing {

namespace {

/// Plans for anchors the synthesizer leaves out of scope, as plan text after the
/// source line.
const std::map<std::string, std::string>& hand_plans() {
  static const std::map<std::string, std::string> plans = {
      // One reduce-scatter over all three axes, then a gather back to {b}.
      {"partial_to_reduce_scatter", "reduce_scatter(dim=0, axes={b, a, c})\nall_gather(dim=0, axes={a, c})\n"},
  };
  return plans;
}

}  // namespace

Result<std::vector<Anchor>> read_anchors(const std::string& path) {
  std::ifstream in(path);
  if (!in) return invalid_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return parse_anchors(text.str());
}

Result<Plan> anchor_plan(const Anchor& anchor) {
  auto plan = synthesize(anchor.mesh, anchor.source, anchor.target_mesh, anchor.target);
  if (plan || plan.error().kind != Error::Kind::unsupported) return plan;
  const auto hand = hand_plans().find(anchor.name);
  if (hand == hand_plans().end()) return plan.error();
  return parse_plan("mesh " + to_string(anchor.mesh) + "\nsource " + to_string(anchor.source) + "\n" + hand->second +
                    "target " + to_string(anchor.target) + "\n");
}

}  // namespace redist::mpi::testing
