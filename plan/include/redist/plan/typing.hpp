#pragma once
// Typing rules of the steps: applying a step to a (mesh, type) yields the next one or
// an error saying why the step does not apply.

#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"

namespace redist {

/// A type together with the mesh (device order) it lives on.
struct TypedState {
  Mesh mesh;
  DistType type;
  bool operator==(const TypedState&) const = default;
};

/// The state after `step`, or why the step does not apply (not a suffix, axis already
/// used, not divisible, local sizes differ for a permute, ...).
Result<TypedState> apply_step(const TypedState& before, const Step& step);

/// Ok when every send of a transfer's table is from a device of `before.mesh` to one
/// of `after.mesh` with one start and extent >= 1 per dim, its box inside both local
/// buffers; else an error naming the first bad send (1-based). Whether the sends cover
/// the target is the checker's question.
Status check_sends(const TransferTable& sends, const TypedState& before, const TypedState& after);

/// States after each step of `plan` (element i follows step i); checks the asserted
/// target. Errors name the 1-based step.
Result<std::vector<TypedState>> type_plan(const Plan& plan);

/// type_plan(plan) resumed: `typed` holds the states of plan's first typed.size() steps
/// as type_plan gives them (e.g. another plan's, which starts with the same source and
/// steps), and only the steps after them are typed.
Result<std::vector<TypedState>> type_plan(const Plan& plan, std::vector<TypedState> typed);

}  // namespace redist
