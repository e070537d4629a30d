#pragma once
// Exact figures of plans (docs/design.md §2-§3): per step the local bytes before and after,
// the bytes each device sends and receives (max and total over devices) and the group
// size; per plan the peak, the bound, the bytes received and the lower bound LB(d).
// Heavy header (big integers): include it only where figures are computed.
//
// Per device, a step of group size g on local bytes B moves:
//   all_slice 0; all_gather (g-1)*B; all_to_all (g-1)/g*B; reduce_scatter (g-1)/g*B;
//   all_reduce 2(g-1)/g*B (rounded up); transfer: the boxes of its lowered sends that
//   leave their device; collective_permute B for each device whose
//   lowered pair has another source (received) or per pair it serves (sent). B counts
//   padded buffers whole; on a padded split dim an all_to_all sends g-1 chunks of the
//   result's split extent, (g-1) x (B with the split dim cut to it), which may exceed
//   (g-1)/g*B (docs/notation.md "Padded dims").

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string_view>
#include <vector>

#include "redist/core/bigint.hpp"
#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"

namespace redist {

struct StepFigures {
  std::string_view op;  // step_name()
  BigInt local_bytes_before;
  BigInt local_bytes_after;
  BigInt send_bytes_max;
  BigInt send_bytes_total;
  BigInt recv_bytes_max;
  BigInt recv_bytes_total;
  int64_t group_size = 1;  // devices per group; 2 for a permute (point to point)
};

/// LB(d) = bytes of the target shard of device d not present in its source shard.
struct LowerBound {
  BigInt max;
  BigInt total;
};

struct PlanFigures {
  std::vector<StepFigures> steps;
  BigInt source_local_bytes;
  BigInt target_local_bytes;
  BigInt peak_local_bytes;       // max of the source and every step's result
  BigInt transient_peak_bytes;   // max over steps of input + output alive at once
  BigInt bound_bytes;            // the budget, or max(source, target) local bytes
  BigInt recv_bytes_max;         // max over devices of the bytes it receives in all steps
  BigInt recv_bytes_total;       // sum over devices and steps
  std::optional<LowerBound> lower_bound;  // nullopt when too many devices to count
};

/// Devices (or, on one mesh, coordinate tuples of the axes the types use) beyond which
/// permute pairs and lower bounds are not enumerated. Only the cases without a closed
/// form enumerate: explicit pairs, a change of device order, blocks that do not nest.
inline constexpr int64_t kMaxEnumeratedDevices = int64_t{1} << 22;

/// The figures of `step` taking `before` to `after` (as apply_step gives it). A
/// symbolic permute on one mesh is counted per class of mesh digits, at any device
/// count; one that must be enumerated on more than kMaxEnumeratedDevices devices is
/// counted as moving every device (an upper bound).
StepFigures step_figures(const TypedState& before, const TypedState& after, const Step& step);

/// Bytes each device sends and receives in the transfer `t` from `before` to `after`
/// (its lowered sends; a box that stays on its device moves nothing), by physical id;
/// only the sends `counted` accepts, when given.
struct TransferBytes {
  std::map<int64_t, BigInt> sent, received;
};
TransferBytes transfer_bytes(const TypedState& before, const TypedState& after, const Transfer& t,
                             const std::function<bool(const TransferBox&)>& counted = nullptr);

/// Bytes physical device `device` receives in `step` taking `before` to `after`.
BigInt device_recv_bytes(const TypedState& before, const TypedState& after, const Step& step, int64_t device);

/// The figures of `plan` (which must type-check); `budget_bytes` sets the bound.
Result<PlanFigures> plan_figures(const Plan& plan, std::optional<uint64_t> budget_bytes = {});

/// LB(d) for physical device `device`: bytes of its shard of `dst` on `dst_mesh` not in
/// its shard of `src` on `src_mesh` (box intersection per dim, padding excluded), plus,
/// when `src` has pending reductions `dst` does not keep (g the product of their
/// sizes), the device's even share of (g-1) element transfers per element of the
/// reduced value (docs/cost_model.md "Lower bound with reductions").
BigInt device_lower_bound(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh, const DistType& dst,
                          int64_t device);

/// Max and total of LB(d) over devices, exactly: in closed form on one mesh when every
/// dim's source and target blocks nest (no padding, one block size divides the other),
/// else by visiting devices (or, on one mesh, coordinate tuples); nullopt when more than
/// kMaxEnumeratedDevices of those would have to be visited.
std::optional<LowerBound> lower_bound(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                                      const DistType& dst);

}  // namespace redist
