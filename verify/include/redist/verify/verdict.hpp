#pragma once
// Verdicts of the checker (docs/design.md §3): each property is proved, refuted with a
// concrete counterexample, or unknown with the solver's reason. Unknown is never
// reported as proved.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "redist/core/bigint.hpp"

namespace redist {

enum class Verdict { proved, refuted, unknown };

/// "proved", "refuted" or "unknown".
std::string_view verdict_name(Verdict verdict);

/// A concrete witness that a property fails.
struct Counterexample {
  int64_t device = 0;                  // physical device id
  std::vector<int64_t> coords;         // its mesh coordinates
  std::vector<int64_t> local_index;    // empty when the failure is not about one element
  std::vector<int64_t> expected_global;  // global index the type prescribes there (may be empty)
  std::optional<std::vector<int64_t>> actual_global;  // global index found there, if any
  int step = 0;        // 1-based step where it goes wrong; 0 when no single step is to blame
  std::string reason;  // one sentence

  /// One line: "device 3 [1, 1], local [0, 2]: expected global [4, 2], got [6, 2] (step 2: why)"
  /// (coordinates in mesh axis order).
  std::string to_string() const;
};

/// The outcome of one property query.
struct PropertyResult {
  Verdict verdict = Verdict::unknown;
  std::optional<Counterexample> counterexample;  // when refuted
  std::string detail;       // unknown: the solver's reason; otherwise a short note
  double solver_ms = 0;     // time spent in the solver on this query
  std::string smt2;         // the query as self-contained SMT-LIB2, when asked for
};

/// G3b: received bytes against the lower bound LB(d) on every device.
enum class Transfers { tight, excess, unknown };

/// "tight", "excess" or "unknown".
std::string_view transfers_name(Transfers transfers);

/// Every verdict and figure of one check.
struct CheckReport {
  PropertyResult correct;   // G1
  PropertyResult memory;    // G2
  PropertyResult no_peak;   // G3a
  PropertyResult tight;     // G3b: proved = received == LB(d) on every device
  Transfers transfers = Transfers::unknown;
  std::string received_over_lower_bound;  // recv_bytes_max / lower_bound_bytes_max, decimal
                                          // ("unknown" without a lower bound)
  BigInt bound_bytes;            // G2 bound: the budget or max(source, target) local bytes
  BigInt peak_local_bytes;       // largest local buffer after any step (source included)
  BigInt transient_peak_bytes;   // largest input + output of one step
  BigInt recv_bytes_max;         // bytes received by one device over the plan, max over devices
  std::optional<BigInt> lower_bound_bytes_max;  // LB(d), max over devices; nullopt when
                                               // there are too many devices to count
  double solver_ms = 0;          // total over the queries

  /// True when correct, memory and no_peak are proved and transfers is known (tight or
  /// excess): the plan is verified. Excess is a proved figure, not a failure.
  bool verified() const;
};

}  // namespace redist
