#pragma once
// Distributed array types in the paper's notation (docs/design.md §1):
//   f32[32{x,y}512, 128]    bf16[{x}1024, {y}64] sum{z}

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "redist/core/axis.hpp"
#include "redist/core/elem_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"

namespace redist {

/// One array dimension: its global size and the mesh axes it is tiled over, ordered
/// major to minor (empty: not tiled).
struct Dim {
  int64_t global = 1;
  std::vector<AxisRef> axes;
  bool operator==(const Dim&) const = default;
};

/// How pending partial values combine.
enum class ReduceOp { sum, max, min };

/// A distributed array type over some mesh. Each mesh axis (or factor of one) appears at
/// most once across all dims and the reduction axes; axes not mentioned are replicated.
struct DistType {
  ElemType elem = ElemType::f32;
  std::vector<Dim> dims;
  /// Pending reduction: the logical value is `reduce_op` over the coordinates on these
  /// axes of what the devices hold. Empty when there is none.
  std::vector<AxisRef> reduce_axes;
  ReduceOp reduce_op = ReduceOp::sum;

  std::size_t rank() const { return dims.size(); }
  bool operator==(const DistType&) const = default;
};

/// Parses and validates `text` against `mesh`. Accepts the local size before the axis
/// list (checked against ceil(global / tiles)), omitted element type (f32), sub-axes
/// `x:(m)k` and a trailing `sum{...}`/`max{...}`/`min{...}`. Errors name the character
/// offset and the reason.
Result<DistType> parse_type(std::string_view text, const Mesh& mesh);

/// A parsed value and the number of characters of the text it used.
template <class T>
struct Parsed {
  T value;
  std::size_t consumed = 0;
};
/// Parses a type at the start of `text` (leading spaces allowed) and stops after it,
/// for embedding types in larger texts such as plans.
Result<Parsed<DistType>> parse_type_prefix(std::string_view text, const Mesh& mesh);

/// Checks a programmatically built type against `mesh`: known axes, valid sub-axes with
/// resolved sizes, no axis (or overlapping factor) used twice, sizes >= 1.
Status validate(const DistType& type, const Mesh& mesh);

/// Checks one axis reference against `mesh`: a known axis with its size, or a proper
/// sub-axis (size >= 2, m*k dividing the axis size, not the whole axis).
Status validate_axis_ref(const AxisRef& ref, const Mesh& mesh);

/// Canonical text: element type always written, local sizes omitted, one space after
/// each comma: `f32[{x,y}512, 128] sum{z}`. parse_type(to_string(t)) == t.
std::string to_string(const DistType& type);
std::string_view reduce_op_name(ReduceOp op);

/// Ok when `src` and `dst` describe the same array (element type and global shape),
/// else an invalid error naming what differs.
Status same_array(const DistType& src, const DistType& dst);

/// Number of tiles of `dim`: the product of its axis sizes.
int64_t tile_count(const Dim& dim);
/// Local (per-device) size of `dim`: ceil(global / tiles).
int64_t local_size(const Dim& dim);
/// Local size of every dim.
std::vector<int64_t> local_shape(const DistType& type);
/// True when some dim's global size is not a multiple of its tile count (padding).
bool has_padding(const DistType& type);
/// True when the blocks of a dim of global size `global` cut into `fine` tiles nest in
/// its blocks cut into `coarse` tiles (`coarse` divides `fine`): every coarse block is
/// fine / coarse consecutive fine blocks, so a local slice or a gather moves between
/// the two tilings (docs/notation.md, "Padded dims"). Always true for coarse == 1 (the
/// whole dim, whose padded tail is padding) and when `fine` divides `global`; false
/// e.g. for 5 on 2 (0-2 / 3-4) and on 4 (0-1 / 2-3 / 4 / -).
bool tiles_nest(int64_t global, int64_t coarse, int64_t fine);
/// Devices holding each shard: num_devices / (tiles of every dim * reduction size).
int64_t replication_factor(const DistType& type, const Mesh& mesh);
/// `type` with each dim's consecutive factors of one axis merged (x:(1)2, x:(2)2 -> x
/// on x:4) and reduction axes sorted: equal tilings get equal canonical types.
DistType canonical(const DistType& type, const Mesh& mesh);

/// Returns true when canonical(type, mesh) == type, without building it (most types a
/// plan's typing makes are canonical already).
bool is_canonical(const DistType& type, const Mesh& mesh);
/// Every axis reference the type uses, dims first (in order) then reduction axes.
std::vector<AxisRef> used_axes(const DistType& type);
/// Returns the factors of each mesh axis that `type` leaves replicated, in mesh order,
/// major first, each maximal run of unused factors as one reference: on {x:8, y:4},
/// f32[{x:(2)2}16, {y:(1)2}8] leaves {x:(1)2, x:(4)2, y:(2)2}.
std::vector<AxisRef> free_axes(const Mesh& mesh, const DistType& type);
/// Returns the references of `axes` not in `drop`, in order (equal references only;
/// a sub-axis of a dropped axis stays).
std::vector<AxisRef> axes_minus(const std::vector<AxisRef>& axes, const std::vector<AxisRef>& drop);

}  // namespace redist
