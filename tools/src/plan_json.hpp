#pragma once
// The JSON objects the verbs print with --json (docs/cli.md "JSON"), shared by the verbs
// that print plans.

#include <nlohmann/json.hpp>

#include <vector>

#include "redist/plan/figures.hpp"
#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"

namespace redist::cli {

/// Meshes with more devices than this print their groups and pairs as null in JSON
/// (the symbolic `group_axes` stay): the tables grow with the device count.
inline constexpr int64_t kMaxJsonTableDevices = 4096;

/// The object of `mesh`: text, axes [{name, size}], device_count, device_order (the
/// explicit order, or null for row-major).
nlohmann::json mesh_json(const Mesh& mesh);

/// The object with keys mesh, target_mesh, source, target, steps (op, text, type_after,
/// local_bytes_after, send_bytes_max, recv_bytes_max, group_size, group_axes, groups,
/// pairs), peak_local_bytes, bound_bytes, recv_bytes_max, recv_bytes_total,
/// lower_bound_bytes_max, lower_bound_bytes_total and verified (false: this object
/// proves nothing; the verifying verbs set it); byte figures as decimal strings (null
/// when unknown). `states` are the states after each step (type_plan).
nlohmann::json plan_json(const Plan& plan, const std::vector<TypedState>& states, const PlanFigures& figures);

}  // namespace redist::cli
