// Names and text of verdicts and counterexamples.

#include "redist/verify/verdict.hpp"

#include <iterator>

#include <fmt/format.h>

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
  std::string out = fmt::format("device {} {}", device, smt::shape_text(coords));
  auto it = std::back_inserter(out);
  if (!local_index.empty()) fmt::format_to(it, ", local {}", smt::shape_text(local_index));
  if (!expected_global.empty()) fmt::format_to(it, ": expected global {}", smt::shape_text(expected_global));
  if (actual_global)
    fmt::format_to(it, ", got {}", actual_global->empty() ? "padding" : smt::shape_text(*actual_global));
  if (step > 0) fmt::format_to(it, " (step {}: {})", step, reason);
  else fmt::format_to(it, " ({})", reason);
  return out;
}

bool CheckReport::verified() const {
  return correct.verdict == Verdict::proved && memory.verdict == Verdict::proved &&
         no_peak.verdict == Verdict::proved && transfers != Transfers::unknown;
}

}  // namespace redist
