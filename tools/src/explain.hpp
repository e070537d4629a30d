#pragma once
// `redist explain`: a plan shown to people. Per step, in words, which blocks each
// device sends, receives, keeps and drops, why the step is there (which axis moves
// from where to where) and the memory profile (explain_words.cpp); and a picture of
// the device grid before and after each step with blocks coloured by their global
// position (explain_svg.cpp).

#include <string>
#include <vector>

#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"

namespace redist::cli {

/// Where each axis factor of `before` and `after` (on `mesh`) sits, as sentences naming
/// every factor that moves: "x:(2)2 moves from dim 0 to dim 1", "y leaves dim 1 (now
/// replicated): ...". Axes are cut into the factors either type uses, so a whole axis
/// split by the other type is described factor by factor.
std::vector<std::string> axis_moves(const Mesh& mesh, const DistType& before, const DistType& after);

/// The whole explanation of `plan` (which type-checks, `states` from type_plan) in
/// words; at most `max_devices` devices are described per step.
std::string explain_words(const Plan& plan, const std::vector<TypedState>& states, int max_devices);

/// The SVG picture of `plan`: one row per step, the device grid before and after it.
std::string explain_svg(const Plan& plan, const std::vector<TypedState>& states);

}  // namespace redist::cli
