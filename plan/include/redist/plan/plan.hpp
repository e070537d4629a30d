#pragma once
// The plan IR (docs/design.md §2): a source type, a list of collective steps, and an
// optional asserted target. Shared by synthesis, the checker and every backend.

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"

namespace redist {

/// Append replicated `axes` to the minor end of `dim`: a local dynamic slice.
struct AllSlice {
  int dim = 0;
  std::vector<AxisRef> axes;
  bool operator==(const AllSlice&) const = default;
};
/// One part of an all_gather: remove the suffix `axes` of `dim`.
struct AllGatherPart {
  int dim = 0;
  std::vector<AxisRef> axes;
  bool operator==(const AllGatherPart&) const = default;
};
/// The type change of its parts, in ONE collective within groups over all their axes
/// (part 0's axes most significant): every member gets the group's buffers, each placed
/// along every part's dim by its digit of that part. One part is the plain all_gather
/// (concatenate the group's buffers in group order); several (a fused all_gather,
/// docs/notation.md) gather distinct, unpadded dims over disjoint axes.
struct AllGather {
  std::vector<AllGatherPart> parts;
  AllGather() = default;
  AllGather(int dim, std::vector<AxisRef> axes) : parts{{dim, std::move(axes)}} {}
  explicit AllGather(std::vector<AllGatherPart> parts) : parts(std::move(parts)) {}
  /// Returns the group's axes: every part's axes, in part order.
  std::vector<AxisRef> axes() const;
  bool operator==(const AllGather&) const = default;
};
/// One move of an all_to_all: the suffix `axes` of `src_dim` to the minor end of `dst_dim`.
struct AllToAllMove {
  int src_dim = 0;
  int dst_dim = 0;
  std::vector<AxisRef> axes;
  bool operator==(const AllToAllMove&) const = default;
};
/// The type change of its moves applied in order, in ONE collective within groups
/// over all their axes (move 0's axes most significant). One move is the plain
/// all_to_all; several (a fused all_to_all, docs/notation.md) use disjoint axes, no dim
/// is both a source and a destination, and their dims are unpadded.
struct AllToAll {
  std::vector<AllToAllMove> moves;
  AllToAll() = default;
  AllToAll(int src_dim, int dst_dim, std::vector<AxisRef> axes) : moves{{src_dim, dst_dim, std::move(axes)}} {}
  explicit AllToAll(std::vector<AllToAllMove> moves) : moves(std::move(moves)) {}
  /// Returns the group's axes: every move's axes, in move order.
  std::vector<AxisRef> axes() const;
  bool operator==(const AllToAll&) const = default;
};
/// Any change that keeps every dim's local size; `to_mesh` changes the device order.
struct CollectivePermute {
  DistType to;
  std::optional<Mesh> to_mesh;
  bool operator==(const CollectivePermute&) const = default;
};
/// Remove reduction axes `axes` and append them to `dim`.
struct ReduceScatter {
  int dim = 0;
  std::vector<AxisRef> axes;
  bool operator==(const ReduceScatter&) const = default;
};
/// Remove reduction axes `axes`; the result is replicated on them.
struct AllReduce {
  std::vector<AxisRef> axes;
  bool operator==(const AllReduce&) const = default;
};

/// Add replicated `axes` as pending reduction axes with operator `op` (DTensor's
/// Replicate -> Partial): a local step. The device whose coordinates on `axes` are all
/// 0 keeps its value, every other device holds the identity of `op` (0 for sum, the
/// lowest value for max, the highest for min), so the reduction over `axes` is the
/// value again.
struct AddPending {
  std::vector<AxisRef> axes;
  ReduceOp op = ReduceOp::sum;
  bool operator==(const AddPending&) const = default;
};

/// One point-to-point move of a `transfer`: physical device `from` sends the box of
/// `extent` elements per dim that starts at local index `src_start` of its buffer to
/// device `to`, which stores it at local index `dst_start` of its new buffer. from ==
/// to: the box stays on the device (a local copy, no message).
struct TransferBox {
  int64_t from = 0;
  int64_t to = 0;
  std::vector<int64_t> src_start;
  std::vector<int64_t> dst_start;
  std::vector<int64_t> extent;
  bool operator==(const TransferBox&) const = default;
};
using TransferTable = std::vector<TransferBox>;

/// Move the array to type `to` on `to_mesh`, a mesh over another set of devices
/// (disjoint, overlapping, another count; docs/meshes.md) by point-to-point sends:
/// every target element once, from a source holder. `table` gives the sends
/// explicitly (an imported or hand-written plan); absent, the lowering chooses them
/// (transfer_table in lowered.hpp). After it the current mesh is `to_mesh`.
struct Transfer {
  DistType to;
  Mesh to_mesh;
  std::optional<TransferTable> table;
  bool operator==(const Transfer&) const = default;
};

using StepOp = std::variant<AllSlice, AllGather, AllToAll, CollectivePermute, ReduceScatter, AllReduce, AddPending,
                            Transfer>;

/// Physical device ids of each group, members in order (lowered form).
using DeviceGroups = std::vector<std::vector<int64_t>>;
/// (source, target) physical device ids of a collective_permute (lowered form).
using DevicePairs = std::vector<std::pair<int64_t, int64_t>>;

/// One step. `groups`/`pairs` carry an explicit lowering when a plan was imported
/// (e.g. from XLA HLO); when absent they are derived from the types.
struct Step {
  Step() = default;
  Step(StepOp op, std::optional<DeviceGroups> groups = std::nullopt,
       std::optional<DevicePairs> pairs = std::nullopt)
      : op(std::move(op)), groups(std::move(groups)), pairs(std::move(pairs)) {}

  StepOp op;
  std::optional<DeviceGroups> groups;
  std::optional<DevicePairs> pairs;
  bool operator==(const Step&) const = default;
};

/// Name of the step kind as written in the plan text: "all_gather", ...
std::string_view step_name(const StepOp& op);

/// Returns true when every pair of `pairs` keeps its buffer on its device.
bool all_in_place(const DevicePairs& pairs);

/// Returns true when `step` moves no data: a collective_permute whose explicit pairs
/// all keep each buffer on its device (a change of device order where every device
/// already holds its block, e.g. a replicated array), or an all_slice, all_gather,
/// all_to_all, all_reduce or reduce_scatter over axes of size 1 only (groups of one
/// device; such a slice drops nothing).
bool moves_nothing(const Step& step);

struct Plan {
  Mesh mesh;
  DistType source;
  std::vector<Step> steps;
  std::optional<DistType> target;  // asserted final type, if given
  bool operator==(const Plan&) const = default;
};

}  // namespace redist
