// `redist explain`: a plan (synthesized for --mesh M SRC DST, or read with --plan FILE)
// shown to people: per step in words (explain_words.cpp) and, with --svg FILE, as a
// picture of the device grid before and after each step (explain_svg.cpp).

#include <fmt/format.h>
#include <fstream>
#include <iostream>
#include <iterator>
#include <memory>

#include "commands.hpp"
#include "explain.hpp"
#include "input.hpp"
#include "numbers.hpp"
#include "read_input.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/synth/synthesize.hpp"

namespace redist::cli {
namespace {

struct ExplainArgs {
  std::string mesh, target_mesh, src, dst, plan_file, svg_file;
  std::optional<std::string> budget;  // a byte count (numbers.hpp)
  int max_devices = 8;
};

int run_explain(const ExplainArgs& args) {
  Plan plan;
  if (!args.plan_file.empty()) {
    const auto text = read_text_input(args.plan_file, "--plan");
    if (!text) return kExitBadInput;
    auto parsed = parse_plan(*text);
    if (!parsed)
      return fail(kExitBadInput, fmt::format("error in --plan {}: {}", args.plan_file, parsed.error().to_string(*text)),
                  "--plan", parsed.error().position);
    plan = std::move(*parsed);
  } else {
    if (args.mesh.empty() || args.src.empty() || args.dst.empty())
      return fail(kExitBadInput, "explain needs --mesh M SRC DST or --plan FILE");
    auto in = parse_reshard_args(args.mesh, args.target_mesh, args.src, args.dst);
    if (!in) return kExitBadInput;
    std::optional<uint64_t> budget;
    if (args.budget && !(budget = parse_bytes_arg(*args.budget, "--budget"))) return kExitBadInput;
    auto synthesized = synthesize(in->mesh, in->src, in->target_mesh, in->dst, SynthOptions{budget});
    if (!synthesized) {
      const bool none = synthesized.error().kind == Error::Kind::no_plan ||
                        synthesized.error().kind == Error::Kind::runtime;
      return fail(none ? kExitNoPlan : kExitBadInput, synthesized.error().to_string());
    }
    plan = std::move(*synthesized);
  }
  auto states = type_plan(plan);
  if (!states) return fail(kExitBadInput, "the plan does not type-check: " + states.error().to_string());
  std::cout << explain_words(plan, *states, args.max_devices);
  if (!args.svg_file.empty()) {
    std::ofstream out(args.svg_file, std::ios::binary);
    if (!out) return fail(kExitBadInput, "cannot write " + args.svg_file, "--svg");
    out << explain_svg(plan, *states);
    std::cout << "\npicture: " << args.svg_file << "\n";
  }
  return 0;
}

}  // namespace

void add_explain_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ExplainArgs>();
  auto* cmd = app.add_subcommand(
      "explain",
      "Show a plan to people: per step, which blocks each device sends, receives, keeps and drops, why the step "
      "is there (which axis moves from which dim to which) and the memory profile; --svg draws the device grid "
      "before and after each step with blocks coloured by their global position.");
  cmd->add_option("--mesh", args->mesh, "Device mesh, e.g. '{x:4, y:2}'");
  cmd->add_option("--target-mesh", args->target_mesh, "Mesh of the target when it differs: another device order, or other axes over the "
                  "same devices (docs/meshes.md)");
  cmd->add_option("src", args->src, "Source type");
  cmd->add_option("dst", args->dst, "Target type");
  auto* plan_opt = cmd->add_option("--plan", args->plan_file, "Explain this plan (plan text, - for stdin) instead");
  plan_opt->excludes("--mesh");
  cmd->add_option("--budget", args->budget, "Per-device memory bound for the synthesizer, e.g. 4096, 64KiB, 1GB");
  cmd->add_option("--svg", args->svg_file, "Write the picture to this SVG file");
  cmd->add_option("--max-devices", args->max_devices, "Devices described per step (default 8)")
      ->check(CLI::PositiveNumber);
  cmd->footer("Example: redist explain --mesh '{x:4, y:2}' 'f32[{x}16, {y}8]' 'f32[{y}16, {x}8]' --svg plan.svg");
  cmd->callback([args, &exit_code] {
    begin_command("explain", false);
    exit_code = run_explain(*args);
  });
}

}  // namespace redist::cli
