// G3b for plans with pending reductions (docs/checker.md "G3b with reductions"). The
// reducing steps must come first (after all_slices and add_pendings only, which
// receive nothing) and leave exactly the reductions the target keeps; the rest of the
// plan (no reductions left to do) is posed to Z3 as the usual tight query
// (query_transfers.cpp), and the reducing prefix is measured from its lowering: every
// member of a reduce_scatter group receives (g-1)/g of its buffer, of an all_reduce
// 2(g-1)/g. LB(d) = share + LB_move(d) (plan/src/lower_bound.cpp), share the same on
// every device. With the rest tight, received(d) = prefix + LB_move(mid, d), and
// LB_move(mid, d) >= LB_move(src, d) on every device (reducing steps only shrink or
// keep the source's boxes, and so do slices), so received(d) == LB(d) on every device
// exactly when the prefix receives the share and the two LB_move totals agree.
//
// Between device sets the reducing devices (the source's) are not the devices LB
// spreads the share over (the target's), so the measure is in total: the prefix
// receives the share over all the source's devices, the transfer (posed as the rest,
// the target's trailing add_pendings, which receive nothing, left out) is tight per
// device, and the LB_move totals agree; then received == LB summed over the devices.

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
  const bool across = std::any_of(plan.steps.begin(), plan.steps.end(),
                                  [](const LoweredStep& s) { return std::holds_alternative<LoweredTransfer>(s.op); });
  // Between device sets the target's add_pendings come last and receive nothing.
  std::size_t e = plan.steps.size();
  while (across && e > p && adds_pending(plan.steps[e - 1])) --e;
  if (std::any_of(plan.steps.begin() + static_cast<std::ptrdiff_t>(p), plan.steps.begin() + static_cast<std::ptrdiff_t>(e),
                  [](const LoweredStep& s) { return reduces(s) || adds_pending(s); }))
    return with(Verdict::unknown, "unsupported: transfers are measured only when the reducing steps come first");
  const TypedState& mid = p ? plan.steps[p - 1].after : plan.source;
  const TypedState& end = e ? plan.steps[e - 1].after : plan.source;
  if (!across && mid.type.reduce_axes.size() != target.type.reduce_axes.size())
    return with(Verdict::unknown, "unsupported: transfers are measured only when the reducing steps come first");
  if (across && !mid.type.reduce_axes.empty())
    return with(Verdict::unknown, "unsupported: a transfer between device sets moves reduced values only");
  const LoweredPlan prefix{plan.source, {plan.steps.begin(), plan.steps.begin() + static_cast<std::ptrdiff_t>(p)}};
  const LoweredPlan rest{mid, {plan.steps.begin() + static_cast<std::ptrdiff_t>(p),
                               plan.steps.begin() + static_cast<std::ptrdiff_t>(e)}};
  PropertyResult moves;
  if (rest.steps.empty()) moves = with(Verdict::proved, "no step after the reductions");
  else moves = prove_tight(rest, across ? end : target, options);
  if (moves.verdict == Verdict::unknown) return moves;

  const auto full = lower_bound(plan.source.mesh, plan.source.type, target.mesh, target.type);
  const auto from_src = lower_bound(plan.source.mesh, dims_only(plan.source.type), target.mesh, dims_only(target.type));
  const auto from_mid = lower_bound(mid.mesh, dims_only(mid.type), target.mesh, dims_only(target.type));
  if (!full || !from_src || !from_mid)
    return with(Verdict::unknown, "unknown: too many devices to count the lower bound", moves);
  // Per device (one mesh) or in total over the reducing devices (between device sets);
  // every member of a reducing step receives alike, so the total is the maximum times
  // the source's devices.
  const BigInt reduced = full->total - from_src->total;
  const BigInt share = across ? reduced : BigInt(reduced / target.mesh.num_devices());
  const BigInt most = received_bytes_max(prefix);
  const BigInt reducing = across ? BigInt(most * plan.source.mesh.num_devices()) : most;
  if (moves.verdict == Verdict::refuted) {
    moves.detail = fmt::format("after the reductions: {}", moves.detail);
    return moves;
  }
  // A refutation by counts has no SMT query of its own: the rest's (unsat) query is not
  // a certificate of it, so it is not kept.
  PropertyResult counted = moves;
  counted.smt2.clear();
  const std::string measured =
      across ? fmt::format("in total over the devices (the reducing ones are the source's, the share of LB is spread "
                           "over the target's): the reducing steps receive {} bytes, the reductions' share of LB is {}",
                           to_decimal(reducing), to_decimal(share))
             : fmt::format("the reducing steps receive {} bytes per device, the reductions' share of LB is {}",
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
