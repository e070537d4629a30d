#pragma once
// The JSON object `redist plan --json` prints, shared by the verbs that print plans.

#include <nlohmann/json.hpp>

#include <vector>

#include "redist/plan/figures.hpp"
#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"

namespace redist::cli {

/// The object with keys source, target, steps (op, text, type_after,
/// local_bytes_after, send_bytes_max, recv_bytes_max, group_size), peak_local_bytes,
/// bound_bytes, recv_bytes_max, recv_bytes_total, lower_bound_bytes_max and
/// lower_bound_bytes_total; byte figures as decimal strings (null when unknown).
/// `states` are the states after each step (type_plan).
nlohmann::json plan_json(const Plan& plan, const std::vector<TypedState>& states, const PlanFigures& figures);

}  // namespace redist::cli
