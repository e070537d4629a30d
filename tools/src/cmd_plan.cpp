// `redist plan`: synthesizes a plan (or builds a baseline's) and prints it in the plan
// text format, with the type after each step and a per-step memory profile as `#`
// comments so the output reads back with parse_plan; or, with --json, one object.

#include <fmt/format.h>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>

#include "commands.hpp"
#include "cost_model_arg.hpp"
#include "input.hpp"
#include "numbers.hpp"
#include "notation_io.hpp"
#include "plan_json.hpp"
#include "read_input.hpp"
#include "refinement_note.hpp"
#include "redist/synth/baselines.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/mesh_change.hpp"
#include "redist/plan/figures.hpp"
#include "redist/synth/optimal.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/synth/synthesize.hpp"
#include "redist/plan/typing.hpp"

namespace redist::cli {
namespace {

struct PlanArgs {
  std::string mesh;
  std::string target_mesh;
  std::string src;
  std::string dst;
  std::string baseline;
  std::optional<std::string> budget;
  bool json = false;
  std::string cost_model;  // config file (docs/cost_model.md); empty: the defaults
  bool optimal = false;
  double timeout_s = 0;  // --optimal: stop with the best plan so far after this many seconds (0: none)
  std::optional<int64_t> search;  // states the default synthesis may expand (absent: its default)
};

/// The cheapest plan under `model` (optimal_plan) as a plain plan result; progress on
/// stderr every second; after `timeout_s` (when > 0) the best plan so far, with a note
/// on stderr that its optimality is not proved.
Result<Plan> optimal(const CostModel& model, const Mesh& mesh, const DistType& src, const Mesh& target_mesh,
                     const DistType& dst, std::optional<uint64_t> budget, double timeout_s) {
  OptimalOptions options{budget};
  if (timeout_s > 0) options.timeout_s = timeout_s;
  options.progress = [](int64_t expanded, int64_t states, double best_us) {
    std::cerr << "redist: searching: " << expanded << " states expanded, " << states << " kept, best plan "
              << (best_us < 0 ? std::string("none yet") : fmt::format("{:f} us", best_us)) << "\n";
  };
  auto best = optimal_plan(model, mesh, src, target_mesh, dst, options);
  if (!best) return best.error();
  if (!best->proved)
    std::cerr << "redist: optimality not proved: " << best->stopped << "; this is the best plan it found\n";
  return std::move(best->plan);
}

/// A bar of `width` characters filled in proportion to `value / scale`, flagged when
/// `value` exceeds `bound`.
std::string bar(const BigInt& value, const BigInt& scale, const BigInt& bound, int width = 32) {
  BigInt filled = scale > 0 ? BigInt(value * width / scale) : BigInt(0);
  if (value > 0 && filled == 0) filled = 1;
  const int n = static_cast<int>(filled);
  return "|" + std::string(static_cast<std::size_t>(n), '#') + std::string(static_cast<std::size_t>(width - n), '.') +
         "|" + (value > bound ? " over the bound" : "");
}

void print_text(const Plan& plan, const std::vector<TypedState>& states, const PlanFigures& f,
                const std::string& origin) {
  std::cout << "# redist plan (" << origin << "): " << plan.steps.size() << " step"
            << (plan.steps.size() == 1 ? "" : "s") << ", peak " << to_decimal(f.peak_local_bytes) << " of "
            << to_decimal(f.bound_bytes) << " bytes per device\n";
  // The plan text, with the type after each step as a comment under its line.
  std::istringstream text(to_string(plan));
  std::size_t next = 0;
  for (std::string line; std::getline(text, line);) {
    std::cout << line << "\n";
    if (next < plan.steps.size() && line == to_string(plan.steps[next])) {
      std::cout << "#   -> " << to_string(states[next].type) << "\n";
      ++next;
    }
  }
  std::cout << "#\n# memory per device (bytes; bound " << to_decimal(f.bound_bytes) << "):\n";
  const BigInt scale = std::max(f.bound_bytes, f.peak_local_bytes);
  auto row = [&](const std::string& label, const BigInt& bytes, const std::string& extra) {
    std::string padded = label;
    padded.resize(std::max<std::size_t>(padded.size(), 24), ' ');
    std::string value = to_decimal(bytes);
    value.insert(0, value.size() < 12 ? 12 - value.size() : 0, ' ');
    std::cout << "#   " << padded << value << " " << bar(bytes, scale, f.bound_bytes) << extra << "\n";
  };
  row("source", f.source_local_bytes, "");
  for (std::size_t k = 0; k < f.steps.size(); ++k) {
    const StepFigures& s = f.steps[k];
    const std::string recv = s.recv_bytes_max > 0 ? "  recv " + to_decimal(s.recv_bytes_max) : "";
    row(fmt::format("{} {}", k + 1, s.op), s.local_bytes_after, recv);
  }
  std::cout << "# received per device: max " << to_decimal(f.recv_bytes_max) << ", total over devices "
            << to_decimal(f.recv_bytes_total) << "\n";
  if (f.lower_bound)
    std::cout << "# lower bound LB(d):   max " << to_decimal(f.lower_bound->max) << ", total over devices "
              << to_decimal(f.lower_bound->total) << "\n";
}

int run_plan(const PlanArgs& args) {
  auto in = parse_reshard_args(args.mesh, args.target_mesh, args.src, args.dst);
  if (!in) return kExitBadInput;
  const Mesh& mesh = in->mesh;
  const Mesh& target_mesh = in->target_mesh;
  const DistType& src = in->src;
  const DistType& dst = in->dst;
  std::optional<uint64_t> budget;
  if (args.budget && !(budget = parse_bytes_arg(*args.budget, "--budget"))) return kExitBadInput;
  const auto model = cost_model_arg(args.cost_model, mesh, target_mesh);
  if (!model) return kExitBadInput;
  const auto baseline = parse_baseline(args.baseline);
  SynthOptions synth{budget};
  if (!args.cost_model.empty()) synth.cost_model = &*model;  // else ranked by bytes
  synth.max_expanded = args.search;
  auto plan = baseline       ? baseline_plan(*baseline, mesh, src, target_mesh, dst)
              : args.optimal ? optimal(*model, mesh, src, target_mesh, dst, budget, args.timeout_s)
                             : synthesize(mesh, src, target_mesh, dst, synth);
  if (!plan) {
    const bool none = plan.error().kind == Error::Kind::no_plan || plan.error().kind == Error::Kind::runtime;
    return fail(none ? kExitNoPlan : kExitBadInput, plan.error().to_string());
  }
  auto states = type_plan(*plan);
  auto figures = plan_figures(*plan, budget);
  if (!states || !figures)
    return fail(kExitInternal, "internal error: the plan does not type-check: " +
                                   (states ? figures.error() : states.error()).to_string());
  if (budget && figures->peak_local_bytes > figures->bound_bytes)
    return fail(kExitNoPlan,
                fmt::format("the {} plan peaks at {} bytes per device, over the budget of {}", args.baseline,
                            to_decimal(figures->peak_local_bytes), to_decimal(figures->bound_bytes)),
                "--budget");
  const auto refinement = refinement_of(*in);
  // Other axes: the plan runs on the refined mesh, priced with the model moved onto it.
  const auto plan_model = refinement ? refined_model(*model, mesh, *refinement) : Result<CostModel>(*model);
  if (!plan_model) return fail(kExitBadInput, plan_model.error().to_string(), "--cost-model");
  const double time_us = plan_cost(*plan_model, *plan)->time_us;
  if (args.json) {
    nlohmann::json json = json_header(kExitOk);
    json.update(plan_json(*plan, *states, *figures));
    json["modeled_time_us"] = time_us;
    if (refinement) json["refinement"] = refinement_json(*refinement);
    std::cout << json.dump(2) << "\n";
  } else {
    if (refinement) print_refinement(*refinement, std::cout);
    print_text(*plan, *states, *figures,
               baseline ? "baseline " + args.baseline : args.optimal ? "optimal under the cost model" : "synthesized");
    print_plan_in_notation(*plan, std::cout);
    std::cout << "# modeled time: " << time_us << " us ("
              << (args.cost_model.empty() ? "default cost model: every axis intra-node, 300 GB/s, 1 us; a transfer between device sets "
                                            "inter-node, 25 GB/s, 5 us"
                                          : "cost model " + args.cost_model)
              << ")\n";
  }
  return 0;
}

}  // namespace

void add_plan_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<PlanArgs>();
  auto* cmd = app.add_subcommand(
      "plan",
      "Synthesize a redistribution plan from SRC to DST: all_slices, then all_to_alls and at most one "
      "collective_permute, then all_gathers, never above max(source, target) bytes per device. Prints the plan "
      "in the plan text format (readable back), with the type after each step and a memory profile as "
      "'#' comments. Exit 2 on bad input or pairs out of scope, 3 when no plan fits the budget.");
  cmd->add_option("--mesh", args->mesh, "Device mesh of SRC, e.g. '{x:4, y:2}' (required but with --from hlo)");
  cmd->add_option("--target-mesh", args->target_mesh,
                  "Device mesh of DST when it differs: another device order, e.g. '{x:4, y:2} devices=[...]', "
                  "other axes over the same devices, e.g. '{a:2, b:4}', or other devices, e.g. '{y:4} devices=[4,5,6,7]' "
                  "(docs/meshes.md)");
  add_notation_options(*cmd);
  cmd->add_option("SRC", args->src, "Source type, e.g. 'f32[{x}16, {y}8]'")->required();
  cmd->add_option("DST", args->dst, "Target type, e.g. 'f32[{y}16, {x}8]'")->required();
  cmd->add_option("--baseline", args->baseline, "Build a baseline plan instead: gather_then_slice, xla_style or "
                  "all_reduce_then_slice (pending reductions)")
      ->check(CLI::IsMember({"gather_then_slice", "xla_style", "all_reduce_then_slice"}));
  cmd->add_option("--budget", args->budget,
                  "Per-device memory budget in bytes, e.g. 4096, 64KiB, 1GB (default: max of source and target)");
  cmd->add_flag("--json", args->json, "Print one JSON object (docs/cli.md; byte figures as decimal strings)");
  add_cost_model_option(*cmd, args->cost_model,
                        "plans are ranked by it, the modeled time is printed, and is 'modeled_time_us' in --json");
  cmd->add_flag("--optimal", args->optimal,
                "Search the plan of least modeled time within the budget instead (exact; slower, "
                "for certifying and small meshes; progress on stderr every second); exit 3 when the search "
                "gives up at its state cap")
      ->excludes("--baseline");
  add_search_option(*cmd, args->search)->excludes("--baseline")->excludes("--optimal");
  cmd->add_option("--timeout", args->timeout_s,
                  "With --optimal: stop after this many seconds, or earlier at the state cap, with the best "
                  "plan found so far (exit 0, 'optimality not proved' on stderr), or exit 3 when none was found")
      ->check(CLI::PositiveNumber)
      ->needs("--optimal");
  cmd->footer("Example: redist plan --mesh '{x:4, y:2}' 'f32[{x}16, {y}8]' 'f32[{y}16, {x}8]'");
  cmd->callback([args, &exit_code] {
    begin_command("plan", args->json);
    exit_code = run_plan(*args);
  });
}

}  // namespace redist::cli
