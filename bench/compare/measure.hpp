#pragma once
// The figures of one plan of one case, as the comparison harness reports them.

#include <string>
#include <vector>

#include "redist/core/bigint.hpp"
#include "redist/core/result.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/plan/plan.hpp"

namespace redist::compare {

struct Measured {
  std::string planner;  // greedy, optimal, shardy, xla_style, gather_then_slice
  std::string status;   // "ok", or why there is no plan
  int steps = 0;
  int collectives = 0;
  double time_us = 0;
  BigInt wire_bytes;   // per device, summed over steps (the cost model's bytes)
  BigInt inter_bytes;  // the part of wire_bytes on inter-node links
  BigInt peak_bytes;
  BigInt recv_max;
  BigInt recv_total;
  std::vector<BigInt> profile;  // local bytes of the source, then after each step
  std::string shape;            // the steps in short, e.g. "A2A(4) CP AG(2)"
  bool ok() const { return status == "ok"; }
};

/// The figures of `plan` under `model` (status ok), or a row whose status carries the
/// error of `plan` or of its figures.
Measured measure(const CostModel& model, const std::string& planner, const Result<Plan>& plan);

}  // namespace redist::compare
