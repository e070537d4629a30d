// Other systems' shardings in and out (docs/interop.md): XLA HloSharding, Shardy, JAX
// Mesh + PartitionSpec and DTensor placements, the C++ converters the CLI's
// --from/--to use, as the submodule redist._redist.notation. Malformed text raises
// ValueError with the position and the reason; what a notation cannot express raises
// ValueError (or UnsupportedError) with the reason.

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <utility>
#include <vector>

#include "common.hpp"
#include "redist/core/notation/notation.hpp"

namespace redist::py {
namespace {

namespace rn = redist::notation;

rn::Notation notation_of(std::string_view name) { return unwrap(rn::parse_notation(name)); }

rn::ArrayShape shape_arg(std::string_view text) { return unwrap(rn::parse_array_shape(text)); }

std::pair<Mesh, DistType> pair_of(rn::MeshType&& mt) { return {std::move(mt.mesh), std::move(mt.type)}; }

}  // namespace

void bind_notation(nb::module_& parent) {
  nb::module_ m = parent.def_submodule("notation", "Other systems' shardings in and out (docs/interop.md).");
  // Importable by its full name (stubgen and `import redist._redist.notation` need it).
  nb::module_::import_("sys").attr("modules")["redist._redist.notation"] = m;

  m.def("parse_array_shape", [](std::string_view text) {
          rn::ArrayShape s = unwrap(rn::parse_array_shape(text));
          return std::make_pair(std::string(elem_name(s.elem)), s.dims);
        }, nb::arg("text"), "`f32[512,128]` or `tensor<512x128xf32>` as (element type, dims).");

  m.def("read_mesh", [](std::string_view notation, std::string_view text) {
          return unwrap(rn::read_mesh(notation_of(notation), text));
        }, nb::arg("notation"), nb::arg("text"),
        "A mesh in `notation` (redist, hlo, sdy, jax, dtensor); redist's `{x:4}` is accepted in each.");
  m.def("write_mesh", [](std::string_view notation, const Mesh& mesh) {
          return rn::write_mesh(notation_of(notation), mesh);
        }, nb::arg("notation"), nb::arg("mesh"));
  m.def("read_type", [](std::string_view notation, std::string_view text, const std::optional<Mesh>& mesh) {
          return pair_of(unwrap(rn::read_type(notation_of(notation), text, mesh ? &*mesh : nullptr)));
        }, nb::arg("notation"), nb::arg("text"), nb::arg("mesh") = nb::none(),
        "(mesh, type) of `<shape> <sharding>` in `notation`, e.g. `f32[8,4] P('x')`; the mesh may be "
        "None only for hlo (a mesh is invented).");
  m.def("write_type", [](std::string_view notation, const DistType& type, const Mesh& mesh) {
          return unwrap(rn::write_type(notation_of(notation), type, mesh));
        }, nb::arg("notation"), nb::arg("type"), nb::arg("mesh"),
        "`<shape> <sharding>` in `notation`, which read_type reads back to the same type.");

  m.def("from_hlo_sharding",
        [](std::string_view text, std::string_view shape, const std::optional<Mesh>& mesh,
           std::vector<std::string> axis_names) {
          rn::HloShardingOptions options;
          options.mesh = mesh ? &*mesh : nullptr;
          options.axis_names = std::move(axis_names);
          return pair_of(unwrap(rn::from_hlo_sharding(text, shape_arg(shape), options)));
        },
        nb::arg("text"), nb::arg("shape"), nb::arg("mesh") = nb::none(),
        nb::arg("axis_names") = std::vector<std::string>{},
        "(mesh, type) of an XLA HloSharding of an array of `shape` (`f32[8,4]`); without a mesh one is "
        "invented.");
  m.def("to_hlo_sharding", [](const DistType& t, const Mesh& mesh) { return unwrap(rn::to_hlo_sharding(t, mesh)); },
        nb::arg("type"), nb::arg("mesh"));

  m.def("parse_sdy_mesh", [](std::string_view text) {
          rn::SdyMesh s = unwrap(rn::parse_sdy_mesh(text));
          return std::make_pair(s.name, s.mesh);
        }, nb::arg("text"), "(name, mesh) of `sdy.mesh @m = <[\"x\"=4]>`.");
  m.def("to_sdy_mesh", &rn::to_sdy_mesh, nb::arg("mesh"), nb::arg("name") = "mesh");
  m.def("from_sdy_sharding", [](std::string_view text, std::string_view shape, const Mesh& mesh) {
          return unwrap(rn::from_sdy_sharding(text, shape_arg(shape), mesh));
        }, nb::arg("text"), nb::arg("shape"), nb::arg("mesh"));
  m.def("to_sdy_sharding", [](const DistType& t, const Mesh& mesh, std::string_view name) {
          return unwrap(rn::to_sdy_sharding(t, mesh, name));
        }, nb::arg("type"), nb::arg("mesh"), nb::arg("mesh_name") = "mesh");

  m.def("parse_jax_mesh", [](std::string_view text) { return unwrap(rn::parse_jax_mesh(text)); }, nb::arg("text"));
  m.def("to_jax_mesh", &rn::to_jax_mesh, nb::arg("mesh"));
  m.def("from_partition_spec", [](std::string_view text, std::string_view shape, const Mesh& mesh) {
          return unwrap(rn::from_partition_spec(text, shape_arg(shape), mesh));
        }, nb::arg("text"), nb::arg("shape"), nb::arg("mesh"),
        "The type of `P('x', None, ('y', 'z'), unreduced={'w'})` for an array of `shape`.");
  m.def("to_partition_spec", [](const DistType& t, const Mesh& mesh) {
          return unwrap(rn::to_partition_spec(t, mesh));
        }, nb::arg("type"), nb::arg("mesh"));

  m.def("parse_device_mesh", [](std::string_view text) { return unwrap(rn::parse_device_mesh(text)); },
        nb::arg("text"));
  m.def("to_device_mesh", &rn::to_device_mesh, nb::arg("mesh"));
  m.def("from_placements", [](std::string_view text, std::string_view shape, const Mesh& mesh) {
          return unwrap(rn::from_placements(text, shape_arg(shape), mesh));
        }, nb::arg("text"), nb::arg("shape"), nb::arg("mesh"),
        "The type of DTensor placements `[Shard(0), Replicate(), Partial(sum)]` for an array of `shape`.");
  m.def("to_placements", [](const DistType& t, const Mesh& mesh) { return unwrap(rn::to_placements(t, mesh)); },
        nb::arg("type"), nb::arg("mesh"));

  m.def("split_sub_axes",
        [](const Mesh& mesh, const std::vector<DistType>& types, const std::vector<std::string>& names) {
          rn::SplitMesh s = unwrap(rn::split_sub_axes(mesh, types, names));
          return std::make_pair(s.mesh, s.types);
        },
        nb::arg("mesh"), nb::arg("types"), nb::arg("axis_names") = std::vector<std::string>{},
        "The types rewritten on a finer mesh with whole axes only (every device keeps its shards).");
}

}  // namespace redist::py
