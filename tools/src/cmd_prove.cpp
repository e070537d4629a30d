// `redist prove`: synthesize a plan and prove it with the Z3 checker.

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "cost_model_arg.hpp"
#include "input.hpp"
#include "notation_io.hpp"
#include "redist/synth/synthesize.hpp"
#include "refinement_note.hpp"
#include "verify_output.hpp"

namespace redist::cli {
namespace {

struct ProveArgs {
  std::string mesh;
  std::string target_mesh;
  std::string src;
  std::string dst;
  std::string cost_model;  // config file; empty: plans ranked by bytes
  std::optional<int64_t> search;  // states the default synthesis may expand (absent: its default)
  VerifyArgs verify;
};

int run_prove(const ProveArgs& args) {
  auto in = parse_reshard_args(args.mesh, args.target_mesh, args.src, args.dst);
  if (!in) return kExitBadInput;
  const auto settings = parse_verify_settings(args.verify);
  if (!settings) return kExitBadInput;
  const auto model = cost_model_arg(args.cost_model, in->mesh, in->target_mesh);
  if (!model) return kExitBadInput;
  SynthOptions options{settings->budget};
  if (!args.cost_model.empty()) options.cost_model = &*model;
  options.max_expanded = args.search;
  auto plan = synthesize(in->mesh, in->src, in->target_mesh, in->dst, options);
  if (!plan) return fail(plan.error().kind == Error::Kind::no_plan ? kExitNoPlan : kExitBadInput,
                         plan.error().to_string());
  if (!args.verify.json) print_plan_in_notation(*plan, std::cout);
  const auto refinement = refinement_of(*in);
  if (!refinement) return verify_and_report(*plan, args.verify, *settings, "prove (synthesized plan)");
  // Other axes: the plan runs on the refinement; the rewrite of each type is proved too.
  const auto [source, target] = prove_rewrites(*in, *refinement, settings->timeout_ms);
  nlohmann::json extra = {{"refinement", refinement_json(*refinement)}};
  extra["refinement"]["source_rewrite"] = std::string(verdict_name(source.verdict));
  extra["refinement"]["target_rewrite"] = std::string(verdict_name(target.verdict));
  if (!args.verify.json) {
    print_refinement(*refinement, std::cout);
    for (const auto& [side, r] : {std::pair{"source", &source}, std::pair{"target", &target}})
      std::cout << "# rewrite of the " << side << " type: " << verdict_name(r->verdict)
                << (r->counterexample ? " (" + r->counterexample->to_string() + ")" : "") << "\n";
  }
  const int code = verify_and_report(*plan, args.verify, *settings, "prove (synthesized plan)", extra);
  const bool rewrites = source.verdict == Verdict::proved && target.verdict == Verdict::proved;
  return code == kExitOk && !rewrites ? kExitUnproved : code;
}

}  // namespace

void add_prove_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<ProveArgs>();
  auto* cmd = app.add_subcommand(
      "prove",
      "Synthesize a plan from SRC to DST and prove it with Z3: G1 correct (every target element is the right "
      "source element), G2 memory (every step within the bound), G3a no element received and then sliced away, "
      "G3b received bytes against the lower bound (tight or excess). Exit 0 when all are proved, 1 when any is "
      "refuted or unknown, 2 on bad input, 3 when no plan fits the budget.");
  cmd->add_option("--mesh", args->mesh, "Device mesh of SRC, e.g. '{x:4, y:2}' (required but with --from hlo)");
  cmd->add_option("--target-mesh", args->target_mesh,
                  "Device mesh of DST when it differs: another device order, or other axes over the same "
                  "devices (docs/meshes.md)");
  add_notation_options(*cmd);
  cmd->add_option("SRC", args->src, "Source type, e.g. 'f32[{x}16, {y}8]'")->required();
  cmd->add_option("DST", args->dst, "Target type, e.g. 'f32[{y}16, {x}8]'")->required();
  add_verify_options(*cmd, args->verify);
  add_cost_model_option(*cmd, args->cost_model, "the plan proved is the one `redist plan` synthesizes under it");
  add_search_option(*cmd, args->search);
  cmd->footer("Example: redist prove --mesh '{x:4, y:2}' 'f32[{x}16, {y}8]' 'f32[{y}16, {x}8]'");
  cmd->callback([args, &exit_code] {
    begin_command("prove", args->verify.json);
    exit_code = run_prove(*args);
  });
}

}  // namespace redist::cli
