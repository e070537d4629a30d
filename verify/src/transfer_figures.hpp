#pragma once
// Exact transfer figures of a lowered plan: what one device receives at most, and the
// lower bound LB(d) (target bytes a device lacks in the source), max over devices.

#include <optional>

#include "redist/core/bigint.hpp"
#include "redist/plan/lowered.hpp"

namespace redist::smt {

/// Bytes one device receives over `plan`, max over devices. Per step from the lowered
/// form: a gather receives group-1 chunks, an all-to-all group-1 chunks, a permute the
/// whole buffer on devices whose source is another device. Exact with at most one
/// permute; with more, their maxima are added (an upper bound).
BigInt received_bytes_max(const LoweredPlan& plan);

/// LB(d) = bytes of the target shard of d not in its source shard, max over devices,
/// counted exactly by the synthesizer's figures; nullopt beyond its device limit.
std::optional<BigInt> lower_bound_max(const LoweredPlan& plan, const TypedState& target);

/// The number of collective_permute steps of `plan`.
std::size_t permute_count(const LoweredPlan& plan);

}  // namespace redist::smt
