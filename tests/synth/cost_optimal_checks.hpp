#pragma once
// Checks of optimal plans: the plan type-checks and ends at the target; every state
// fits the bound; and the interpreter, run from the source data, leaves every device
// holding exactly its target shard (every element compared).

#include <string>

#include "redist/core/bigint.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/plan/typing.hpp"
#include "redist/verify/interpreter.hpp"

namespace redist::testing {

/// Elements (over all devices) beyond which the interpreter is not run.
inline constexpr int64_t kMaxCheckedElements = int64_t{1} << 20;

/// The first way `plan` fails the checks, with its text; empty when it passes them.
inline std::string optimal_problem(const Plan& plan, const Mesh& src_mesh, const DistType& src,
                                   const Mesh& dst_mesh, const DistType& dst, const BigInt& bound) {
  const std::string where = "\nplan:\n" + to_string(plan);
  if (!(plan.mesh == src_mesh) || plan.source != src) return "starts elsewhere" + where;
  auto states = type_plan(plan);
  if (!states) return "does not type-check: " + states.error().to_string() + where;
  const TypedState last = states->empty() ? TypedState{plan.mesh, plan.source} : states->back();
  if (!(last.mesh == dst_mesh)) return "ends on mesh " + to_string(last.mesh) + where;
  if (canonical(last.type, dst_mesh) != canonical(dst, dst_mesh)) return "ends at " + to_string(last.type) + where;
  BigInt peak = local_bytes(src);
  for (const auto& s : *states) peak = std::max(peak, local_bytes(s.type));
  if (peak > bound) return "peak " + to_decimal(peak) + " over the bound " + to_decimal(bound) + where;
  if (peak / elem_bytes(src.elem) * src_mesh.num_devices() > kMaxCheckedElements) return "";
  auto data = run_plan(plan, distribute(src_mesh, src));
  if (!data) return "does not run: " + data.error().to_string() + where;
  if (auto mismatch = compare(dst_mesh, dst, *data)) return "wrong data: " + mismatch->to_string() + where;
  return "";
}

}  // namespace redist::testing
