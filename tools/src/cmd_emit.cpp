// `redist emit`: the program of a plan for XLA (StableHLO or HLO text) or MPI (C++).

#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "input.hpp"
#include "notation_io.hpp"
#include "redist/backends/hlo/emit.hpp"
#include "redist/backends/mpi/codegen.hpp"
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
  std::optional<uint64_t> budget;
  std::string output;
};

/// The plan read from `path`, or nullopt after reporting why not.
std::optional<Plan> read_plan(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "redist: cannot read plan file " << path << "\n";
    return std::nullopt;
  }
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  auto plan = parse_plan(text);
  if (!plan) {
    std::cerr << "redist: error in " << path << ": " << plan.error().message << "\n";
    return std::nullopt;
  }
  return std::move(*plan);
}

/// The synthesized plan for the arguments; nullopt with `exit_code` set after
/// reporting why not.
std::optional<Plan> synthesize_plan(const EmitArgs& args, int& exit_code) {
  exit_code = kExitBadInput;
  if ((args.mesh.empty() && !reading_other_notation()) || args.src.empty() || args.dst.empty()) {
    std::cerr << "redist: emit needs --mesh, SRC and DST, or --plan FILE\n";
    return std::nullopt;
  }
  auto in = parse_reshard_args(args.mesh, args.target_mesh, args.src, args.dst);
  if (!in) return std::nullopt;
  auto plan = synthesize(in->mesh, in->src, in->target_mesh, in->dst, SynthOptions{args.budget});
  if (!plan) {
    const Error& e = plan.error();
    std::cerr << "redist: no plan: " << e.to_string() << "\n";
    if (e.kind == Error::Kind::no_plan || e.kind == Error::Kind::unsupported) exit_code = kExitNoPlan;
    return std::nullopt;
  }
  exit_code = 0;
  return std::move(*plan);
}

Result<std::string> emit_for(const std::string& target, const Plan& plan) {
  if (target == "stablehlo") return hlo::emit_stablehlo(plan);
  if (target == "hlo") return hlo::emit_hlo(plan);
  return mpi::emit_program(plan);
}

int run_emit(const EmitArgs& args) {
  int exit_code = 0;
  const auto plan = args.plan_file.empty() ? synthesize_plan(args, exit_code) : read_plan(args.plan_file);
  if (!plan) return exit_code ? exit_code : kExitBadInput;
  auto program = emit_for(args.target, *plan);
  if (!program) {
    std::cerr << "redist: cannot emit: " << program.error().to_string() << "\n";
    return kExitBadInput;
  }
  if (args.output.empty()) {
    std::cout << *program;
    return 0;
  }
  std::ofstream out(args.output);
  out << *program;
  if (!out.flush()) {
    std::cerr << "redist: cannot write " << args.output << "\n";
    return kExitBadInput;
  }
  return 0;
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
  cmd->add_option("--target-mesh", args->target_mesh, "Device mesh of DST when its device order differs");
  add_notation_options(*cmd, false);
  cmd->add_option("SRC", args->src, "Source type, e.g. 'f32[{x}16, {y}8]'");
  cmd->add_option("DST", args->dst, "Target type, e.g. 'f32[{y}16, {x}8]'");
  auto* plan = cmd->add_option("--plan", args->plan_file, "Emit this plan file (plan text) instead of synthesizing");
  plan->excludes(cmd->get_option("--mesh"))->excludes(cmd->get_option("SRC"));
  cmd->add_option("--budget", args->budget, "Per-device memory bound in bytes for synthesis");
  cmd->add_option("-o,--output", args->output, "Write the program to FILE instead of standard output");
  cmd->footer("Example: redist emit --target stablehlo --mesh '{x:4, y:2}' 'f32[{x}16, {y}8]' 'f32[{y}16, {x}8]'");
  cmd->callback([args, &exit_code] { exit_code = run_emit(*args); });
}

}  // namespace redist::cli
