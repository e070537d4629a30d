// G3b for plans with pending reductions (docs/checker.md "G3b with reductions"). The
// reducing steps must come first (after all_slices and add_pendings only, which
// receive nothing) and
// leave exactly the reductions the target keeps;
// the rest of the plan (no reductions left to do) is posed to Z3 as the usual tight
// query (query_transfers.cpp), and the reducing prefix is measured from its lowering:
// every member of a reduce_scatter group receives (g-1)/g of its buffer, of an
// all_reduce 2(g-1)/g. LB(d) = share + LB_move(d) (plan/src/lower_bound.cpp), share the
// same on every device. With the rest tight, received(d) = prefix + LB_move(mid, d),
// and LB_move(mid, d) >= LB_move(src, d) on every device (reducing steps only shrink
// or keep the source's boxes, and so do slices), so received(d) == LB(d) on every device exactly when
// the prefix receives the share and the two LB_move totals agree.

#include <algorithm>

#include <fmt/format.h>

#include "properties.hpp"
#include "redist/plan/figures.hpp"
#include "step_relations.hpp"
#include "transfer_figures.hpp"

namespace redist::smt {

namespace {

PropertyResult with(Verdict verdict, std::string detail, PropertyResult base = {}) {
  base.verdict = verdict;
  base.detail = std::move(detail);
  return base;
}

DistType dims_only(DistType type) {
  type.reduce_axes.clear();
  type.reduce_op = ReduceOp::sum;
  return type;
}

}  // namespace

PropertyResult prove_tight_reducing(const LoweredPlan& plan, const TypedState& target, const CheckOptions& options) {
  std::size_t p = 0;
  while (p < plan.steps.size() &&
         (reduces(plan.steps[p]) || adds_pending(plan.steps[p]) || std::holds_alternative<LoweredSlice>(plan.steps[p].op)))
    ++p;
  if (std::any_of(plan.steps.begin() + static_cast<std::ptrdiff_t>(p), plan.steps.end(),
                  [](const LoweredStep& s) { return reduces(s) || adds_pending(s); }))
    return with(Verdict::unknown, "unsupported: transfers are measured only when the reducing steps come first");
  const TypedState& mid = p ? plan.steps[p - 1].after : plan.source;
  if (mid.type.reduce_axes.size() != target.type.reduce_axes.size())
    return with(Verdict::unknown, "unsupported: transfers are measured only when the reducing steps come first");
  const LoweredPlan prefix{plan.source, {plan.steps.begin(), plan.steps.begin() + static_cast<std::ptrdiff_t>(p)}};
  const LoweredPlan rest{mid, {plan.steps.begin() + static_cast<std::ptrdiff_t>(p), plan.steps.end()}};
  PropertyResult moves;
  if (rest.steps.empty()) moves = with(Verdict::proved, "no step after the reductions");
  else moves = prove_tight(rest, target, options);
  if (moves.verdict == Verdict::unknown) return moves;

  const auto full = lower_bound(plan.source.mesh, plan.source.type, target.mesh, target.type);
  const auto from_src = lower_bound(plan.source.mesh, dims_only(plan.source.type), target.mesh, dims_only(target.type));
  const auto from_mid = lower_bound(mid.mesh, dims_only(mid.type), target.mesh, dims_only(target.type));
  if (!full || !from_src || !from_mid)
    return with(Verdict::unknown, "unknown: too many devices to count the lower bound", moves);
  const BigInt share = (full->total - from_src->total) / target.mesh.num_devices();
  const BigInt reducing = received_bytes_max(prefix);
  if (moves.verdict == Verdict::refuted) {
    moves.detail = fmt::format("after the reductions: {}", moves.detail);
    return moves;
  }
  // A refutation by counts has no SMT query of its own: the rest's (unsat) query is not
  // a certificate of it, so it is not kept.
  PropertyResult counted = moves;
  counted.smt2.clear();
  const std::string measured =
      fmt::format("the reducing steps receive {} bytes per device, the reductions' share of LB is {}",
                  to_decimal(reducing), to_decimal(share));
  if (reducing != share)
    return with(Verdict::refuted, measured, counted);
  if (from_mid->total != from_src->total)
    return with(Verdict::refuted,
                fmt::format("the reducing steps leave {} more target bytes to move (over all devices) than the source "
                            "lacks",
                            to_decimal(from_mid->total - from_src->total)),
                counted);
  return with(Verdict::proved,
              fmt::format("{}; the rest receives exactly the target elements it lacks, once (Z3)", measured), moves);
}

}  // namespace redist::smt
