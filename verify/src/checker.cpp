// check_lowered / check_plan: validate the lowering, pose one query per property,
// and gather the verdicts and figures.

#include "redist/verify/checker.hpp"

#include <algorithm>
#include <string>

#include <fmt/format.h>
#include <z3.h>

#include "lowered_checks.hpp"
#include "properties.hpp"
#include "step_relations.hpp"
#include "text.hpp"
#include "transfer_figures.hpp"

namespace redist {

namespace {

/// `error` with "step k: " in front of its message.
Error at_step(std::size_t k, Error error) {
  error.message = fmt::format("step {}: {}", k, error.message);
  return error;
}

/// Ok when every explicit table of `step` is well formed on its meshes.
Status check_tables(const LoweredStep& step) {
  const Mesh& mesh = step.before.mesh;
  return std::visit(
      [&mesh, &step](const auto& s) -> Status {
        using Op = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<Op, LoweredPermute>) {
          if (s.table) return interp::check_pairs(*s.table, mesh);
        } else if constexpr (std::is_same_v<Op, LoweredTransfer>) {
          return check_sends(s.sends, step.before, step.after);
        } else {
          if (s.group.table) {
            if (auto ok = interp::check_groups(*s.group.table, mesh, s.group.size); !ok) return ok;
          }
          if constexpr (std::is_same_v<Op, LoweredReduceScatter> || std::is_same_v<Op, LoweredAllReduce>) {
            for (const auto& axis : s.group.axes) {
              const auto& pending = step.before.type.reduce_axes;
              // (A pending axis of size 1 overlaps nothing, itself included.)
              if (std::none_of(pending.begin(), pending.end(),
                               [&](const AxisRef& r) { return axis == r || overlaps(axis, r); }))
                return invalid_error(fmt::format("the {} reduces over {}, which is not a reduction axis of {}",
                                                 lowered_name(step.op), to_string(axis), to_string(step.before.type)));
            }
          }
          if constexpr (std::is_same_v<Op, LoweredAddPending>) {
            // The live-path count of G1 (query_correct.cpp) needs the symbolic groups.
            if (s.group.table) return invalid_error("add_pending takes no explicit groups");
            if (s.group.size != product_of_sizes(s.group.axes))
              return invalid_error(fmt::format("the add_pending group size {} is not the product {} of its axes' sizes",
                                               s.group.size, product_of_sizes(s.group.axes)));
          }
          if constexpr (std::is_same_v<Op, LoweredSlice>) {
            const int64_t ids = mesh.id_bound();  // indexed by physical id
            if (s.offsets && static_cast<int64_t>(s.offsets->size()) != ids)
              return invalid_error(fmt::format("the offsets table has {} entries for device ids 0..{}",
                                               s.offsets->size(), ids - 1));
          }
        }
        return Ok{};
      },
      step.op);
}

/// Ok when `target` can be compared with the end of `plan`.
Status check_target(const LoweredPlan& plan, const TypedState& target) {
  const TypedState& last = plan.steps.empty() ? plan.source : plan.steps.back().after;
  if (!target.mesh.same_axes(last.mesh))
    return invalid_error(fmt::format("the target mesh {} does not have the axes of the plan's mesh {}",
                                     to_string(target.mesh), to_string(last.mesh)));
  // The queries compare the plan's last state with the target coordinate by coordinate,
  // so both must put the same device at each coordinate (a plan that ends on another
  // device order needs its permute: without this check such a plan was proved).
  if (!(target.mesh == last.mesh))
    return invalid_error(fmt::format("the target mesh {} orders the devices otherwise than the plan's last mesh {}: "
                                     "the plan must end on its target's device order",
                                     to_string(target.mesh), to_string(last.mesh)));
  if (target.type.rank() != last.type.rank() || target.type.elem != last.type.elem)
    return invalid_error(
        fmt::format("the target {} is not an array of the plan's shape and element type", to_string(target.type)));
  for (std::size_t i = 0; i < target.type.rank(); ++i)
    if (target.type.dims[i].global != last.type.dims[i].global)
      return invalid_error(fmt::format("the target {} has other global sizes than the plan's {}",
                                       to_string(target.type), to_string(last.type)));
  return Ok{};
}

/// An unknown verdict that says why the property was not posed.
PropertyResult not_posed(std::string why) {
  PropertyResult r;
  r.detail = std::move(why);
  return r;
}

/// The most entries an explicit step table (groups=, pairs=, offsets) may have for G1
/// to be posed: beyond it Z3 4.8.12 can spend a minute in a check before it answers
/// the watchdog's interrupt (docs/checker.md "Limits"), and a check must return in time.
constexpr std::size_t kMaxTableEntries = 16384;

/// The number of entries of the largest explicit table of `plan`'s steps.
std::size_t largest_table(const LoweredPlan& plan) {
  std::size_t most = 0;
  for (const auto& step : plan.steps)
    std::visit(
        [&most](const auto& s) {
          using Op = std::decay_t<decltype(s)>;
          if constexpr (std::is_same_v<Op, LoweredPermute>) {
            if (s.table) most = std::max(most, s.table->size());
          } else if constexpr (std::is_same_v<Op, LoweredTransfer>) {
            if (!s.symbolic) most = std::max(most, s.sends.size());
          } else {
            if (s.group.table)
              for (const auto& group : *s.group.table) most = std::max(most, group.size() * s.group.table->size());
            if constexpr (std::is_same_v<Op, LoweredSlice>) {
              if (s.offsets) most = std::max(most, s.offsets->size());
            }
          }
        },
        step.op);
  return most;
}

/// Largest local buffer over the source and every step's result, and largest
/// input + output of one step.
void memory_figures(const LoweredPlan& plan, CheckReport& report) {
  report.peak_local_bytes = local_bytes(plan.source.type);
  report.transient_peak_bytes = report.peak_local_bytes;
  for (const auto& step : plan.steps) {
    const BigInt before = local_bytes(step.before.type), after = local_bytes(step.after.type);
    report.peak_local_bytes = std::max(report.peak_local_bytes, after);
    report.transient_peak_bytes = std::max(report.transient_peak_bytes, BigInt(before + after));
  }
}

/// Every query of a validated plan; Z3 reports internal failures as exceptions.
CheckReport run_queries(const LoweredPlan& plan, const TypedState& target, const CheckOptions& options) {
  CheckReport report;
  report.bound_bytes = options.budget_bytes.value_or(
      std::max(local_bytes(plan.source.type), local_bytes(target.type)));
  memory_figures(plan, report);

  // One context per query (each property builds its own): a context that has solved
  // other queries can make Z3 much slower on the next one.
  report.memory = smt::prove_memory(plan, target, options.budget_bytes, options);
  if (const std::size_t entries = largest_table(plan); entries > kMaxTableEntries)
    report.correct = not_posed(fmt::format(
        "not posed: an explicit table of {} entries, over the {} the checker poses within its time bound", entries,
        kMaxTableEntries));
  else
    report.correct = smt::prove_correct(plan, target, options);
  report.no_peak = smt::prove_no_peak(plan, target, options);
  const bool reduction = !plan.source.type.reduce_axes.empty() ||
                         std::any_of(plan.steps.begin(), plan.steps.end(),
                                     [](const LoweredStep& s) { return smt::reduces(s) || smt::adds_pending(s); });
  if (report.correct.verdict != Verdict::proved) {
    report.tight = not_posed("not posed: transfers are measured only for a correct plan");
  } else if (has_padding(plan.source.type) || has_padding(target.type)) {
    report.tight = not_posed("unsupported: transfers of padded types are not checked yet");
  } else if (reduction) {
    report.tight = smt::prove_tight_reducing(plan, target, options);
  } else {
    report.tight = smt::prove_tight(plan, target, options);
  }
  report.transfers = report.tight.verdict == Verdict::proved    ? Transfers::tight
                     : report.tight.verdict == Verdict::refuted ? Transfers::excess
                                                                : Transfers::unknown;
  // Tight means received(d) == LB(d) on every device, so the maxima agree and the
  // lower bound needs no count over devices (when received_bytes_max is exact).
  report.recv_bytes_max = smt::received_bytes_max(plan);
  // With reductions LB(d) adds the reductions' share (plan/src/lower_bound.cpp).
  report.lower_bound_bytes_max = reduction ? smt::lower_bound_max(plan, target)
                                 : report.transfers == Transfers::tight && smt::permute_count(plan) <= 1
                                     ? std::optional<BigInt>(report.recv_bytes_max)
                                     : smt::lower_bound_max(plan, target);
  report.received_over_lower_bound = report.lower_bound_bytes_max
                                         ? smt::ratio_text(report.recv_bytes_max, *report.lower_bound_bytes_max)
                                         : "unknown";
  report.solver_ms = report.correct.solver_ms + report.memory.solver_ms + report.no_peak.solver_ms +
                     report.tight.solver_ms;
  return report;
}

}  // namespace

Result<CheckReport> check_lowered(const LoweredPlan& plan, const TypedState& target, const CheckOptions& options) {
  for (std::size_t k = 0; k < plan.steps.size(); ++k)
    if (auto ok = check_tables(plan.steps[k]); !ok) return at_step(k + 1, ok.error());
  if (auto ok = check_target(plan, target); !ok) return ok.error();
  try {
    return run_queries(plan, target, options);
  } catch (const z3::exception& e) {
    return Error{Error::Kind::runtime, fmt::format("the solver failed: {}", e.msg()), Error::npos};
  }
}

std::string solver_version() {
  unsigned major = 0, minor = 0, build = 0, revision = 0;
  Z3_get_version(&major, &minor, &build, &revision);
  return fmt::format("{}.{}.{}", major, minor, build);
}

Result<CheckReport> check_plan(const Plan& plan, const CheckOptions& options) {
  auto lowered = lower(plan);
  if (!lowered) return lowered.error();
  const TypedState& last = lowered->steps.empty() ? lowered->source : lowered->steps.back().after;
  const TypedState target{last.mesh, plan.target.value_or(last.type)};
  return check_lowered(*lowered, target, options);
}

}  // namespace redist
