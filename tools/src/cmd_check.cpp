// `redist check`: prove a given plan (ours, or one imported from XLA or Shardy with
// explicit groups= and pairs=) with the Z3 checker.

#include <fmt/format.h>
#include <memory>

#include "check_hlo.hpp"
#include "commands.hpp"
#include "input.hpp"
#include "read_input.hpp"
#include "redist/plan/plan_text.hpp"
#include "verify_output.hpp"

namespace redist::cli {
namespace {

struct CheckArgs {
  std::string plan_file;
  std::string hlo_file;
  VerifyArgs verify;
};

int run_check(const CheckArgs& args) {
  const auto settings = parse_verify_settings(args.verify);
  if (!settings) return kExitBadInput;
  if (!args.hlo_file.empty()) return run_check_hlo(args.hlo_file, args.verify, *settings);
  if (args.plan_file.empty()) return fail(kExitBadInput, "check needs --plan FILE or --from-hlo FILE");
  const auto text = read_text_input(args.plan_file, "--plan");
  if (!text) return kExitBadInput;
  auto plan = parse_plan(*text);
  if (!plan)
    return fail(kExitBadInput, fmt::format("error in --plan {}: {}", args.plan_file, plan.error().to_string(*text)),
                "--plan", plan.error().position);
  return verify_and_report(*plan, args.verify, *settings, "check (" + args.plan_file + ")");
}

}  // namespace

void add_check_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<CheckArgs>();
  auto* cmd = app.add_subcommand(
      "check",
      "Prove a given plan with Z3 (the plan text format of `redist plan`; explicit groups=[[...]] and "
      "pairs=[(src,dst),...] as imported from XLA or Shardy are checked as given). Same verdicts and exit codes "
      "as `redist prove`.");
  auto* plan_opt = cmd->add_option("--plan", args->plan_file, "Plan file in the plan text format, or - for standard input");
  auto* hlo_opt = cmd->add_option("--from-hlo", args->hlo_file,
                                  "Compiled SPMD HLO of one reshard (jax's compile().as_text(), with the output "
                                  "sharding on the ROOT), or - for standard input: XLA's own plan is imported and proved");
  plan_opt->excludes(hlo_opt);
  add_verify_options(*cmd, args->verify);
  cmd->footer("Example: redist plan --mesh '{x:8}' 'f32[{x}16, 8]' 'f32[16, {x}8]' > p.txt && redist check --plan p.txt");
  cmd->callback([args, &exit_code] {
    begin_command("check", args->verify.json);
    exit_code = run_check(*args);
  });
}

}  // namespace redist::cli
