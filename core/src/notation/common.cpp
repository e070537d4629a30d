// Shared pieces of the notation converters (common.hpp).

#include "notation/common.hpp"

#include <algorithm>

namespace redist::notation::detail {

Result<AxisRef> whole_axis(const Mesh& mesh, const std::string& name, std::size_t position) {
  const auto a = mesh.axis_index(name);
  if (!a) return parse_error(position, str("the mesh ", to_string(mesh), " has no axis '", name, "'"));
  return AxisRef{name, 1, mesh.axis_size(*a), false};
}

Result<DistType> build_type(const ArrayShape& shape, std::vector<std::vector<AxisRef>> dims,
                            std::vector<AxisRef> sum_axes, const Mesh& mesh, std::size_t position) {
  DistType type;
  type.elem = shape.elem;
  dims.resize(shape.dims.size());
  for (std::size_t i = 0; i < shape.dims.size(); ++i) type.dims.push_back({shape.dims[i], std::move(dims[i])});
  type.reduce_axes = std::move(sum_axes);
  type.reduce_op = ReduceOp::sum;
  if (auto s = validate(type, mesh); !s) return at(s.error(), position);
  return type;
}

std::vector<AxisRef> in_mesh_order(std::vector<AxisRef> axes, const Mesh& mesh) {
  std::stable_sort(axes.begin(), axes.end(), [&](const AxisRef& a, const AxisRef& b) {
    const auto ia = mesh.axis_index(a.name), ib = mesh.axis_index(b.name);
    if (ia != ib) return ia < ib;
    return a.pre < b.pre;
  });
  return axes;
}

Status check_rank(std::size_t given, const ArrayShape& shape, std::size_t position, const char* what) {
  if (given == shape.dims.size()) return Ok{};
  return parse_error(position, str(what, " has ", given, " dims but the array has rank ", shape.dims.size()));
}

}  // namespace redist::notation::detail
