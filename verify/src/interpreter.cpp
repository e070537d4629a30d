// run_step / run_plan: type-check a step, validate its lowering and the data, then move
// the data by the collective's definition (collectives.cpp).

#include <algorithm>
#include <optional>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include <fmt/format.h>

#include "buffer_ops.hpp"
#include "collectives.hpp"
#include "lowered_checks.hpp"
#include "redist/plan/lowered.hpp"
#include "redist/plan/lowering.hpp"
#include "redist/verify/interpreter.hpp"

namespace redist {

namespace {

/// "[3, 2]".
std::string shape_text(const std::vector<int64_t>& shape) {
  return fmt::format("[{}]", fmt::join(shape, ", "));
}

/// The axes a grouped step runs over; nullopt for a collective_permute or a transfer
/// (an all_to_all's or all_gather's are its moves' or parts').
std::optional<std::vector<AxisRef>> step_axes(const StepOp& op) {
  return std::visit(
      [](const auto& s) -> std::optional<std::vector<AxisRef>> {
        using Op = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<Op, CollectivePermute> || std::is_same_v<Op, Transfer>) return std::nullopt;
        else if constexpr (std::is_same_v<Op, AllToAll> || std::is_same_v<Op, AllGather>) return s.axes();
        else return s.axes;
      },
      op);
}

/// The groups of move (part) `k` of a fused all_to_all (all_gather) within `groups`
/// (its groups over all the moves' axes): the members of one group whose member-index
/// digits (move 0 most significant, digit k of size sizes[k]) differ only in digit k,
/// ordered by it.
DeviceGroups move_groups(const DeviceGroups& groups, const std::vector<int64_t>& sizes, std::size_t k) {
  int64_t stride = 1;
  for (std::size_t j = k + 1; j < sizes.size(); ++j) stride *= sizes[j];
  DeviceGroups out;
  for (const auto& group : groups)
    for (int64_t first = 0; first < static_cast<int64_t>(group.size()); ++first) {
      if ((first / stride) % sizes[k] != 0) continue;  // not digit k = 0
      std::vector<int64_t> members;
      for (int64_t d = 0; d < sizes[k]; ++d) members.push_back(group[static_cast<std::size_t>(first + d * stride)]);
      out.push_back(std::move(members));
    }
  return out;
}

/// Runs the moves of `a2a` one after another, each an all_to_all within its groups
/// (move_groups); the last makes buffers of `result_shape` (a single move's padded
/// chunks and kept extents). The definition a fused all_to_all is checked against.
MeshData all_to_all_moves(const AllToAll& a2a, const DeviceGroups& groups, MeshData data,
                          std::vector<int64_t> shape, const std::vector<int64_t>& result_shape) {
  std::vector<int64_t> sizes;
  for (const auto& m : a2a.moves) sizes.push_back(product_of_sizes(m.axes));
  for (std::size_t k = 0; k < a2a.moves.size(); ++k) {
    const auto src = static_cast<std::size_t>(a2a.moves[k].src_dim), dst = static_cast<std::size_t>(a2a.moves[k].dst_dim);
    const bool last = k + 1 == a2a.moves.size();
    const int64_t chunk = last ? result_shape[dst] : shape[dst] / sizes[k];
    const int64_t keep = last ? result_shape[src] : shape[src] * sizes[k];
    data = interp::all_to_all(move_groups(groups, sizes, k), data, src, dst, chunk, keep);
    shape[dst] = chunk;
    shape[src] = keep;
  }
  return data;
}

/// Returns `data` after the parts of `gather` run one after another, each an all_gather
/// within its groups (move_groups); the last makes buffers of `result_shape` (a single
/// part's kept extent). The definition a fused all_gather is checked against.
MeshData all_gather_parts(const AllGather& gather, const DeviceGroups& groups, MeshData data,
                          std::vector<int64_t> shape, const std::vector<int64_t>& result_shape) {
  std::vector<int64_t> sizes;
  for (const auto& p : gather.parts) sizes.push_back(product_of_sizes(p.axes));
  for (std::size_t k = 0; k < gather.parts.size(); ++k) {
    const auto dim = static_cast<std::size_t>(gather.parts[k].dim);
    const int64_t keep = k + 1 == gather.parts.size() ? result_shape[dim] : shape[dim] * sizes[k];
    data = interp::all_gather(move_groups(groups, sizes, k), data, dim, keep);
    shape[dim] = keep;
  }
  return data;
}

/// Ok when `data` holds, for every device of `state.mesh`, one buffer of the local
/// shape of `state.type` (at index = physical id); else an error naming the first
/// device that does not.
Status check_data(const TypedState& state, const MeshData& data) {
  const int64_t n = buffer_slots(state.mesh);
  if (static_cast<int64_t>(data.size()) < n)
    return invalid_error(
        fmt::format("data holds {} device buffers but the mesh has devices up to {}", data.size(), n - 1));
  const auto shape = local_shape(state.type);
  const auto count = static_cast<std::size_t>(interp::element_count(shape));
  for (int64_t id : state.mesh.device_ids()) {
    const auto d = static_cast<std::size_t>(id);
    if (data[d].shape != shape || data[d].values.size() != count)
      return invalid_error(fmt::format("device {} holds a buffer of shape {} with {} values, but {} has local shape {}",
                                       d, shape_text(data[d].shape), data[d].values.size(), to_string(state.type),
                                       shape_text(shape)));
  }
  return Ok{};
}

/// The local shape the collective of `op` makes from buffers of `shape` with groups of
/// `g` members and the result shape `result`; nullopt when a reduce_scatter's dim is
/// not a multiple of `g`. A slice or an all_to_all cuts chunks of ceil(extent / g) (a
/// padded dim's last chunks are padded); a gather or an all_to_all keeps at most the
/// result's extent of its concatenation (a padded tail dropped: see execute()).
std::optional<std::vector<int64_t>> collective_shape(const StepOp& op, std::vector<int64_t> shape, int64_t g,
                                                     const std::vector<int64_t>& result) {
  auto at = [](int dim) { return static_cast<std::size_t>(dim); };
  auto split = [&](int dim) { shape[at(dim)] = shape[at(dim)] / g + (shape[at(dim)] % g != 0); };
  auto grow = [&](int dim) { shape[at(dim)] = std::min(shape[at(dim)] * g, result[at(dim)]); };
  if (const auto* s = std::get_if<AllSlice>(&op)) {
    split(s->dim);
  } else if (const auto* s = std::get_if<AllGather>(&op)) {
    for (const auto& p : s->parts) {
      g = product_of_sizes(p.axes);
      grow(p.dim);
    }
  } else if (const auto* s = std::get_if<AllToAll>(&op)) {
    for (const auto& m : s->moves) {
      g = product_of_sizes(m.axes);
      split(m.dst_dim);
      grow(m.src_dim);
    }
  } else if (const auto* s = std::get_if<ReduceScatter>(&op)) {
    if (shape[at(s->dim)] % g != 0) return std::nullopt;
    split(s->dim);
  }
  return shape;
}

/// Runs the collective of `op` on validated data (buffers of `shape` on the mesh's
/// devices) with validated groups or pairs, making buffers of `result_shape` (chunks and
/// kept extents of padded dims).
MeshData execute(const StepOp& op, const DeviceGroups& groups, const DevicePairs& pairs, const MeshData& data,
                 ReduceOp reduce_op, const std::vector<int64_t>& shape, const std::vector<int64_t>& result_shape) {
  auto at = [](int dim) { return static_cast<std::size_t>(dim); };
  if (const auto* s = std::get_if<AllSlice>(&op))
    return interp::all_slice(groups, data, at(s->dim), result_shape[at(s->dim)]);
  if (const auto* s = std::get_if<AllGather>(&op))
    return all_gather_parts(*s, groups, data, shape, result_shape);
  if (const auto* s = std::get_if<AllToAll>(&op))
    return all_to_all_moves(*s, groups, data, shape, result_shape);
  if (const auto* s = std::get_if<ReduceScatter>(&op))
    return interp::reduce_scatter(groups, data, at(s->dim), reduce_op);
  if (std::holds_alternative<AllReduce>(op)) return interp::all_reduce(groups, data, reduce_op);
  if (const auto* s = std::get_if<AddPending>(&op)) return interp::add_pending(groups, data, s->op);
  return interp::collective_permute(pairs, data);
}

/// `error` with "<step name>: " in front of its message.
Error in_step(const StepOp& op, Error error) {
  error.message = fmt::format("{}: {}", step_name(op), error.message);
  return error;
}

}  // namespace

Result<MeshData> run_step(const TypedState& before, const Step& step, const MeshData& data) {
  const auto after = apply_step(before, step);
  if (!after.ok()) return in_step(step.op, after.error());
  if (auto ok = check_data(before, data); !ok.ok()) return in_step(step.op, ok.error());
  if (std::holds_alternative<Transfer>(step.op)) {  // boxes checked inside the buffers by its typing
    const auto slots = static_cast<std::size_t>(std::max<int64_t>(static_cast<int64_t>(data.size()), buffer_slots(after->mesh)));
    const auto lowered = lower_step(before, *after, step);
    return interp::transfer(std::get<LoweredTransfer>(lowered.op).sends, data, after->mesh, local_shape(after->type),
                            slots);
  }

  const auto axes = step_axes(step.op);
  DeviceGroups groups;
  DevicePairs pairs;
  int64_t group_size = 1;
  if (axes) {
    if (step.pairs) return in_step(step.op, invalid_error("permute pairs given for a grouped step"));
    group_size = product_of_sizes(*axes);
    groups = step_groups(before, step);
    if (auto ok = interp::check_groups(groups, before.mesh, group_size); !ok.ok())
      return in_step(step.op, ok.error());
  } else {
    if (step.groups) return in_step(step.op, invalid_error("device groups given for a permute"));
    pairs = step.pairs ? *step.pairs : permute_pairs(before, *after);
    if (auto ok = interp::check_pairs(pairs, before.mesh); !ok.ok()) return in_step(step.op, ok.error());
  }

  const auto result_shape = local_shape(after->type);
  // A padded gather drops the tail of its concatenation (the typing rule checked it is padding).
  const auto shape = collective_shape(step.op, local_shape(before.type), group_size, result_shape);
  if (!shape || *shape != result_shape)
    return in_step(step.op,
                   unsupported_error(fmt::format(
                       "cannot run on {}: groups of {} do not turn local shape {} into {} (padded dim)",
                       to_string(before.type), group_size, shape_text(local_shape(before.type)),
                       shape_text(result_shape))));
  return execute(step.op, groups, pairs, data, before.type.reduce_op, local_shape(before.type), result_shape);
}

Result<MeshData> run_plan(const Plan& plan, MeshData data) {
  const auto states = type_plan(plan);
  if (!states.ok()) return states.error();
  TypedState state{plan.mesh, plan.source};
  for (std::size_t i = 0; i < plan.steps.size(); ++i) {
    auto next = run_step(state, plan.steps[i], data);
    if (!next.ok()) {
      Error error = next.error();
      error.message = fmt::format("step {}: {}", i + 1, error.message);
      return error;
    }
    data = std::move(next).value();
    state = (*states)[i];
  }
  return data;
}

}  // namespace redist
