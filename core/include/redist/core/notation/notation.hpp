#pragma once
// Other systems' shardings in and out (docs/interop.md): XLA HloSharding text, Shardy's
// sdy dialect, JAX Mesh + PartitionSpec, and PyTorch DTensor placements, converted to
// and from redist's (Mesh, DistType) (docs/design.md §1). Each reader reports malformed
// text with the position and the reason, and refuses, with the reason, what redist's
// types cannot express exactly (never a type that places elements differently). Each
// writer refuses types the notation cannot express. The CLI's --from/--to and the
// Python binding share these functions.
//
// None of these notations carries the global shape in the sharding itself, so readers
// take an ArrayShape (`f32[512,128]`).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/core/elem_type.hpp"
#include "redist/core/mesh.hpp"
#include "redist/core/result.hpp"

namespace redist::notation {

/// Element type and global dims of an array.
struct ArrayShape {
  ElemType elem = ElemType::f32;
  std::vector<int64_t> dims;
  bool operator==(const ArrayShape&) const = default;
};

/// Parses `f32[512,128]` (XLA's spelling; `[512,128]` means f32), `tensor<512x128xf32>`
/// or `512x128xf32` (MLIR's). Dims are 1 .. 2^63-1.
Result<ArrayShape> parse_array_shape(std::string_view text);
/// Parses a shape at the start of `text` and returns it with the characters used.
Result<Parsed<ArrayShape>> parse_array_shape_prefix(std::string_view text);
/// `f32[512,128]`.
std::string to_string(const ArrayShape& shape);
/// The shape of `type`: its element type and global dims.
ArrayShape shape_of(const DistType& type);

/// A mesh and a type over it.
struct MeshType {
  Mesh mesh;
  DistType type;
};

/// Types over one mesh rewritten on a finer mesh without sub-axes.
struct SplitMesh {
  Mesh mesh;
  std::vector<DistType> types;
};
/// Splits each mesh axis at every factor boundary that `types` use (an axis x:4 of which
/// x:(1)2 is used becomes two axes of size 2) and rewrites the types on the result with
/// whole axes only; every device keeps its shards. Axes of size 1 are dropped. The new
/// axes are named `axis_names` (one per new axis) or, when that is empty, a, b, c, ...
/// For meshes invented for other systems' shardings.
Result<SplitMesh> split_sub_axes(const Mesh& mesh, const std::vector<DistType>& types,
                                 const std::vector<std::string>& axis_names = {});

// ---------------------------------------------------------------------------------
// XLA HloSharding text: `{devices=[2,1,4]<=[4,2]T(1,0)}`, `{devices=[2,2]0,2,1,3}`,
// `... last_tile_dim_replicate`, `... last_tile_dims={replicated}`, `{replicated}`.

struct HloShardingOptions {
  /// Express the sharding on this mesh instead of inventing one. Its device count must
  /// equal the tile assignment's.
  const Mesh* mesh = nullptr;
  /// Names of the invented mesh axes, in order (default a, b, c, ...).
  std::vector<std::string> axis_names;
};

/// Reads an HloSharding of an array of `shape`. Without a mesh, invents one: the iota
/// form `<=[dims]T(perm)` gives the reshape dims split where tile dims cut them
/// (row-major devices, so `{devices=[4,2]<=[8]}` is {a:4, b:2}), an explicit device list
/// gives one axis per tile dim with `devices=[...]`. Refuses `{maximal ...}`,
/// `{manual}`, manual subgroups, tuples, and device orders that no type on the given
/// mesh expresses, each with the reason.
Result<MeshType> from_hlo_sharding(std::string_view text, const ArrayShape& shape,
                                   const HloShardingOptions& options = {});
/// The HloSharding XLA would print for `type` on `mesh`: the iota form (with reshape
/// and transpose for sub-axes and reordered axes) on a row-major mesh, an explicit device
/// list otherwise. Refuses pending reductions (HloSharding has none).
Result<std::string> to_hlo_sharding(const DistType& type, const Mesh& mesh);

// ---------------------------------------------------------------------------------
// Shardy: `sdy.mesh @mesh = <["x"=4, "y"=2], device_ids=[...]>` and
// `#sdy.sharding<@mesh, [{"x"}, {"y", "z":(1)2}], replicated={"w"}, unreduced={"u"}>`.

struct SdyMesh {
  std::string name;  // empty for an inline `#sdy.mesh<...>` or a bare `<[...]>`
  Mesh mesh;
};

/// Reads `sdy.mesh @m = <[...]>`, `@m = <[...]>`, `#sdy.mesh<[...]>` or `<[...]>`, with
/// optional `device_ids=[...]`. Refuses axis names that are not identifiers and maximal
/// meshes (`<[], device_ids=[3]>`).
Result<SdyMesh> parse_sdy_mesh(std::string_view text);
/// `sdy.mesh @name = <["x"=4, "y"=2]>` (with `device_ids=[...]` for an explicit order).
std::string to_sdy_mesh(const Mesh& mesh, std::string_view name = "mesh");
/// Reads a `#sdy.sharding<@m, [...], ...>` (or the bare `<@m, [...]>` / `[{...}, ...]`
/// part) of an array of `shape` over `mesh` (the mesh `@m` names; an inline mesh must
/// equal it). Open dims (`?`) are read as closed; priorities are ignored; unreduced axes
/// become a pending sum.
Result<DistType> from_sdy_sharding(std::string_view text, const ArrayShape& shape, const Mesh& mesh);
/// `#sdy.sharding<@name, [{"x"}, {}], unreduced={"z"}>`. Refuses pending max/min.
Result<std::string> to_sdy_sharding(const DistType& type, const Mesh& mesh,
                                    std::string_view mesh_name = "mesh");

// ---------------------------------------------------------------------------------
// JAX: `Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'))` and
// `P('x', None, ('y', 'z'), unreduced={'w'})`.

/// Reads JAX's Mesh repr `Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'), ...)`, the
/// older `Mesh('x': 2, 'y': 4)`, or a dict `{'x': 2, 'y': 4}`; an optional
/// `device_ids=[...]` gives the device order (mesh.devices.flat).
Result<Mesh> parse_jax_mesh(std::string_view text);
/// `Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'))`, plus `device_ids=[...]` when the
/// order is explicit.
std::string to_jax_mesh(const Mesh& mesh);
/// Reads `P(...)` / `PartitionSpec(...)` of an array of `shape` over `mesh`: entries
/// None, 'x' or ('x', 'y') (trailing dims may be left out), then `unreduced={...}` (a
/// pending sum). Refuses UNCONSTRAINED and `reduced=`.
Result<DistType> from_partition_spec(std::string_view text, const ArrayShape& shape, const Mesh& mesh);
/// `P('x', None, ('y', 'z'))`. Refuses sub-axes and pending max/min.
Result<std::string> to_partition_spec(const DistType& type, const Mesh& mesh);

// ---------------------------------------------------------------------------------
// PyTorch DTensor: `DeviceMesh('cpu', [[0, 1], [2, 3]], mesh_dim_names=('dp', 'tp'))`
// and `[Shard(0), Replicate(), Partial("sum")]`, one placement per mesh dim.

/// Reads a DeviceMesh repr (nested device lists give the shape and the device order;
/// names default to dim0, dim1, ...) or a redist mesh `{dp:2, tp:2}`.
Result<Mesh> parse_device_mesh(std::string_view text);
/// `init_device_mesh('cpu', (2, 2), mesh_dim_names=('dp', 'tp'))` for row-major devices,
/// else `DeviceMesh('cpu', [[0, 2], [1, 3]], mesh_dim_names=('dp', 'tp'))`.
std::string to_device_mesh(const Mesh& mesh);
/// Reads placements of an array of `shape` over `mesh` (one per mesh dim): Shard(d),
/// Replicate(), Partial(op) (sum/max/min; avg refused), _StridedShard(d, sf=k), an
/// optional ` shard_order={d: [i, j], ...}` (mesh dims major to minor), and torch's short
/// forms S(0), R, P(sum). Uneven dims are checked against torch.chunk: refused where
/// DTensor's unpadded chunks place elements differently from redist's padded layout.
Result<DistType> from_placements(std::string_view text, const ArrayShape& shape, const Mesh& mesh);
/// `[Shard(0), Replicate(), Partial(sum)]`, with _StridedShard where a dim's axes are
/// not in mesh-dim order. Refuses sub-axes and layouts torch.chunk does not reproduce.
Result<std::string> to_placements(const DistType& type, const Mesh& mesh);

// ---------------------------------------------------------------------------------
// One entry point per direction, for the CLI's --from/--to and the bindings.

enum class Notation { redist, hlo, sdy, jax, dtensor };

/// "redist", "hlo", "sdy", "jax" or "dtensor".
Result<Notation> parse_notation(std::string_view name);
std::string_view notation_name(Notation notation);

/// Reads a mesh in `notation`; redist's `{x:4, y:2}` is accepted in every notation
/// (hlo has no mesh text of its own).
Result<Mesh> read_mesh(Notation notation, std::string_view text);
/// The mesh in `notation` (redist's text for hlo).
std::string write_mesh(Notation notation, const Mesh& mesh);
/// Reads an array written as `<shape> <sharding>` (e.g. `f32[8,4] {devices=[2,1]<=[2]}`,
/// `f32[8,4] P('x')`), or a redist type for Notation::redist. `mesh` may be null only
/// for hlo (a mesh is invented). Error positions count from the start of `text`.
Result<MeshType> read_type(Notation notation, std::string_view text, const Mesh* mesh);
/// `<shape> <sharding>` in `notation` (the redist type for Notation::redist), which
/// read_type reads back to the same type.
Result<std::string> write_type(Notation notation, const DistType& type, const Mesh& mesh);

}  // namespace redist::notation
