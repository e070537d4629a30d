// lb_tight_census: for each case of the seeded random suite (the comparison harness's,
// same options), whether any plan of the contract's steps is LB-tight
// (tight_plans.hpp), and each tight plan found re-checked by the plan library: typed by
// type_plan and counted by plan_figures, its bytes received must equal the lower bound.
// One CSV row per case; a summary on stdout (docs/lb-tightness.md).
//
//   build/bench/tightness/lb_tight_census --random 400 --seed 13013 --max-axes 5
//     --max-devices 512 --csv census.csv

#include <chrono>
#include <cstdio>
#include <fstream>
#include <map>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "corpus.hpp"
#include "redist/core/bigint.hpp"
#include "redist/plan/figures.hpp"
#include "redist/plan/typing.hpp"
#include "tight_plans.hpp"

namespace {

using namespace redist;
using corpus::csv_field;

/// Returns "tight" where the plan types and receives exactly the lower bound, else why not.
std::string recheck(const Plan& plan) {
  auto figures = plan_figures(plan);
  if (!figures) return "does not type: " + figures.error().message;
  if (!figures->lower_bound) return "lower bound not counted";
  if (figures->recv_bytes_total != figures->lower_bound->total)
    return fmt::format("receives {} against LB {}", to_decimal(figures->recv_bytes_total),
                       to_decimal(figures->lower_bound->total));
  return "tight";
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"Whether any plan of the contract's steps is LB-tight, case by case"};
  corpus::RandomSuiteOptions suite;
  suite.count = 400;
  std::string csv_path;
  int64_t max_states = 200'000;
  bool unbounded = false;
  app.add_option("--random", suite.count, "random cases")->check(CLI::NonNegativeNumber);
  app.add_option("--seed", suite.seed, "random suite seed");
  app.add_option("--max-axes", suite.max_axes, "most mesh axes")->check(CLI::Range(1, 6));
  app.add_option("--max-devices", suite.max_devices, "most devices")->check(CLI::Range(int64_t{2}, int64_t{1} << 20));
  app.add_option("--max-states", max_states, "types visited per digit order before giving up")
      ->check(CLI::PositiveNumber);
  app.add_flag("--unbounded", unbounded, "let types exceed max(source, target) local bytes");
  app.add_option("--csv", csv_path, "one row per case");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);  // prints the message (help: exit status 0)
    return code == 0 ? 0 : 2;      // bad input: exit status 2, as every redist tool
  }

  std::ofstream csv;
  if (!csv_path.empty()) {
    csv.open(csv_path);
    csv << "case,devices,axes,mesh,src,dst,verdict,in_every_order,states,steps,recheck,plan,seconds\n";
  }
  std::map<std::string, int> verdicts;
  int rechecked = 0, recheck_failed = 0, inexpressible = 0, every_order = 0;
  double total_seconds = 0;
  for (const auto& c : corpus::random_cases(suite)) {
    const auto start = std::chrono::steady_clock::now();
    const auto result = tightness::find_tight_plan(c.mesh, c.src, c.target_mesh, c.dst,
                                                   {.max_states = max_states, .within_bound = !unbounded});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    total_seconds += seconds;
    std::string verdict(tightness::verdict_name(result.verdict));
    ++verdicts[verdict];
    every_order += result.in_every_order ? 1 : 0;
    std::string check;
    if (result.plan) {
      check = recheck(*result.plan);
      ++rechecked;
      if (check != "tight") {
        ++recheck_failed;
        fmt::print(stderr, "{}: the tight plan found does not re-check: {}\n", c.name, check);
      }
    } else if (result.verdict == tightness::TightVerdict::found) {
      check = "not in the plan IR";
      ++inexpressible;
    }
    std::string steps;
    for (const auto& s : result.steps) steps += (steps.empty() ? "" : "; ") + s;
    if (csv.is_open()) {
      csv << c.name << ',' << c.mesh.num_devices() << ',' << c.mesh.rank() << ',' << csv_field(corpus::mesh_text(c)) << ','
          << csv_field(to_string(c.src)) << ',' << csv_field(to_string(c.dst)) << ',' << verdict << ','
          << (result.in_every_order ? "yes" : "") << ','
          << result.states << ',' << result.steps.size() << ',' << csv_field(check) << ',' << csv_field(steps)
          << ',' << seconds << '\n';
    }
  }
  fmt::print("LB-tight census: {} random cases (seed {}, at most {} axes and {} devices), {} types per digit order{}\n",
             suite.count, suite.seed, suite.max_axes, suite.max_devices, max_states,
             unbounded ? ", types unbounded" : ", types within max(source, target) local bytes");
  for (const auto& [verdict, n] : verdicts) fmt::print("  {:<22} {}\n", verdict, n);
  fmt::print("  of these, none in any device order or digit split (relaxed_tightness.hpp): {}\n", every_order);
  fmt::print("  tight plans re-checked by plan_figures: {} ({} failed); found but outside the plan IR: {}\n",
             rechecked, recheck_failed, inexpressible);
  fmt::print("  {:.1f} s in all\n", total_seconds);
  return recheck_failed == 0 ? 0 : 1;
}
