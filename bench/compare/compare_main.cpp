// redist_compare: the comparison harness. Runs redist's greedy synthesizer and optimal
// search, Shardy's own plans (its suite), XLA-style and gather-then-slice baselines on
// the anchors, the Shardy suite and a seeded random suite; writes one CSV row per case
// and planner and a summary (docs/results.md is generated from both by
// bench/make_results.py); --plans writes each default plan's text, to diff two builds.

#include <CLI/CLI.hpp>

#include <chrono>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <string>

#include "corpus.hpp"
#include "summary.hpp"

namespace {

using namespace redist;

struct Args {
  std::string anchors = REDIST_DATA_DIR "/anchors.txt";
  std::string shardy = REDIST_DATA_DIR "/shardy_reshard_to_collectives.json";
  std::string cost_model;
  int random = 1000;
  uint64_t seed = 20240611;
  int random_inter_axes = 1;
  int max_axes = 6;
  int64_t max_devices = 4096;
  bool size_one_axis = false;
  int64_t max_expanded = 20000;
  std::optional<int64_t> default_expanded;  // absent: synthesize()'s default
  double default_gap = SynthOptions{}.gap;
  std::string csv;
  std::string summary;
  std::string plans;
};

/// The model for `c`: the user's file where it names only axes of the case's mesh,
/// else the defaults; random meshes of two or more axes of size 2 or more get their
/// first `random_inter_axes` such axes inter-node (nodes major, devices within a node
/// minor; an axis of size 1 is neither).
CostModel model_for(const corpus::Case& c, const std::optional<CostModel>& user, int random_inter_axes) {
  if (user && validate(*user, c.mesh).ok()) return *user;
  CostModel model;
  if (c.suite != "random") return model;
  std::vector<std::string> axes;  // of size 2 or more
  for (const auto& a : c.mesh.axes())
    if (a.size > 1) axes.push_back(a.name);
  for (int i = 0; i < random_inter_axes && i + 1 < static_cast<int>(axes.size()); ++i)
    model.axis_class[axes[static_cast<std::size_t>(i)]] = LinkClass::inter;
  return model;
}

int run(const Args& args) {
  std::optional<CostModel> user;
  if (!args.cost_model.empty()) {
    auto model = read_cost_model(args.cost_model);
    if (!model) {
      std::cerr << "redist_compare: " << model.error().to_string() << "\n";
      return 2;
    }
    user = *model;
  }
  std::vector<corpus::Case> cases = corpus::anchor_cases(args.anchors);
  for (auto& c : corpus::shardy_cases(args.shardy)) cases.push_back(std::move(c));
  corpus::RandomSuiteOptions random;
  random.count = args.random;
  random.seed = args.seed;
  random.max_axes = args.max_axes;
  random.max_devices = args.max_devices;
  random.size_one_axis = args.size_one_axis;
  for (auto& c : corpus::random_cases(random)) cases.push_back(std::move(c));

  OptimalOptions options;
  options.max_expanded = args.max_expanded;
  SynthOptions synth;
  synth.max_expanded = args.default_expanded;
  synth.gap = args.default_gap;
  std::vector<compare::CaseResult> results;
  std::map<std::string, int> skipped;
  const auto start = std::chrono::steady_clock::now();
  for (const auto& c : cases) {
    if (!c.skip.empty()) {
      ++skipped[c.suite + ": " + c.skip];
      continue;
    }
    results.push_back(compare::run_case(c, model_for(c, user, args.random_inter_axes), options, synth));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  std::ofstream csv_file, summary_file;
  if (!args.csv.empty()) csv_file.open(args.csv);
  if (!args.summary.empty()) summary_file.open(args.summary);
  std::ostream& summary = args.summary.empty() ? std::cout : summary_file;
  compare::write_summary(summary, results);
  summary << "\nLeft out (out of scope of the comparison):\n";
  for (const auto& [why, n] : skipped) summary << "  " << n << " x " << why << "\n";
  summary << "\nRun: " << results.size() << " cases in " << std::fixed << std::setprecision(1) << seconds
          << " s; random suite seed " << args.seed << ", default synthesis expanding up to "
          << (args.default_expanded ? std::to_string(*args.default_expanded)
                                    : "its default (" + std::to_string(SynthOptions::kDefaultSearch) +
                                          " across two link speeds, else 0)")
          << " states (gap " << args.default_gap << "), optimal search capped at " << args.max_expanded
          << " expanded states; random meshes' first " << args.random_inter_axes
          << " axis inter-node (25 GB/s, 5 us), others intra-node (300 GB/s, 1 us)\n";
  if (!args.csv.empty()) compare::write_csv(csv_file, results);
  if (!args.plans.empty()) {
    std::ofstream plans_file(args.plans);
    for (const auto& r : results) plans_file << "# " << r.source->suite << " " << r.source->name << "\n" << r.greedy_text << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"redist_compare: redist's plans against Shardy, XLA-style and gather-then-slice plans"};
  Args args;
  app.add_option("--anchors", args.anchors, "The anchors file");
  app.add_option("--shardy", args.shardy, "The Shardy suite (JSON)");
  app.add_option("--cost-model", args.cost_model, "Cost model config (docs/cost_model.md)");
  app.add_option("--random", args.random, "Cases in the random suite");
  app.add_option("--seed", args.seed, "Seed of the random suite");
  app.add_option("--random-inter-axes", args.random_inter_axes, "Leading axes of random meshes that are inter-node");
  app.add_option("--max-axes", args.max_axes, "Most mesh axes in the random suite");
  app.add_option("--max-devices", args.max_devices, "Most devices in the random suite");
  app.add_flag("--size-one-axis", args.size_one_axis,
               "Give every random mesh one more axis of size 1, which the target names (the source half the "
               "time): the same cases otherwise");
  app.add_option("--max-expanded", args.max_expanded, "States the optimal search may expand per case");
  app.add_option("--default-expanded", args.default_expanded,
                 "States the default synthesis may expand from its seeds per case (SynthOptions::max_expanded, "
                 "`redist plan --search`; default: synthesize()'s own)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--default-gap", args.default_gap,
                 "The default synthesis stops searching once its plan is proved within (1 + gap) of the least "
                 "modeled time (SynthOptions::gap, default 0.1)")
      ->check(CLI::NonNegativeNumber);
  app.add_option("--csv", args.csv, "Write one row per case and planner here");
  app.add_option("--summary", args.summary, "Write the summary here (default: standard output)");
  app.add_option("--plans", args.plans, "Write each case's default plan (synthesize()) as text here, to diff builds");
  CLI11_PARSE(app, argc, argv);
  return run(args);
}
