// Names and text of verdicts and counterexamples.

#include "redist/verify/verdict.hpp"

#include "text.hpp"

namespace redist {

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::proved: return "proved";
    case Verdict::refuted: return "refuted";
    case Verdict::unknown: break;
  }
  return "unknown";
}

std::string_view transfers_name(Transfers transfers) {
  switch (transfers) {
    case Transfers::tight: return "tight";
    case Transfers::excess: return "excess";
    case Transfers::unknown: break;
  }
  return "unknown";
}

std::string Counterexample::to_string() const {
  std::string out = "device " + std::to_string(device) + " " + smt::shape_text(coords);
  if (!local_index.empty()) out += ", local " + smt::shape_text(local_index);
  if (!expected_global.empty()) out += ": expected global " + smt::shape_text(expected_global);
  if (actual_global) out += ", got " + (actual_global->empty() ? std::string("padding") : smt::shape_text(*actual_global));
  return out + " (" + (step > 0 ? "step " + std::to_string(step) + ": " : "") + reason + ")";
}

bool CheckReport::verified() const {
  return correct.verdict == Verdict::proved && memory.verdict == Verdict::proved &&
         no_peak.verdict == Verdict::proved && transfers != Transfers::unknown;
}

}  // namespace redist
