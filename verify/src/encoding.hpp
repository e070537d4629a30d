#pragma once
// The types' vocabulary as SMT terms (docs/checker.md "The encoding"): devices,
// coordinates on axes and sub-axes, mixed-radix numbers of coordinates, group
// membership, physical ids, local indices and the types' index maps.
//
// A device is one bounded integer DIGIT per factor of each mesh axis: the factors are
// cut at every boundary any axis reference of the plan uses (x:(2)2 on x:8 cuts x at
// strides 2 and 4), so the coordinate on an axis or sub-axis is a linear sum of
// digits and the axis coordinate itself is c_x = sum digit * stride (Z3 sees these
// as constraints on the digits, not as C++ substitutions). Where the boundaries of an
// axis do not nest (x:(1)2 and x:(1)3 on x:6) the axis is one digit and each
// reference gets its own decomposition c_x = hi * (k*s) + v * s + lo with bounded
// hi, v, lo, asserted in "domain". Index maps: global = block * local + l, block the
// mixed-radix number of the dim's axis coordinates; padding where global >= size.

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "query.hpp"
#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/plan/lowered.hpp"

namespace redist::smt {

/// A symbolic device on a mesh: per mesh axis, its digits (least significant first).
struct Device {
  const Mesh* mesh = nullptr;
  std::string name;
  std::vector<std::vector<z3::expr>> digits;
};

/// A symbolic element location: a device and one local index term per dim.
struct Location {
  Device device;
  std::vector<z3::expr> index;
};

class Encoding {
 public:
  /// The digit layout of every axis of every mesh of `plan` and `target` from every
  /// axis reference they make.
  Encoding(Query& query, const LoweredPlan& plan, const TypedState& target);

  Query& query() { return q_; }
  z3::expr num(int64_t v) { return q_.num(v); }

  /// A fresh device `name` on `mesh`, its digits bounded in "domain".
  Device device(const Mesh& mesh, const std::string& name);
  /// The same physical device as `d` seen on `mesh`: `d` itself when the meshes are
  /// equal, else a fresh device whose physical id equals d's (in "domain").
  Device same_device_on(const Device& d, const Mesh& mesh, const std::string& name);
  /// Fresh unbounded local index variables `<name>_l<i>`, one per dim.
  std::vector<z3::expr> index(std::size_t rank, const std::string& name);
  /// A fresh location: `device(mesh)` and `index(rank)`.
  Location location(const TypedState& state, const std::string& name);

  /// Coordinate of `d` on an axis or sub-axis.
  z3::expr coord(const Device& d, const AxisRef& axis);
  /// Coordinate of `d` on mesh axis i (the value of all its digits).
  z3::expr axis_value(const Device& d, std::size_t i);
  /// Mixed-radix number of the coordinates on `axes` (axes[0] most significant).
  z3::expr mixed_radix(const Device& d, std::span<const AxisRef> axes);
  /// `a` and `b` agree on every factor of every mesh axis outside `axes`.
  z3::expr same_except(const Device& a, const Device& b, std::span<const AxisRef> axes);
  /// The targets of `p`'s table whose pair breaks one of p's moves (the source's number
  /// on the move's source axes, on `before`, differs from the target's on its target
  /// axes, on `after`); nullopt when there are more than kMaxMemberExceptions. The
  /// moves' equations then follow from the table for every other target. Computed once
  /// per table, over its entries.
  const std::optional<std::vector<int64_t>>& pairs_off_moves(const LoweredPermute& p, const Mesh& before,
                                                             const Mesh& after);

  /// Mesh position (row-major) and physical id of `d`.
  z3::expr position(const Device& d);
  z3::expr physical(const Device& d);
  /// `a` and `b` are the same physical device.
  z3::expr same(const Device& a, const Device& b);

  /// Member index of `d` in its group under `spec`: the mixed-radix number on the group
  /// axes, with a table's few exceptions (member_exceptions), else the table itself.
  z3::expr member_index(const GroupSpec& spec, const Device& d);
  /// `a` and `b` are in the same group under `spec`.
  z3::expr same_group(const GroupSpec& spec, const Device& a, const Device& b);
  /// The devices of `spec`'s table whose member index j differs from their mixed-radix
  /// number on spec.axes, with j; nullopt when there are more than kMaxMemberExceptions
  /// (or no axes). The member index is then that number but for these devices, as for
  /// symbolic groups when there are none (only the grouping is irregular). Computed
  /// once per table, over its entries.
  static constexpr std::size_t kMaxMemberExceptions = 64;  // also for pairs_off_moves
  const std::optional<std::vector<std::pair<int64_t, int64_t>>>& member_exceptions(const GroupSpec& spec,
                                                                                   const Mesh& mesh);

  /// The global index of dim i of the element at `at` under `type`:
  /// block(coordinates) * local_size + l.
  z3::expr global(const DistType& type, const Location& at, std::size_t i);
  /// 0 <= index < shape on every dim.
  z3::expr in_bounds(const std::vector<z3::expr>& index, const std::vector<int64_t>& shape);

 private:
  /// The index of d's group in `spec`'s table (a table function), with the fact that
  /// member m(d) of that group is d (once per device).
  z3::expr group_index(const GroupSpec& spec, const Device& d);
  /// Strides (ascending, 1 first, the axis size last) where axis `name` of `size` is cut.
  const std::vector<int64_t>& cuts(const std::string& name, int64_t size) const { return cuts_.at({name, size}); }
  bool nested(const std::string& name, int64_t size) const { return nested_.at({name, size}); }

  Query& q_;
  std::map<std::pair<std::string, int64_t>, std::vector<int64_t>> cuts_;  // (axis name, size) -> cuts
  std::map<std::pair<std::string, int64_t>, bool> nested_;
  std::map<std::pair<std::string, AxisRef>, z3::expr> split_coords_;  // (device, ref) -> v
  std::map<const void*, std::optional<std::vector<std::pair<int64_t, int64_t>>>> exceptions_;  // per table
  std::map<const void*, std::optional<std::vector<int64_t>>> off_moves_;  // table -> pairs_off_moves
  std::set<std::pair<std::string, const void*>> inverted_;            // (device, table) read back
};

/// The mesh coordinates of `d` in `model`.
Coords coords_in(const z3::model& model, Encoding& enc, const Device& d);
/// The values of `terms` in `model`.
std::vector<int64_t> values_in(const z3::model& model, const std::vector<z3::expr>& terms);

}  // namespace redist::smt
