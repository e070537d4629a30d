// Writing certificates and their manifest.

#include "redist/proofs/certificate.hpp"

#include <fmt/format.h>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <utility>

#include "redist/plan/plan_text.hpp"
#include "redist/verify/checker.hpp"

namespace redist {

namespace {

/// `text` with "; " before every line.
std::string commented(const std::string& text) {
  std::istringstream in(text);
  std::string out, line;
  while (std::getline(in, line)) out += ";   " + line + "\n";
  return out;
}

/// Writes `content` to `path`; an error when the file cannot be written.
Status write_file(const std::filesystem::path& path, const std::string& content) {
  std::ofstream out(path, std::ios::binary);
  out << content;
  out.close();
  if (!out) return Error{Error::Kind::runtime, "cannot write " + path.string(), Error::npos};
  return Ok{};
}

}  // namespace

Result<std::vector<CertificateEntry>> write_certificates(const std::filesystem::path& dir, const Plan& plan,
                                                         const CheckReport& report) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return Error{Error::Kind::runtime, fmt::format("cannot create {}: {}", dir.string(), ec.message()), Error::npos};
  const std::string plan_text = to_string(plan);
  const std::pair<const char*, const PropertyResult*> properties[] = {
      {"correct", &report.correct}, {"memory", &report.memory}, {"no_peak", &report.no_peak},
      {"transfers", &report.tight}};
  std::vector<CertificateEntry> entries;
  nlohmann::json files = nlohmann::json::array();
  for (const auto& [name, result] : properties) {
    if (result->smt2.empty() || result->verdict == Verdict::unknown) continue;
    CertificateEntry e{name, std::string(name) + ".smt2", result->verdict,
                       result->verdict == Verdict::proved ? "unsat" : "sat"};
    const std::string header = fmt::format(
        "; redist certificate: property '{}' is {}; `z3 {}` must print {}.\n; The query is the negation of the "
        "property for the plan:\n{}",
        e.property, verdict_name(e.verdict), e.file, e.expect, commented(plan_text));
    if (auto ok = write_file(dir / e.file, header + result->smt2); !ok) return ok.error();
    files.push_back({{"property", e.property}, {"file", e.file}, {"verdict", verdict_name(e.verdict)},
                     {"expect", e.expect}});
    entries.push_back(std::move(e));
  }
  const nlohmann::json manifest = {{"redist_version", REDIST_VERSION},
                                   {"z3_version", solver_version()},
                                   {"plan", plan_text},
                                   {"transfers", transfers_name(report.transfers)},
                                   {"received_over_lower_bound", report.received_over_lower_bound},
                                   {"certificates", files}};
  if (auto ok = write_file(dir / "manifest.json", manifest.dump(2) + "\n"); !ok) return ok.error();
  return entries;
}

}  // namespace redist
