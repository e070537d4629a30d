// The checker must be able to fail, and must agree with the interpreter. Over random
// plans (random valid steps, and synthesized plans) on small meshes: the plan itself
// is proved; every mutant the interpreter shows wrong is refuted with a counterexample
// the interpreter confirms; every mutant it shows right is proved; mutants the plan IR
// cannot express are refuted. Transfers agree with exact per-device figures.

#include <gtest/gtest.h>
#include <rapidcheck.h>

#include <functional>
#include <iostream>
#include <map>

#include "checker_mutants.hpp"
#include "checker_support.hpp"
#include "redist/plan/figures.hpp"
#include "redist/synth/synthesize.hpp"
#include "tests/synth/plan_gen.hpp"

namespace redist::testing {
namespace {

/// Mutant counts over the whole run, by kind and outcome.
struct Tally {
  std::map<std::string, std::map<std::string, int>> by_kind;
  int plans = 0;
  int skipped_reductions = 0;  // max/min: the interpreter's data checks sums only
  void add(const std::string& kind, const std::string& outcome) { ++by_kind[kind][outcome]; }
};
Tally tally;

/// True when `plan` reduces with max or min (the summand data checks sums only).
bool reduces_with_max_or_min(const Plan& plan) {
  return !plan.source.reduce_axes.empty() && plan.source.reduce_op != ReduceOp::sum;
}

/// The interpreter's judgement of `plan` against `target`: nullopt when it cannot run.
/// With reductions (pending or done by a step) every summand must be combined into its
/// element exactly once (distinct_summands data).
std::optional<bool> runs_right(const Plan& plan, const TypedState& target) {
  if (plan.source.reduce_axes.empty()) {
    auto data = run_plan(plan, distribute(plan.mesh, plan.source));
    if (!data.ok()) return std::nullopt;
    return !compare(target.mesh, target.type, *data).has_value();
  }
  auto data = run_plan(plan, distinct_summands(plan.mesh, plan.source));
  if (!data.ok()) return std::nullopt;
  if ((*data)[0].shape != local_shape(target.type)) return false;
  const auto shape = local_shape(target.type);
  for (int64_t d = 0; d < target.mesh.num_devices(); ++d) {
    std::vector<int64_t> local(shape.size(), 0);
    for (bool more = true; more;) {
      if (summands_wrong_at(target.mesh, plan.source, target.type, *data, d, local)) return false;
      more = false;
      for (std::size_t i = shape.size(); i-- > 0 && !more;) {
        if (++local[i] < shape[i]) more = true;
        else local[i] = 0;
      }
    }
  }
  return true;
}

/// Received bytes == LB(d) on every device, by the exact per-device figures.
bool tight_by_figures(const Plan& plan, const LoweredPlan& lowered, const TypedState& target) {
  for (int64_t d = 0; d < plan.mesh.num_devices(); ++d) {
    BigInt received = 0;
    for (std::size_t k = 0; k < plan.steps.size(); ++k)
      received += device_recv_bytes(lowered.steps[k].before, lowered.steps[k].after, plan.steps[k], d);
    if (received != device_lower_bound(plan.mesh, plan.source, target.mesh, target.type, d)) return false;
  }
  return true;
}

/// Checks the plan itself, then every mutant, against the plan's own final state.
void check_plan_and_mutants(const Plan& plan) {
  if (reduces_with_max_or_min(plan)) {
    ++tally.skipped_reductions;
    return;
  }
  RC_LOG() << to_string(plan) << "\n";
  auto lowered = lower(plan);
  RC_ASSERT(lowered.ok());
  const TypedState target = final_state(*lowered);
  auto report = check_lowered(*lowered, target);
  RC_ASSERT(report.ok());
  RC_ASSERT(report->correct.verdict == Verdict::proved);
  RC_ASSERT(runs_right(plan, target) == std::optional<bool>(true));
  if (!has_padding(plan.source) && !has_padding(target.type) && plan.source.reduce_axes.empty()) {
    RC_LOG() << "transfers " << transfers_name(report->transfers) << ": " << report->tight.detail << "\n";
    RC_ASSERT(report->transfers != Transfers::unknown);
    RC_ASSERT((report->transfers == Transfers::tight) == tight_by_figures(plan, *lowered, target));
  }
  ++tally.plans;

  for (const auto& m : mutants(plan, *lowered)) {
    RC_LOG() << "mutant: " << m.kind << "\n" << to_string(m.plan) << "\n";
    std::optional<LoweredPlan> form = m.lowered;
    if (!form) {
      auto l = lower(m.plan);
      if (!l.ok()) {
        tally.add(m.kind, "ill-typed (rejected by both)");
        continue;
      }
      form = std::move(*l);
    }
    auto r = check_lowered(*form, target);
    if (!r.ok()) {  // the mutant ends on another mesh or shape of array
      tally.add(m.kind, "rejected as input");
      continue;
    }
    const PropertyResult& g1 = r->correct;
    if (!m.runnable) {
      RC_ASSERT(g1.verdict == Verdict::refuted);
      RC_ASSERT(g1.counterexample->step == m.step);
      tally.add(m.kind, "refuted (no plan IR form: checker only)");
      continue;
    }
    const auto right = runs_right(m.plan, target);
    RC_ASSERT(right.has_value());
    if (*right) {
      RC_ASSERT(g1.verdict == Verdict::proved);
      tally.add(m.kind, "right: proved");
    } else {
      RC_ASSERT(g1.verdict == Verdict::refuted);
      RC_ASSERT(g1.counterexample.has_value());
      const std::string why = confirm_on_data(m.plan, target, *g1.counterexample);
      if (!why.empty()) RC_FAIL(m.kind + ": counterexample " + g1.counterexample->to_string() + " not confirmed: " + why);
      tally.add(m.kind, "wrong: refuted, counterexample confirmed");
    }
  }
}

/// Runs `property` on `cases` random cases (RC_PARAMS may still set the seed).
template <class Property>
void check_cases(int cases, Property property) {
  auto params = rc::detail::configuration().testParams;
  params.maxSuccess = cases;
  const auto info = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(info->test_suite_name()) + "/" + info->name();
  metadata.description = info->name();
  const auto result = rc::detail::checkProperty(rc::detail::toProperty(property), metadata, params);
  if (!result.template is<rc::detail::SuccessResult>()) {
    std::ostringstream message;
    rc::detail::printResultMessage(result, message);
    FAIL() << message.str();
  }
}

/// Prints and resets the tally.
void print_tally(const char* what) {
  int total = 0;
  std::cout << what << ": " << tally.plans << " plans proved and run"
            << (tally.skipped_reductions ? ", " + std::to_string(tally.skipped_reductions) + " reducing with max/min skipped" : "")
            << "\n";
  for (const auto& [kind, outcomes] : tally.by_kind)
    for (const auto& [outcome, count] : outcomes) {
      std::cout << "  " << kind << ": " << count << " " << outcome << "\n";
      total += count;
    }
  std::cout << "  mutants in all: " << total << "\n";
  tally = Tally{};
}

TEST(CheckerMutants, RandomPlansAgreeWithTheInterpreter) {
  check_cases(40, [] { check_plan_and_mutants(*gen_plan(4)); });
  print_tally("random plans");
}

/// A plan that starts with a random fused step (an op of several parts that `fused`
/// accepts, on a random divisible source) followed by up to two random steps; discards
/// the case when 50 random sources offer none.
Plan random_fused_plan(const std::function<bool(const StepOp&)>& fused) {
  MeshOptions mesh_options;
  mesh_options.max_devices = 64;
  TypeOptions type_options;
  type_options.max_rank = 4;
  Mesh mesh;
  DistType source;
  std::vector<Step> first;
  for (int tries = 0; first.empty() && tries < 50; ++tries) {  // most random types offer none
    mesh = *gen_mesh(mesh_options);
    source = *gen_type(mesh, type_options);
    for (auto& op : candidate_ops({mesh, source}))
      if (fused(op))
        if (Step step{op}; apply_step({mesh, source}, step)) first.push_back(std::move(step));
  }
  RC_PRE(!first.empty());
  Plan plan{mesh, source, {*rc::gen::elementOf(first)}, std::nullopt};
  TypedState next = *apply_step({mesh, source}, plan.steps[0]);
  for (int extra = *rc::gen::inRange(0, 3); extra > 0; --extra) {
    std::vector<std::pair<Step, TypedState>> valid;
    for (auto& op : candidate_ops(next))
      if (Step step{op}; auto after = apply_step(next, step)) valid.emplace_back(std::move(step), std::move(*after));
    if (valid.empty()) break;
    auto [step, after] = *rc::gen::elementOf(valid);
    plan.steps.push_back(std::move(step));
    next = std::move(after);
  }
  return plan;
}

TEST(CheckerMutants, FusedAllToAllsAgreeWithTheInterpreter) {
  // A fused all_to_all (two or three moves), then up to two random steps: the plan
  // proved, its mutants (swapped axes or destinations, reversed moves, wrong member
  // digits, a wrong concat dim) agree with the interpreter.
  check_cases(40, [] {
    check_plan_and_mutants(random_fused_plan([](const StepOp& op) {
      const auto* a2a = std::get_if<AllToAll>(&op);
      return a2a && a2a->moves.size() > 1;
    }));
  });
  print_tally("fused all_to_alls");
}

TEST(CheckerMutants, FusedAllGathersAgreeWithTheInterpreter) {
  // A fused all_gather (two or three parts), then up to two random steps: the plan
  // proved, its mutants (swapped axes, reversed parts, wrong member digits, parts on
  // each other's dims) agree with the interpreter.
  check_cases(40, [] {
    check_plan_and_mutants(random_fused_plan([](const StepOp& op) {
      const auto* gather = std::get_if<AllGather>(&op);
      return gather && gather->parts.size() > 1;
    }));
  });
  print_tally("fused all_gathers");
}

TEST(CheckerMutants, SynthesizedPlansAgreeWithTheInterpreter) {
  check_cases(40, [] {
    MeshOptions mesh_options;
    mesh_options.max_devices = 32;
    const Mesh mesh = *gen_mesh(mesh_options);
    const DistType source = *gen_type(mesh);
    DistType target = *gen_type(mesh);
    RC_PRE(source.rank() == target.rank());
    for (std::size_t i = 0; i < target.rank(); ++i) {  // the same array
      target.dims[i].global = source.dims[i].global;
      RC_PRE(target.dims[i].global % tile_count(target.dims[i]) == 0);
    }
    target.elem = source.elem;
    auto plan = synthesize(mesh, source, target);
    RC_PRE(plan.ok());
    check_plan_and_mutants(*plan);
  });
  print_tally("synthesized plans");
}

TEST(CheckerMutants, PaddedPlansAgreeWithTheInterpreter) {
  // Synthesized plans of padded dims (docs/notation.md "Padded dims"): slices into,
  // permutes of, all_to_alls out of and into, and gathers of padded dims.
  struct Case {
    const char *mesh, *src, *dst;
  };
  static const Case cases[] = {
      {"{x:4}", "f32[5, 6]", "f32[{x}5, 6]"},
      {"{x:8}", "f32[5, 4]", "f32[{x}5, 4]"},
      {"{x:2, y:2}", "f32[{x,y}5, 4]", "f32[{y,x}5, 4]"},
      {"{x:4}", "f32[{x}5, 8]", "f32[5, {x}8]"},
      {"{x:4}", "f32[{x}6, 5]", "f32[6, {x}5]"},
      {"{x:4}", "f32[{x}5, 7]", "f32[5, {x}7]"},
      {"{x:2, y:2}", "f32[{x,y}5, 3]", "f32[5, 3]"},
      {"{x:8}", "f32[{x}7, 16]", "f32[{x:(1)2}7, 16]"},
      {"{x:3, y:2}", "f32[13, 4]", "f32[{x,y}13, 4]"},
  };
  check_cases(1, [] {
    for (const auto& c : cases) {
      const Mesh mesh = parse_mesh(c.mesh).value();
      auto plan = synthesize(mesh, parse_type(c.src, mesh).value(), parse_type(c.dst, mesh).value());
      RC_ASSERT(plan.ok());
      check_plan_and_mutants(*plan);
    }
  });
  EXPECT_EQ(tally.plans, 9);
  print_tally("padded plans");
}

}  // namespace
}  // namespace redist::testing
