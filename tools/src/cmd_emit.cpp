// `redist emit`: the program of a plan for XLA (StableHLO or HLO text) or MPI (C++).

#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "commands.hpp"
#include "cost_model_arg.hpp"
#include "input.hpp"
#include "notation_io.hpp"
#include "numbers.hpp"
#include "plan_json.hpp"
#include "read_input.hpp"
#include "redist/backends/hlo/emit.hpp"
#include "redist/backends/mpi/codegen.hpp"
#include "redist/plan/figures.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/synth/synthesize.hpp"

namespace redist::cli {
namespace {

struct EmitArgs {
  std::string target;
  std::string mesh;
  std::string target_mesh;
  std::string src;
  std::string dst;
  std::string plan_file;
  std::optional<std::string> budget;
  std::string cost_model;  // config file; empty: plans ranked by bytes
  std::optional<int64_t> search;  // states the default synthesis may expand (absent: its default)
  std::string output;
  bool json = false;
};

/// The plan read from `path`, or nullopt after reporting why not.
std::optional<Plan> read_plan(const std::string& path) {
  const auto text = read_text_input(path, "--plan");
  if (!text) return std::nullopt;
  auto plan = parse_plan(*text);
  if (!plan) {
    fail(kExitBadInput, fmt::format("error in --plan {}: {}", path, plan.error().to_string(*text)), "--plan",
         plan.error().position);
    return std::nullopt;
  }
  return std::move(*plan);
}

/// The synthesized plan for the arguments; nullopt with `exit_code` set after
/// reporting why not.
std::optional<Plan> synthesize_plan(const EmitArgs& args, int& exit_code) {
  exit_code = kExitBadInput;
  if ((args.mesh.empty() && !reading_other_notation()) || args.src.empty() || args.dst.empty()) {
    fail(kExitBadInput, "emit needs --mesh, SRC and DST, or --plan FILE");
    return std::nullopt;
  }
  auto in = parse_reshard_args(args.mesh, args.target_mesh, args.src, args.dst);
  if (!in) return std::nullopt;
  std::optional<uint64_t> budget;
  if (args.budget && !(budget = parse_bytes_arg(*args.budget, "--budget"))) return std::nullopt;
  const auto model = cost_model_arg(args.cost_model, in->mesh, in->target_mesh);
  if (!model) return std::nullopt;
  SynthOptions options{budget};
  if (!args.cost_model.empty()) options.cost_model = &*model;
  options.max_expanded = args.search;
  auto plan = synthesize(in->mesh, in->src, in->target_mesh, in->dst, options);
  if (!plan) {
    const Error& e = plan.error();
    if (e.kind == Error::Kind::no_plan || e.kind == Error::Kind::unsupported) exit_code = kExitNoPlan;
    fail(exit_code, "no plan: " + e.to_string());
    return std::nullopt;
  }
  exit_code = kExitOk;
  return std::move(*plan);
}

Result<std::string> emit_for(const std::string& target, const Plan& plan) {
  if (target == "stablehlo") return hlo::emit_stablehlo(plan);
  if (target == "hlo") return hlo::emit_hlo(plan);
  return mpi::emit_program(plan);
}

/// The --json object: the plan's keys (plan_json) plus format and program.
Result<nlohmann::json> emit_json(const Plan& plan, const std::string& format, const std::string& program) {
  auto states = type_plan(plan);
  if (!states) return states.error();
  auto figures = plan_figures(plan);
  if (!figures) return figures.error();
  nlohmann::json out = json_header(kExitOk);
  out.update(plan_json(plan, *states, *figures));
  out["format"] = format;
  out["program"] = program;
  return out;
}

int run_emit(const EmitArgs& args) {
  if (!args.plan_file.empty() && args.budget)
    return fail(kExitBadInput, "--budget applies to synthesis; a --plan file is emitted as given", "--budget");
  if (!args.plan_file.empty() && !args.cost_model.empty())
    return fail(kExitBadInput, "--cost-model applies to synthesis; a --plan file is emitted as given", "--cost-model");
  int exit_code = kExitOk;
  const auto plan = args.plan_file.empty() ? synthesize_plan(args, exit_code) : read_plan(args.plan_file);
  if (!plan) return exit_code ? exit_code : kExitBadInput;
  auto program = emit_for(args.target, *plan);
  if (!program) return fail(kExitBadInput, "cannot emit: " + program.error().to_string());
  std::string text = *program;
  if (args.json) {
    auto json = emit_json(*plan, args.target, *program);
    if (!json) return fail(kExitBadInput, "cannot emit: " + json.error().to_string());
    text = json->dump(2) + "\n";
  }
  if (args.output.empty()) {
    std::cout << text;
    return kExitOk;
  }
  std::ofstream out(args.output);
  out << text;
  if (!out.flush()) return fail(kExitBadInput, "cannot write " + args.output, "--output");
  return kExitOk;
}

}  // namespace

void add_emit_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<EmitArgs>();
  auto* cmd = app.add_subcommand("emit", "Synthesize a plan and emit the program that runs it: a StableHLO or "
                                         "HLO module for XLA (SPMD, 1 partition per device), or a C++ MPI program.");
  cmd->add_option("--target", args->target, "What to emit: stablehlo, hlo or mpi")
      ->required()
      ->check(CLI::IsMember({"stablehlo", "hlo", "mpi"}));
  cmd->add_option("--mesh", args->mesh, "Device mesh of SRC, e.g. '{x:4, y:2}'");
  cmd->add_option("--target-mesh", args->target_mesh, "Device mesh of DST when it differs: another device order, or other axes over the same "
                  "devices (docs/meshes.md)");
  add_notation_options(*cmd, false);
  cmd->add_option("SRC", args->src, "Source type, e.g. 'f32[{x}16, {y}8]'");
  cmd->add_option("DST", args->dst, "Target type, e.g. 'f32[{y}16, {x}8]'");
  auto* plan = cmd->add_option("--plan", args->plan_file,
                               "Emit this plan file (plan text, or - for standard input) instead of synthesizing");
  plan->excludes(cmd->get_option("--mesh"))->excludes(cmd->get_option("SRC"));
  cmd->add_option("--budget", args->budget, "Per-device memory bound for synthesis, e.g. 4096, 64KiB, 1GB");
  add_cost_model_option(*cmd, args->cost_model, "the plan emitted is the one `redist plan` synthesizes under it");
  add_search_option(*cmd, args->search)->excludes(plan);
  cmd->add_option("-o,--output", args->output, "Write the program to FILE instead of standard output");
  cmd->add_flag("--json", args->json,
                "Print one JSON object: the plan's keys (as redist plan --json) plus format and program");
  cmd->footer("Example: redist emit --target stablehlo --mesh '{x:4, y:2}' 'f32[{x}16, {y}8]' 'f32[{y}16, {x}8]'");
  cmd->callback([args, &exit_code] {
    begin_command("emit", args->json);
    exit_code = run_emit(*args);
  });
}

}  // namespace redist::cli
