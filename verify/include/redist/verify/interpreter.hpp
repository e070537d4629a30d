#pragma once
// The concrete interpreter: executes a plan on real data on a simulated mesh, one
// buffer per device. Each step moves data by its collective definition (an all-gather
// concatenates the group's buffers in group order, an all-to-all splits and exchanges
// blocks, a permute sends whole buffers along the lowered pairs), not by the type-level
// index maps, so it is an oracle independent of the SMT encoding.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"
#include "redist/plan/plan.hpp"
#include "redist/plan/typing.hpp"

namespace redist {

/// One device's local buffer, row-major over `shape`.
struct LocalBuffer {
  std::vector<int64_t> shape;
  std::vector<int64_t> values;
  bool operator==(const LocalBuffer&) const = default;
};

/// Buffers of every device, indexed by physical device id. After a transfer between
/// device sets (docs/meshes.md) the devices outside the current mesh hold empty
/// buffers; the data has at least buffer_slots(mesh) entries.
using MeshData = std::vector<LocalBuffer>;

/// The number of buffers data on `mesh` needs: 1 + its largest physical id (N on a
/// mesh over 0..N-1).
int64_t buffer_slots(const Mesh& mesh);

/// Value standing in padding positions.
inline constexpr int64_t kPadding = -1;

/// The value of global element `index` in test arrays: its row-major linear index,
/// so every element is distinct.
int64_t element_value(const DistType& type, std::span<const int64_t> index);

/// The buffers of every device under `type`, filled from the reference semantics with
/// element_value. With pending reduction axes the value is split over the reduction
/// coordinates: the device at reduction position r > 0 holds r * kSummandUnit and the
/// one at r = 0 holds the rest, so a dropped or doubled summand changes the sum.
MeshData distribute(const Mesh& mesh, const DistType& type);
inline constexpr int64_t kSummandUnit = int64_t{1} << 32;

/// First place where `data` disagrees with what `type` prescribes on every device.
struct Mismatch {
  int64_t device = 0;
  std::vector<int64_t> local_index;
  int64_t expected = 0;
  int64_t actual = 0;
  std::string to_string() const;
};
/// Compares every non-padding element of every device with `type`'s reference
/// semantics (sums over reduction groups for pending reductions). nullopt when equal.
std::optional<Mismatch> compare(const Mesh& mesh, const DistType& type, const MeshData& data);

/// Runs `step` on `data`, which holds `before` (on the devices of before.mesh). Fails when the step does not type-check
/// or cannot run (e.g. padded dims).
Result<MeshData> run_step(const TypedState& before, const Step& step, const MeshData& data);
/// Runs every step of `plan` starting from `data`.
Result<MeshData> run_plan(const Plan& plan, MeshData data);

}  // namespace redist
