#pragma once
// The LOWERED form of a typed plan (docs/design.md §2): what actually runs. Each step is a
// collective with its device groups in member order, its permute (source, target)
// pairs, its slice offsets as functions of the device, and its all-to-all split and
// concat dims. The checker proves this form against the types, and the backends emit
// it, so both read the one description below.
//
// Descriptions are symbolic (in terms of mesh coordinates, independent of the device
// count) unless the plan gave explicit `groups=`/`pairs=`, which are kept as tables.

#include <cstdint>
#include <optional>
#include <string_view>
#include <variant>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"

namespace redist {

/// The groups of a collective. Symbolically, member j of the group of the device at
/// mesh coordinates c is c with its coordinates on `axes` set to the mixed-radix
/// digits of j (axes[0] most significant), and the device is member
/// mixed_radix(c on axes) of its own group. An explicit `table` (physical device ids
/// per group, in member order) overrides that description.
struct GroupSpec {
  std::vector<AxisRef> axes;
  std::optional<DeviceGroups> table;
  int64_t size = 1;  // members per group
  bool operator==(const GroupSpec&) const = default;
};

/// Local dynamic slice: every device keeps `chunk` elements of `dim` starting at its
/// offset: offsets[device] when an explicit table is given, else (its member index in
/// `group`) * chunk. Entries past the end of the buffer are padding (a padded result:
/// 5 rows sliced in 4 keep 0-1 / 2-3 / 4,pad / pad,pad; docs/notation.md).
struct LoweredSlice {
  int dim = 0;
  GroupSpec group;
  int64_t chunk = 1;
  std::optional<std::vector<int64_t>> offsets;  // per physical device
  bool operator==(const LoweredSlice&) const = default;
};

/// One part of an all-gather: `size` members (a digit of the member index) whose
/// buffers are concatenated along `dim`; `axes` are the part's group axes (the symbolic
/// digit: the mixed-radix number of a device's coordinates on them).
struct GatherPart {
  int dim = 0;
  int64_t size = 1;
  std::vector<AxisRef> axes;
  bool operator==(const GatherPart&) const = default;
};

/// Every member gets the group's buffers. With one part: concatenated along its dim in
/// member order, of which it keeps the first `after` local size of the dim: when the
/// dim is padded the concatenation is longer and its tail is padding (docs/notation.md,
/// "Padded dims"). A fused all-gather has several parts on distinct unpadded dims whose
/// sizes multiply to group.size: the member index is the mixed-radix number of its
/// digits (parts[0] most significant), and member j's buffer is the block at, along
/// each part's dim, j's digit of that part: exactly the parts applied one after another.
struct LoweredGather {
  std::vector<GatherPart> parts;
  GroupSpec group;
  bool operator==(const LoweredGather&) const = default;
};

/// One move of an all-to-all: `size` members (a digit of the member index) exchange
/// chunks of `split_dim` and concatenate them along `concat_dim`; `axes` are the
/// move's group axes (the symbolic digit: the mixed-radix number of a device's
/// coordinates on them).
struct AllToAllPart {
  int split_dim = 0;
  int concat_dim = 0;
  int64_t size = 1;
  std::vector<AxisRef> axes;
  bool operator==(const AllToAllPart&) const = default;
};

/// Member j splits its buffer into group.size chunks and sends chunk i to member i;
/// member i concatenates what it receives by sender. With one part: chunk i along
/// `split_dim` (chunk order = member order), concatenated along `concat_dim` in member
/// order. A fused all-to-all has several parts whose sizes multiply to group.size: the
/// member index is the mixed-radix number of its digits (parts[0] most significant),
/// the chunk a receiver gets is, along each split dim, the mixed-radix number of its
/// digits of the parts splitting that dim (in part order), and a sender's piece goes,
/// along each concat dim, to the mixed-radix number of its digits of the parts
/// concatenating there in REVERSE part order (the later move takes the more major
/// axes of its source dim): exactly the parts applied one after another. On padded dims (one part only) the chunks
/// are `after` local size of `split_dim` long (the buffer padded at the end to
/// group.size of them) and the first `after` local size of `concat_dim` of the
/// concatenation is kept (its tail is padding), as for LoweredSlice and LoweredGather.
struct LoweredAllToAll {
  std::vector<AllToAllPart> parts;
  GroupSpec group;
  bool operator==(const LoweredAllToAll&) const = default;
};

/// One part of a symbolic permute: the source's coordinates on `source_axes` are the
/// mixed-radix digits of the target's coordinates on `target_axes` read as one number.
struct PermuteMove {
  std::vector<AxisRef> source_axes;
  std::vector<AxisRef> target_axes;
  bool operator==(const PermuteMove&) const = default;
};

/// Every target device receives the whole buffer of its source. Symbolically the
/// source of the target at mesh coordinates t is the source-mesh device at the same
/// coordinates t, changed by each of `moves` (the bijection permute_pairs() chooses,
/// so that every source sends once); an explicit `table` of (source, target) physical
/// ids overrides that.
struct LoweredPermute {
  std::vector<PermuteMove> moves;
  std::optional<DevicePairs> table;
  bool operator==(const LoweredPermute&) const = default;
};

/// The group's buffers reduced elementwise; member i keeps chunk i along `dim`.
struct LoweredReduceScatter {
  int dim = 0;
  GroupSpec group;
  ReduceOp op = ReduceOp::sum;
  bool operator==(const LoweredReduceScatter&) const = default;
};

/// The group's buffers reduced elementwise; every member gets the result.
struct LoweredAllReduce {
  GroupSpec group;
  ReduceOp op = ReduceOp::sum;
  bool operator==(const LoweredAllReduce&) const = default;
};

/// Local: the device that is member 0 of its group (coordinates 0 on every group axis)
/// keeps its buffer, every other device fills it with the identity of `op`.
struct LoweredAddPending {
  GroupSpec group;
  ReduceOp op = ReduceOp::sum;
  bool operator==(const LoweredAddPending&) const = default;
};

/// A transfer between device sets: the explicit list of point-to-point sends, each a
/// box of the sender's buffer (before) stored into the receiver's new buffer (after);
/// a send to itself is a box that stays. Always a table: its entries depend on block
/// intersections and on the choice of senders among replicas. `symbolic` when the
/// table is the lowering's own for a source whose every element has ONE holder (no
/// replicated axis, no padding on either side): then each target element comes from
/// the one device that holds it, at the same global index, which the checker encodes
/// as that relation instead of the table (docs/checker.md "Transfers").
struct LoweredTransfer {
  TransferTable sends;
  bool symbolic = false;
  bool operator==(const LoweredTransfer&) const = default;
};

using LoweredOp = std::variant<LoweredSlice, LoweredGather, LoweredAllToAll, LoweredPermute,
                               LoweredReduceScatter, LoweredAllReduce, LoweredAddPending, LoweredTransfer>;

/// One lowered step with the declared states around it (types and meshes), whose
/// local shapes are the buffer shapes the step reads and writes.
struct LoweredStep {
  LoweredOp op;
  TypedState before;
  TypedState after;
  bool operator==(const LoweredStep&) const = default;
};

/// A lowered plan: the source state and the steps in order.
struct LoweredPlan {
  TypedState source;
  std::vector<LoweredStep> steps;
  bool operator==(const LoweredPlan&) const = default;
};

/// The moves of the permute from `before` to `after`, a bijection of mesh coordinates:
/// each dim's source axes take the target's block index of that dim, replicated
/// factors free in both keep their values (data stays in place), and the factors free
/// only in the source take the target's factors free only in it, so every source
/// sends once.
std::vector<PermuteMove> permute_moves(const TypedState& before, const TypedState& after);

/// One piece of a transfer: a target device's box cut along the source blocks. `box`
/// has every field but the sender, which is the receiver itself when it holds the
/// block (the piece stays) and -1 otherwise; `holders` are the devices holding the
/// block, in source mesh order.
struct TransferPiece {
  TransferBox box;
  std::vector<int64_t> holders;
  int64_t elements = 0;
};

/// Returns the pieces of a transfer from `before` to `after`, by target mesh position
/// and then by source block; every target element is in exactly one.
std::vector<TransferPiece> transfer_pieces(const TypedState& before, const TypedState& after);

/// The sends of a transfer from `before` to `after` (another device set): each target
/// device's box cut along the source blocks, each piece once, kept where the receiver
/// holds it, else sent by the holder of that block that has sent the least so far
/// (replicas share the load). With `node_size` > 0 devices d and e share a node when
/// d / node_size == e / node_size, and a holder on the receiver's node is taken before
/// any other (the least loaded of them). Enumerates the devices of both meshes.
TransferTable transfer_table(const TypedState& before, const TypedState& after, int64_t node_size = 0);

/// The lowered form of `step` going from `before` to `after` (as typed by apply_step).
LoweredStep lower_step(const TypedState& before, const TypedState& after, const Step& step);

/// The lowered form of `plan`, or the typing error of its first ill-typed step.
Result<LoweredPlan> lower(const Plan& plan);

/// The groups of `spec` on `mesh` as physical ids in member order.
DeviceGroups group_table(const GroupSpec& spec, const Mesh& mesh);

/// The offset along the sliced dim of every physical device of `mesh`, indexed by
/// physical id (0 for ids below the largest that are not in `mesh`).
std::vector<int64_t> slice_offsets(const LoweredSlice& slice, const Mesh& mesh);

/// The (source, target) physical ids of `permute` from `source_mesh` to
/// `target_mesh`, one pair per target, in target order (or the explicit table).
DevicePairs pair_table(const LoweredPermute& permute, const Mesh& source_mesh,
                       const Mesh& target_mesh);

/// Name of the lowered step kind ("all_slice", ...), as in the plan text.
std::string_view lowered_name(const LoweredOp& op);

}  // namespace redist
