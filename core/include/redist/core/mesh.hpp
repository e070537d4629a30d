#pragma once
// A device mesh: named axes with sizes in declared order, plus an optional explicit
// list of physical device ids. Notation: `{x:4, y:2}`, `{x:2, y:2} devices=[3,2,1,0]`
// (another order of 0..N-1) or `{x:4} devices=[4,5,6,7]` (other device ids: a mesh
// that is not COMPACT, for reshards between device sets, docs/meshes.md).

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "redist/core/result.hpp"

namespace redist {

struct MeshAxis {
  std::string name;
  int64_t size = 1;
  bool operator==(const MeshAxis&) const = default;
};

/// Mesh coordinates of one device, one entry per mesh axis in declared order.
using Coords = std::vector<int64_t>;

class Mesh {
 public:
  /// Maximum number of devices a mesh may have (keeps device ids in int64 safely).
  static constexpr int64_t kMaxDevices = int64_t{1} << 40;

  /// The mesh of no axes: one device.
  Mesh();
  // Copies share the representation (below). A move copies too, so that a moved-from
  // mesh is still a valid one.
  Mesh(const Mesh&) = default;
  Mesh(Mesh&& other) noexcept : rep_(other.rep_) {}
  Mesh& operator=(const Mesh&) = default;
  Mesh& operator=(Mesh&& other) noexcept {
    rep_ = other.rep_;
    return *this;
  }

  /// Validates and builds a mesh: axis names are identifiers and distinct, sizes >= 1,
  /// the product fits kMaxDevices, and `devices` (if not empty) lists N distinct ids
  /// in 0..kMaxDevices-1.
  static Result<Mesh> create(std::vector<MeshAxis> axes, std::vector<int64_t> devices = {});

  const std::vector<MeshAxis>& axes() const { return rep_->axes; }
  std::size_t rank() const { return rep_->axes.size(); }
  int64_t num_devices() const { return rep_->num_devices; }
  /// Index of the axis named `name` in declared order, if any.
  std::optional<std::size_t> axis_index(std::string_view name) const;
  int64_t axis_size(std::size_t index) const { return rep_->axes[index].size; }

  /// True when `devices=[...]` was given and differs from 0..N-1.
  bool has_explicit_order() const { return !rep_->devices.empty(); }
  /// Explicit device order, empty for the row-major default.
  const std::vector<int64_t>& device_order() const { return rep_->devices; }
  /// True when the physical ids are 0..N-1 (in any order). Shardy and HloSharding
  /// device lists, and an HLO module's partitions, are compact.
  bool compact() const { return rep_->sorted_ids.empty(); }
  /// The physical device ids, ascending.
  std::vector<int64_t> device_ids() const;
  /// Returns 1 + the largest physical id (N on a compact mesh): the size of a table
  /// indexed by physical id.
  int64_t id_bound() const { return compact() ? num_devices() : rep_->sorted_ids.back().first + 1; }
  /// Returns whether `other` is over the same set of physical ids (in any order),
  /// without listing them when both are compact.
  bool same_devices(const Mesh& other) const;
  /// True when physical device d belongs to the mesh.
  bool has_device(int64_t device) const;

  /// Physical device at mesh position p (row-major over declared axes).
  int64_t device_at(int64_t position) const;
  /// Mesh position of physical device d; throws std::out_of_range when the mesh has
  /// no device d.
  int64_t position_of(int64_t device) const;
  /// Mesh coordinates of mesh position p.
  Coords coords_of_position(int64_t position) const;
  /// Mesh position of the given coordinates.
  int64_t position_of_coords(std::span<const int64_t> coords) const;
  /// Mesh coordinates of physical device d.
  Coords coords_of_device(int64_t device) const { return coords_of_position(position_of(device)); }
  /// Physical device at the given coordinates.
  int64_t device_at_coords(std::span<const int64_t> coords) const {
    return device_at(position_of_coords(coords));
  }

  /// Same axes (names and sizes, in order); device order may differ.
  bool same_axes(const Mesh& other) const { return rep_ == other.rep_ || rep_->axes == other.rep_->axes; }
  bool operator==(const Mesh& other) const {
    return rep_ == other.rep_ || (rep_->axes == other.rep_->axes && rep_->devices == other.rep_->devices);
  }

 private:
  struct Rep {
    std::vector<MeshAxis> axes;
    std::vector<int64_t> devices;          // empty: identity order
    std::vector<int64_t> inverse_devices;  // device -> position, when explicit and compact
    std::vector<std::pair<int64_t, int64_t>> sorted_ids;  // (device, position), when not compact
    int64_t num_devices = 1;
  };
  // A mesh never changes once built, so copies share one representation: the typed
  // states of a plan each hold a mesh, and copying or comparing them costs no
  // allocation or string compare.
  std::shared_ptr<const Rep> rep_;
};

/// Parses `{x:4, y:2}` with an optional ` devices=[...]` suffix. Errors name the
/// character offset and the reason.
Result<Mesh> parse_mesh(std::string_view text);
/// Parses a mesh at the start of `text` and returns it with the number of characters
/// used, for embedding meshes in larger texts such as plans.
Result<std::pair<Mesh, std::size_t>> parse_mesh_prefix(std::string_view text);
/// Canonical text: `{x:4, y:2}` or `{x:2, y:2} devices=[3,2,1,0]`.
std::string to_string(const Mesh& mesh);

}  // namespace redist
