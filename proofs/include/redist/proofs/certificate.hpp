#pragma once
// Certificates (docs/design.md §3): every property query of a check as a self-contained
// SMT-LIB2 file (declarations, table definitions, assertions, (check-sat)) that the
// z3 command answers independently of the library: `unsat` for a proved property,
// `sat` for a refuted one. A manifest.json lists them with the plan.

#include <filesystem>
#include <string>
#include <vector>

#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"
#include "redist/verify/verdict.hpp"

namespace redist {

/// One written certificate.
struct CertificateEntry {
  std::string property;  // "correct", "memory", "no_peak", "transfers"
  std::string file;      // file name inside the directory
  Verdict verdict = Verdict::unknown;
  std::string expect;    // what `z3 FILE` must print: "unsat" (proved) or "sat" (refuted)
};

/// Writes `<dir>/<property>.smt2` for every property of `report` that has a query
/// (the report must come from a check with keep_smt2), and `<dir>/manifest.json`
/// naming the plan and each file. Creates `dir`. Returns the entries written.
Result<std::vector<CertificateEntry>> write_certificates(const std::filesystem::path& dir, const Plan& plan,
                                                         const CheckReport& report);

}  // namespace redist
