// Exact per-step and per-plan figures (formulas in figures.hpp).

#include "redist/plan/figures.hpp"

#include <algorithm>
#include <map>
#include <tuple>
#include <type_traits>

#include "digit_classes.hpp"
#include "redist/plan/lowered.hpp"
#include "redist/plan/lowering.hpp"

namespace redist {

namespace {

/// Devices per group of `step`: its first explicit group, else the product of its axes;
/// 2 for a permute.
int64_t group_size_of(const Step& step) {
  if (step.groups && !step.groups->empty()) return static_cast<int64_t>(step.groups->front().size());
  return std::visit(
      [](const auto& op) -> int64_t {
        using Op = std::decay_t<decltype(op)>;
        if constexpr (std::is_same_v<Op, CollectivePermute> || std::is_same_v<Op, Transfer>) return 2;
        else if constexpr (std::is_same_v<Op, AllToAll> || std::is_same_v<Op, AllGather>) return product_of_sizes(op.axes());
        else return product_of_sizes(op.axes);
      },
      step.op);
}

/// The lowered (source, target) pairs of a permute, or nullopt when there are too many
/// devices to enumerate them.
std::optional<DevicePairs> pairs_of(const TypedState& before, const TypedState& after, const Step& step) {
  if (step.pairs) return *step.pairs;
  if (after.mesh.num_devices() > kMaxEnumeratedDevices) return std::nullopt;
  return permute_pairs(before, after);
}

/// Bytes of the chunk an all_to_all from `before` to `after` sends each member: the
/// buffer before with its split dims cut to their local sizes after (a padded split dim
/// is padded to whole chunks, so g chunks may exceed the buffer).
BigInt all_to_all_chunk_bytes(const DistType& before, const DistType& after, const AllToAll& a2a) {
  std::vector<int64_t> shape = local_shape(before);
  for (const auto& m : a2a.moves)
    shape[static_cast<std::size_t>(m.dst_dim)] = local_shape(after)[static_cast<std::size_t>(m.dst_dim)];
  BigInt bytes = elem_bytes(before.elem);
  for (int64_t extent : shape) bytes *= extent;
  return bytes;
}

/// Bytes one device receives (and sends) in a step that moves the same amount on every
/// device; for a permute, the bytes of a device that receives. Padded buffers count
/// whole (padding is sent).
BigInt uniform_bytes(const TypedState& before, const TypedState& after, const Step& step, int64_t g) {
  const BigInt bytes = local_bytes(before.type);
  if (std::holds_alternative<AllGather>(step.op)) return bytes * (g - 1);
  if (const auto* a2a = std::get_if<AllToAll>(&step.op))
    return all_to_all_chunk_bytes(before.type, after.type, *a2a) * (g - 1);
  if (std::holds_alternative<ReduceScatter>(step.op)) return bytes * (g - 1) / g;
  if (std::holds_alternative<AllReduce>(step.op)) return (bytes * 2 * (g - 1) + g - 1) / g;
  if (std::holds_alternative<CollectivePermute>(step.op)) return bytes;
  return 0;
}

}  // namespace

TransferBytes transfer_bytes(const TypedState& before, const TypedState& after, const Transfer& t,
                             const std::function<bool(const TransferBox&)>& counted) {
  TransferBytes out;
  for (const TransferBox& box : t.table ? *t.table : transfer_table(before, after)) {
    if (box.from == box.to || (counted && !counted(box))) continue;
    BigInt bytes = elem_bytes(after.type.elem);
    for (int64_t e : box.extent) bytes *= e;
    out.sent[box.from] += bytes;
    out.received[box.to] += bytes;
  }
  return out;
}

namespace {

/// Max and total of the values of `m`.
std::pair<BigInt, BigInt> max_total(const std::map<int64_t, BigInt>& m) {
  BigInt max = 0, total = 0;
  for (const auto& [device, bytes] : m) {
    max = std::max(max, bytes);
    total += bytes;
  }
  return {max, total};
}

/// Devices a symbolic permute on one mesh leaves in place (their source is themselves),
/// counted per class of mesh digits (digit_classes.hpp); nullopt for explicit pairs, a
/// change of device order, or factors that do not refine.
std::optional<int64_t> devices_in_place(const TypedState& before, const TypedState& after, const Step& step) {
  if (step.pairs || !(before.mesh == after.mesh)) return std::nullopt;
  std::vector<detail::FactorEquality> in_place;
  for (const PermuteMove& move : permute_moves(before, after))
    in_place.push_back({move.target_axes, move.source_axes, 1});
  return detail::count_devices(after.mesh, in_place);
}

}  // namespace

StepFigures step_figures(const TypedState& before, const TypedState& after, const Step& step) {
  StepFigures f;
  f.op = step_name(step.op);
  f.local_bytes_before = local_bytes(before.type);
  f.local_bytes_after = local_bytes(after.type);
  f.group_size = group_size_of(step);
  if (const auto* t = std::get_if<Transfer>(&step.op)) {
    const auto bytes = transfer_bytes(before, after, *t);
    std::tie(f.send_bytes_max, f.send_bytes_total) = max_total(bytes.sent);
    std::tie(f.recv_bytes_max, f.recv_bytes_total) = max_total(bytes.received);
    return f;
  }
  const BigInt per_device = uniform_bytes(before, after, step, f.group_size);
  const int64_t n = after.mesh.num_devices();
  if (!std::holds_alternative<CollectivePermute>(step.op)) {
    f.send_bytes_max = f.recv_bytes_max = per_device;
    f.send_bytes_total = f.recv_bytes_total = per_device * n;
    return f;
  }
  if (const auto kept = devices_in_place(before, after, step)) {
    // A symbolic permute is a bijection: each moving device sends to exactly one other.
    const int64_t moved = n - *kept;
    f.recv_bytes_max = f.send_bytes_max = moved > 0 ? per_device : BigInt(0);
    f.recv_bytes_total = f.send_bytes_total = per_device * moved;
    return f;
  }
  const auto pairs = pairs_of(before, after, step);
  if (!pairs) {  // too many devices: every device counted as moving (upper bound)
    f.send_bytes_max = f.recv_bytes_max = per_device;
    f.send_bytes_total = f.recv_bytes_total = per_device * n;
    return f;
  }
  std::map<int64_t, int64_t> fan_out;
  int64_t moved = 0;
  for (const auto& [source, target] : *pairs) {
    if (source == target) continue;
    ++moved;
    ++fan_out[source];
  }
  int64_t max_fan_out = 0;
  for (const auto& [source, count] : fan_out) max_fan_out = std::max(max_fan_out, count);
  f.recv_bytes_max = moved > 0 ? per_device : BigInt(0);
  f.recv_bytes_total = f.send_bytes_total = per_device * moved;
  f.send_bytes_max = per_device * max_fan_out;
  return f;
}

BigInt device_recv_bytes(const TypedState& before, const TypedState& after, const Step& step, int64_t device) {
  if (const auto* t = std::get_if<Transfer>(&step.op)) {
    const auto bytes = transfer_bytes(before, after, *t);
    const auto it = bytes.received.find(device);
    return it == bytes.received.end() ? BigInt(0) : it->second;
  }
  const BigInt per_device = uniform_bytes(before, after, step, group_size_of(step));
  if (!std::holds_alternative<CollectivePermute>(step.op)) return per_device;
  const auto pairs = pairs_of(before, after, step);
  if (!pairs) return per_device;
  for (const auto& [source, target] : *pairs)
    if (target == device) return source == device ? BigInt(0) : per_device;
  return 0;
}

Result<PlanFigures> plan_figures(const Plan& plan, std::optional<uint64_t> budget_bytes) {
  auto states = type_plan(plan);
  if (!states) return states.error();
  PlanFigures f;
  TypedState at{plan.mesh, plan.source};
  const TypedState& last = states->empty() ? at : states->back();
  f.source_local_bytes = local_bytes(plan.source);
  f.target_local_bytes = local_bytes(last.type);
  f.peak_local_bytes = f.transient_peak_bytes = f.source_local_bytes;
  f.bound_bytes = budget_bytes ? BigInt(*budget_bytes) : std::max(f.source_local_bytes, f.target_local_bytes);
  // Receipts of permutes differ per device. With at most one permute the max over
  // devices is the uniform steps' sum plus the permute's own max; with more, each
  // device's mask says which permutes it receives in, so the max over devices is exact
  // for up to 64 permutes on meshes that can be enumerated.
  const bool one_permute =
      std::count_if(plan.steps.begin(), plan.steps.end(),
                    [](const Step& s) { return std::holds_alternative<CollectivePermute>(s.op); }) <= 1;
  BigInt uniform_max = 0;
  std::vector<BigInt> permute_bytes;
  std::vector<uint64_t> mask;
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const Step& step = plan.steps[k];
    const TypedState& after = (*states)[k];
    StepFigures s = step_figures(at, after, step);
    f.recv_bytes_total += s.recv_bytes_total;
    f.peak_local_bytes = std::max(f.peak_local_bytes, s.local_bytes_after);
    f.transient_peak_bytes = std::max(f.transient_peak_bytes, BigInt(s.local_bytes_before + s.local_bytes_after));
    const auto pairs = !one_permute && std::holds_alternative<CollectivePermute>(step.op) && permute_bytes.size() < 64
                           ? pairs_of(at, after, step)
                           : std::nullopt;
    if (pairs) {
      mask.resize(static_cast<std::size_t>(std::max(at.mesh.num_devices(), after.mesh.num_devices())), 0);
      for (const auto& [source, target] : *pairs)
        if (source != target) mask[static_cast<std::size_t>(target)] |= uint64_t{1} << permute_bytes.size();
      permute_bytes.push_back(s.local_bytes_before);
    } else {
      uniform_max += s.recv_bytes_max;
    }
    f.steps.push_back(std::move(s));
    at = after;
  }
  std::vector<uint64_t> masks = mask;
  std::sort(masks.begin(), masks.end());
  masks.erase(std::unique(masks.begin(), masks.end()), masks.end());
  BigInt permute_max = 0;
  for (uint64_t m : masks) {
    BigInt sum = 0;
    for (std::size_t p = 0; p < permute_bytes.size(); ++p)
      if (m >> p & 1) sum += permute_bytes[p];
    permute_max = std::max(permute_max, sum);
  }
  f.recv_bytes_max = uniform_max + permute_max;
  f.lower_bound = lower_bound(plan.mesh, plan.source, last.mesh, last.type);
  return f;
}

}  // namespace redist
