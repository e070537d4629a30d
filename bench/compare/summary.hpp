#pragma once
// The summary text of a comparison run and its CSV rows.

#include <ostream>
#include <vector>

#include "run_case.hpp"

namespace redist::compare {

/// Writes the summary: per baseline the geomean, max and min ratio to redist (greedy)
/// of modeled time and of peak memory; the share of cases where redist is LB-tight;
/// greedy against optimal (share equal, worst ratio, the cases greedy loses); and every
/// case where a baseline beats redist on time (within or beyond redist's peak memory)
/// or on peak memory, with the reason.
void write_summary(std::ostream& out, const std::vector<CaseResult>& results);

/// Writes one CSV row per (case, planner), with a header line.
void write_csv(std::ostream& out, const std::vector<CaseResult>& results);

}  // namespace redist::compare
