#pragma once
// The Z3 checker (docs/design.md §3): proves G1-G3 of a LOWERED plan against the types.
// Device coordinates and local indices are symbolic (one bounded integer per mesh axis
// and per dim), so the size of every query is independent of the device count and of
// the array size; explicit group/pair tables and explicit device orders are encoded as
// finite tables. See docs/checker.md.

#include <optional>
#include <string>

#include "redist/core/bigint.hpp"
#include "redist/core/result.hpp"
#include "redist/plan/lowered.hpp"
#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"
#include "redist/verify/verdict.hpp"

namespace redist {

struct CheckOptions {
  /// G2 bound in bytes; default max(source, target) local bytes.
  std::optional<BigInt> budget_bytes;
  /// Per-query solver timeout in milliseconds; a timeout makes the verdict unknown.
  unsigned timeout_ms = 10000;
  /// Keep each query's SMT-LIB2 text in PropertyResult::smt2 (for certificates).
  bool keep_smt2 = false;
};

/// The verdicts and figures of `plan` (lowered) as a redistribution to `target`
/// (a type on the mesh the plan ends on). An error only for a malformed lowering
/// (explicit groups that do not partition the devices, pairs that miss a target,
/// offsets tables of the wrong length) or a target of another rank or mesh.
Result<CheckReport> check_lowered(const LoweredPlan& plan, const TypedState& target,
                                  const CheckOptions& options = {});

/// Types and lowers `plan`, then checks it against its asserted target, or against
/// its own final type when it asserts none. Typing errors are returned as errors.
Result<CheckReport> check_plan(const Plan& plan, const CheckOptions& options = {});

/// The version of the Z3 library the checker runs ("4.8.12"), for certificates.
std::string solver_version();

}  // namespace redist
