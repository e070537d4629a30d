// Running the checker for a verb and printing its verdicts.

#include "verify_output.hpp"
#include "plan_json.hpp"

#include <iostream>
#include <nlohmann/json.hpp>

#include "input.hpp"
#include "numbers.hpp"
#include "redist/proofs/certificate.hpp"
#include "redist/plan/figures.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/verify/checker.hpp"

namespace redist::cli {
namespace {

/// The JSON of a list of integers.
nlohmann::json ints(const std::vector<int64_t>& values) { return nlohmann::json(values); }

/// The first refuted property's name and counterexample, if any.
std::optional<std::pair<std::string, Counterexample>> first_counterexample(const CheckReport& r) {
  const std::pair<const char*, const PropertyResult*> all[] = {
      {"correct", &r.correct}, {"memory", &r.memory}, {"no_peak", &r.no_peak}};
  for (const auto& [name, p] : all)
    if (p->verdict == Verdict::refuted && p->counterexample) return std::pair{std::string(name), *p->counterexample};
  return std::nullopt;
}

/// The `verdict` object of the JSON output.
nlohmann::json verdict_json(const CheckReport& r) {
  nlohmann::json v;
  v["correct"] = verdict_name(r.correct.verdict);
  v["memory"] = verdict_name(r.memory.verdict);
  v["no_peak"] = verdict_name(r.no_peak.verdict);
  v["transfers"] = transfers_name(r.transfers);
  v["received_over_lower_bound"] = r.received_over_lower_bound;
  v["transient_peak_bytes"] = to_decimal(r.transient_peak_bytes);
  if (auto ce = first_counterexample(r)) {
    const Counterexample& c = ce->second;
    v["counterexample"] = {{"property", ce->first}, {"device", c.device},
                           {"coords", ints(c.coords)},  {"local_index", ints(c.local_index)},
                           {"expected_global", ints(c.expected_global)},
                           {"actual_global", c.actual_global ? ints(*c.actual_global) : nlohmann::json(nullptr)},
                           {"step", c.step},           {"reason", c.reason}};
  }
  v["solver_ms"] = r.solver_ms;
  return v;
}

/// The `redist plan` object of `plan` (same keys) with the verdicts added.
nlohmann::json plan_json_with_verdict(const Plan& plan, const std::vector<TypedState>& states, const PlanFigures& f,
                                      const CheckReport& r) {
  nlohmann::json out = plan_json(plan, states, f);
  out["verdict"] = verdict_json(r);
  out["verified"] = r.verified();
  return out;
}

/// One "#   name  verdict: detail" line, with the counterexample under it.
void print_property(const char* name, const PropertyResult& p, const std::string& shown) {
  std::string label = name;
  label.resize(16, ' ');
  std::cout << "#   " << label << shown;
  if (p.counterexample) {
    std::cout << "\n#     counterexample: " << p.counterexample->to_string() << "\n";
    return;
  }
  if (!p.detail.empty()) std::cout << ": " << p.detail;
  std::cout << "\n";
}

/// The plan text (with the type after each step) and the verdicts, as '#' comments
/// around the plan so that the output reads back as a plan.
void print_text(const Plan& plan, const std::vector<TypedState>& states, const CheckReport& r,
                const std::string& origin) {
  std::cout << "# redist " << origin << ": " << plan.steps.size() << " step" << (plan.steps.size() == 1 ? "" : "s")
            << "\n";
  std::istringstream text(to_string(plan));
  std::size_t next = 0;
  for (std::string line; std::getline(text, line);) {
    std::cout << line << "\n";
    if (next < plan.steps.size() && line == to_string(plan.steps[next]))
      std::cout << "#   -> " << to_string(states[next++].type) << "\n";
  }
  std::cout << "#\n# verdicts (Z3, " << static_cast<int64_t>(r.solver_ms + 0.5) << " ms):\n";
  print_property("correct", r.correct, std::string(verdict_name(r.correct.verdict)));
  print_property("memory", r.memory, std::string(verdict_name(r.memory.verdict)));
  std::cout << "#     peak " << to_decimal(r.peak_local_bytes) << " of " << to_decimal(r.bound_bytes)
            << " bytes per device; transient peak (input + output of a step) " << to_decimal(r.transient_peak_bytes)
            << "\n";
  print_property("no_peak", r.no_peak, std::string(verdict_name(r.no_peak.verdict)));
  print_property("transfers", r.tight, std::string(transfers_name(r.transfers)));
  std::cout << "#     received " << to_decimal(r.recv_bytes_max) << " bytes per device (max), lower bound "
            << (r.lower_bound_bytes_max ? to_decimal(*r.lower_bound_bytes_max) : std::string("unknown"))
            << ", ratio " << r.received_over_lower_bound << "\n";
  std::cout << "# " << (r.verified() ? "VERIFIED" : "NOT VERIFIED") << "\n";
}

}  // namespace

void add_verify_options(CLI::App& cmd, VerifyArgs& args) {
  cmd.add_option("--budget", args.budget,
                 "Per-device memory bound in bytes, e.g. 4096, 64KiB, 1GB (default: max of source and target)");
  cmd.add_option("--certificate", args.certificate_dir,
                 "Write one SMT-LIB2 certificate per property and a manifest.json into this directory "
                 "(`z3 FILE` prints unsat for a proved property)");
  cmd.add_flag("--json", args.json, "Print one JSON object: redist plan's keys plus 'verified' and a 'verdict' object");
  cmd.add_option("--timeout-ms", args.timeout_ms,
                 "Solver timeout per property query, in ms, 1 to 4294967295 (timeout: unknown)")
      ->capture_default_str();
}

std::optional<VerifySettings> parse_verify_settings(const VerifyArgs& args) {
  VerifySettings settings;
  if (args.budget && !(settings.budget = parse_bytes_arg(*args.budget, "--budget"))) return std::nullopt;
  const auto timeout = parse_number_arg(args.timeout_ms, "--timeout-ms", 1, UINT32_MAX);
  if (!timeout) return std::nullopt;
  settings.timeout_ms = static_cast<unsigned>(*timeout);
  return settings;
}

int verify_and_report(const Plan& plan, const VerifyArgs& args, const VerifySettings& settings,
                      const std::string& origin, const nlohmann::json& extra) {
  auto states = type_plan(plan);
  if (!states) return fail(kExitBadInput, "the plan does not type-check: " + states.error().to_string());
  CheckOptions options;
  if (settings.budget) options.budget_bytes = BigInt(*settings.budget);
  options.timeout_ms = settings.timeout_ms;
  options.keep_smt2 = !args.certificate_dir.empty();
  auto report = check_plan(plan, options);
  if (!report) {
    const bool internal = report.error().kind == Error::Kind::runtime;
    return fail(internal ? kExitInternal : kExitBadInput, report.error().to_string());
  }
  auto figures = plan_figures(plan, settings.budget);
  if (!figures) return fail(kExitBadInput, figures.error().to_string());
  if (options.keep_smt2) {
    auto written = write_certificates(args.certificate_dir, plan, *report);
    if (!written) return fail(kExitBadInput, written.error().to_string(), "--certificate");
  }
  const int exit_code = report->verified() ? kExitOk : kExitUnproved;
  if (args.json) {
    nlohmann::json out = json_header(exit_code);
    out.update(plan_json_with_verdict(plan, *states, *figures, *report));
    if (!extra.is_null()) out.update(extra);
    std::cout << out.dump(2) << "\n";
  } else {
    print_text(plan, *states, *report, origin);
  }
  return exit_code;
}

}  // namespace redist::cli
