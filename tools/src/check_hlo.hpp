#pragma once
// `redist check --from-hlo FILE`: import XLA's compiled reshard (backends/hlo import.hpp)
// and prove it with the Z3 checker.

#include <string>

#include "verify_output.hpp"

namespace redist::cli {

/// Imports the HLO module in `path` ("-": standard input), checks it and prints the
/// imported steps, the verdicts and the G3 figures (text, or JSON with args.json).
/// Returns 0 verified, 1 a property refuted or unknown, 2 bad input.
int run_check_hlo(const std::string& path, const VerifyArgs& args);

}  // namespace redist::cli
