#pragma once
// One case of the comparison: every planner's plan measured, and the lower bound.

#include <optional>
#include <vector>

#include "corpus.hpp"
#include "measure.hpp"
#include "redist/plan/figures.hpp"
#include "redist/synth/optimal.hpp"
#include "redist/synth/synthesize.hpp"

namespace redist::compare {

/// The planners in report order; redist's default plan (synthesize(): the engine with a
/// bounded budget, under the case's model), labelled "greedy", is the reference.
inline const std::vector<std::string> kPlanners = {"greedy", "optimal", "shardy", "xla_style", "gather_then_slice"};

struct CaseResult {
  const corpus::Case* source = nullptr;
  CostModel model;
  std::optional<LowerBound> lower_bound;
  std::vector<Measured> plans;  // in kPlanners order; shardy only where the suite gives it
  int64_t optimal_expanded = 0;
  double greedy_us = 0;   // wall time of synthesize() (the engine's default mode), median of 5 calls
  double optimal_us = 0;  // wall time of optimal_plan(), one call
  std::string greedy_text;  // synthesize()'s plan as text, or its error

  /// The row of `planner`, if the case has one.
  const Measured* find(const std::string& planner) const;
};

/// Runs every planner on `c` under `model`: the default synthesis with `synth` (its cost
/// model replaced by `model`), the optimal search with `options`.
CaseResult run_case(const corpus::Case& c, const CostModel& model, const OptimalOptions& options,
                    SynthOptions synth = {});

}  // namespace redist::compare
