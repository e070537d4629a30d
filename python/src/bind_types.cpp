// Meshes, axis references, dims and distributed array types (docs/notation.md) as
// Python objects; parse errors raise ValueError naming the column and the reason.

#include <nanobind/operators.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <functional>
#include <string>
#include <vector>

#include "common.hpp"
#include "redist/core/dist_type.hpp"
#include "redist/core/mesh.hpp"

namespace redist::py {
namespace {

std::vector<std::pair<std::string, int64_t>> axis_pairs(const Mesh& mesh) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (const MeshAxis& a : mesh.axes()) out.emplace_back(a.name, a.size);
  return out;
}

Mesh make_mesh(const std::vector<std::pair<std::string, int64_t>>& axes, std::vector<int64_t> devices) {
  std::vector<MeshAxis> list;
  for (const auto& [name, size] : axes) list.push_back({name, size});
  return unwrap(Mesh::create(std::move(list), std::move(devices)));
}

std::string quoted(const std::string& name, const std::string& text) { return name + "('" + text + "')"; }

}  // namespace

void bind_types(nb::module_& m) {
  nb::class_<Mesh>(m, "Mesh", "A device mesh: named axes with sizes, and a device order.")
      .def("__init__",
           [](Mesh* self, const std::vector<std::pair<std::string, int64_t>>& axes, std::vector<int64_t> devices) {
             new (self) Mesh(make_mesh(axes, std::move(devices)));
           },
           nb::arg("axes"), nb::arg("devices") = std::vector<int64_t>{},
           "Axes as (name, size) pairs in declared order; `devices` an explicit order (mesh "
           "position p holds physical device devices[p]), empty for row-major.")
      .def_prop_ro("axes", &axis_pairs, "(name, size) of each axis in declared order.")
      .def_prop_ro("num_devices", &Mesh::num_devices)
      .def_prop_ro("device_order", [](const Mesh& mesh) {
            std::vector<int64_t> order(static_cast<std::size_t>(mesh.num_devices()));
            for (int64_t p = 0; p < mesh.num_devices(); ++p) order[static_cast<std::size_t>(p)] = mesh.device_at(p);
            return order;
          }, "Physical device at each mesh position (row-major positions).")
      .def("axis_size", [](const Mesh& mesh, std::string_view name) {
            auto i = mesh.axis_index(name);
            if (!i) throw nb::key_error(("no mesh axis '" + std::string(name) + "'").c_str());
            return mesh.axis_size(*i);
          }, nb::arg("name"))
      .def("coords_of_device", &Mesh::coords_of_device, nb::arg("device"))
      .def("device_at_coords", [](const Mesh& mesh, const std::vector<int64_t>& c) {
            if (c.size() != mesh.rank()) throw nb::value_error("one coordinate per mesh axis expected");
            for (std::size_t i = 0; i < c.size(); ++i)
              if (c[i] < 0 || c[i] >= mesh.axis_size(i)) throw nb::value_error("coordinate out of range");
            return mesh.device_at_coords(c);
          }, nb::arg("coords"))
      .def(nb::self == nb::self)
      .def("__hash__", [](const Mesh& mesh) { return std::hash<std::string>{}(to_string(mesh)); })
      .def("__str__", [](const Mesh& mesh) { return to_string(mesh); })
      .def_static("parse", [](std::string_view text) { return unwrap(parse_mesh(text)); }, nb::arg("text"))
      .def("__repr__", [](const Mesh& mesh) { return quoted("Mesh", to_string(mesh)); });

  nb::class_<AxisRef>(m, "AxisRef", "A mesh axis `x` or its sub-axis `x:(pre)size`.")
      .def_ro("name", &AxisRef::name)
      .def_ro("pre", &AxisRef::pre, "Product of the factors more major than this one.")
      .def_ro("size", &AxisRef::size)
      .def_ro("sub", &AxisRef::sub, "Written as a sub-axis.")
      .def(nb::self == nb::self)
      .def("__hash__", [](const AxisRef& a) { return std::hash<std::string>{}(to_string(a)); })
      .def("__str__", [](const AxisRef& a) { return to_string(a); })
      .def("__repr__", [](const AxisRef& a) { return "AxisRef('" + to_string(a) + "')"; });

  nb::class_<Dim>(m, "Dim", "One dim of a type: its global size and the axes it is tiled over.")
      .def_ro("size", &Dim::global, "Global size.")
      .def_ro("axes", &Dim::axes, "Axes, major to minor (empty: not tiled).")
      .def_prop_ro("tiles", &tile_count)
      .def_prop_ro("local_size", &local_size)
      .def(nb::self == nb::self)
      .def("__repr__", [](const Dim& d) {
        return "Dim(" + (d.axes.empty() ? std::string() : to_string(d.axes)) + std::to_string(d.global) + ")";
      });

  nb::class_<DistType>(m, "DistType", "A distributed array type, e.g. f32[{x}16, {y}8] sum{z}.")
      .def_prop_ro("elem", [](const DistType& t) { return std::string(elem_name(t.elem)); })
      .def_prop_ro("elem_bytes", [](const DistType& t) { return elem_bytes(t.elem); })
      .def_ro("dims", &DistType::dims)
      .def_ro("reduce_axes", &DistType::reduce_axes, "Pending reduction axes (empty: none).")
      .def_prop_ro("reduce_op", [](const DistType& t) {
            return t.reduce_axes.empty() ? nb::object(nb::none()) : nb::str(std::string(reduce_op_name(t.reduce_op)).c_str());
          })
      .def_prop_ro("rank", &DistType::rank)
      .def_prop_ro("shape", [](const DistType& t) {
            std::vector<int64_t> s;
            for (const Dim& d : t.dims) s.push_back(d.global);
            return s;
          }, "Global shape.")
      .def_prop_ro("local_shape", &local_shape, "Shape of one device's buffer (padding included).")
      .def_prop_ro("local_bytes", [](const DistType& t) { return to_py_int(local_bytes(t)); })
      .def_prop_ro("has_padding", &has_padding)
      .def("replication_factor", &replication_factor, nb::arg("mesh"))
      .def("canonical", &canonical, nb::arg("mesh"), "Equal tilings give equal canonical types.")
      .def(nb::self == nb::self)
      .def("__hash__", [](const DistType& t) { return std::hash<std::string>{}(to_string(t)); })
      .def("__str__", [](const DistType& t) { return to_string(t); })
      .def_static("parse", [](std::string_view text, const Mesh& mesh) { return unwrap(parse_type(text, mesh)); },
                  nb::arg("text"), nb::arg("mesh"))
      .def("__repr__", [](const DistType& t) { return quoted("DistType", to_string(t)); });

  m.def("parse_mesh", [](std::string_view text) { return unwrap(parse_mesh(text)); }, nb::arg("text"),
        "Parses `{x:4, y:2}` or `{x:2, y:2} devices=[3,2,1,0]`; ValueError names the column.");
  m.def("parse_type", [](std::string_view text, const Mesh& mesh) { return unwrap(parse_type(text, mesh)); },
        nb::arg("text"), nb::arg("mesh"),
        "Parses and validates a type such as `f32[{x}16, {y}8]` on `mesh`; ValueError names the column.");
}

}  // namespace redist::py
