// redist-certify ANCHORS OUTDIR [PLANS]: checks a plan for every case of the anchor
// corpus and writes its certificates to OUTDIR/<name>/. The plan is the hand-written
// PLANS/<name>.plan when there is one (cases the synthesizer does not take yet), else
// the synthesized one; cases with neither are listed and skipped. Exit 0 when every
// plan is verified (for plans with reductions, whose transfers are not measured yet:
// G1, G2 and G3a proved), 1 when one is not, 2 on bad input.

#include <fstream>
#include <iostream>
#include <sstream>

#include "redist/proofs/anchors.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/proofs/certificate.hpp"
#include "redist/synth/synthesize.hpp"
#include "redist/verify/checker.hpp"

namespace {

/// The whole content of `path`, or nullopt when it cannot be read.
std::optional<std::string> read_text(const char* path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

/// The plan of anchor `a`: PLANS/<name>.plan when it exists, else synthesized (pending
/// reductions and padded dims included); the reason when there is none.
redist::Result<redist::Plan> plan_for(const redist::Anchor& a, const std::filesystem::path& plans) {
  const auto path = plans / (a.name + ".plan");
  if (!plans.empty() && std::filesystem::exists(path)) {
    const auto text = read_text(path.c_str());
    if (!text) return redist::Error{redist::Error::Kind::invalid, "cannot read " + path.string(), redist::Error::npos};
    return redist::parse_plan(*text);
  }
  return redist::synthesize(a.mesh, a.source, a.target_mesh, a.target);
}

/// True when `report` proves the plan: verified, or for a plan with reductions or padded
/// dims (whose transfers are not always measured: docs/checker.md) G1, G2 and G3a proved.
bool proved(const redist::CheckReport& report, const redist::Plan& plan) {
  using redist::Verdict;
  bool unmeasured = !plan.source.reduce_axes.empty() || redist::has_padding(plan.source);
  for (const auto& s : plan.steps)
    unmeasured = unmeasured || std::holds_alternative<redist::ReduceScatter>(s.op) ||
                 std::holds_alternative<redist::AllReduce>(s.op);
  if (!unmeasured) return report.verified();
  return report.correct.verdict == Verdict::proved && report.memory.verdict == Verdict::proved &&
         report.no_peak.verdict == Verdict::proved;
}

/// Certifies one anchor into `dir`; returns false when its plan is not proved.
bool certify(const redist::Anchor& a, const std::filesystem::path& dir, const std::filesystem::path& plans) {
  auto plan = plan_for(a, plans);
  if (!plan) {  // out of scope: skipped; a plan file that does not parse: a failure
    std::cerr << a.name << ": no plan: " << plan.error().to_string() << "\n";
    return plan.error().kind == redist::Error::Kind::unsupported;
  }
  redist::CheckOptions options;
  options.keep_smt2 = true;
  auto report = redist::check_plan(*plan, options);
  if (!report) {
    std::cerr << a.name << ": " << report.error().to_string() << "\n";
    return false;
  }
  auto written = redist::write_certificates(dir / a.name, *plan, *report);
  if (!written) {
    std::cerr << a.name << ": " << written.error().to_string() << "\n";
    return false;
  }
  const bool ok = proved(*report, *plan);
  std::cout << a.name << ": " << written->size() << " certificates, transfers "
            << redist::transfers_name(report->transfers) << (ok ? "" : ", NOT VERIFIED") << "\n";
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    std::cerr << "usage: redist-certify ANCHORS OUTDIR [PLANS]\n";
    return 2;
  }
  const auto text = read_text(argv[1]);
  if (!text) {
    std::cerr << "redist-certify: cannot read " << argv[1] << "\n";
    return 2;
  }
  auto anchors = redist::parse_anchors(*text);
  if (!anchors) {
    std::cerr << "redist-certify: " << argv[1] << ": " << anchors.error().to_string() << "\n";
    return 2;
  }
  bool all = true;
  const std::filesystem::path plans = argc == 4 ? argv[3] : "";
  for (const auto& a : *anchors) all = certify(a, argv[2], plans) && all;
  return all ? 0 : 1;
}
