// redist-certify ANCHORS OUTDIR: synthesizes and checks every divisible case without
// reductions of the anchor corpus and writes its certificates to OUTDIR/<name>/.
// Exit 0 when every plan is verified, 1 when one is not, 2 on bad input.

#include <fstream>
#include <iostream>
#include <sstream>

#include "redist/proofs/anchors.hpp"
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

/// Certifies one anchor into `dir`; returns false when its plan is not verified.
bool certify(const redist::Anchor& a, const std::filesystem::path& dir) {
  auto plan = redist::synthesize(a.mesh, a.source, a.target_mesh, a.target);
  if (!plan) {
    std::cerr << a.name << ": no plan: " << plan.error().to_string() << "\n";
    return false;
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
  std::cout << a.name << ": " << written->size() << " certificates, transfers "
            << redist::transfers_name(report->transfers) << (report->verified() ? "" : ", NOT VERIFIED") << "\n";
  return report->verified();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::cerr << "usage: redist-certify ANCHORS OUTDIR\n";
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
  for (const auto& a : *anchors)
    if (redist::divisible_without_reductions(a)) all = certify(a, argv[2]) && all;
  return all ? 0 : 1;
}
