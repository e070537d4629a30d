#include <algorithm>
#include <fmt/format.h>

#include "axis_checks.hpp"
#include "redist/core/dist_type.hpp"

namespace redist {

Status validate(const DistType& type, const Mesh& mesh) {
  // The refs checked so far, by address: this runs on every state the synthesizer types.
  std::vector<const AxisRef*> seen;
  std::size_t refs = type.reduce_axes.size();
  for (const auto& d : type.dims) refs += d.axes.size();
  seen.reserve(refs);
  // `dim` is -1 for the reduction axes; the message is only built for an error.
  const auto where = [](int dim) { return dim < 0 ? std::string("reduction") : fmt::format("dimension {}", dim); };
  auto check = [&](const AxisRef& ref, int dim) -> Status {
    if (auto problem = detail::axis_ref_problem(mesh, ref))
      return invalid_error(fmt::format("{}: {}", where(dim), *problem));
    for (const AxisRef* earlier : seen)
      if (auto conflict = detail::axis_conflict(*earlier, ref))
        return invalid_error(fmt::format("{}: {}", where(dim), *conflict));
    seen.push_back(&ref);
    return Ok{};
  };
  for (std::size_t i = 0; i < type.dims.size(); ++i) {
    const int dim = static_cast<int>(i);
    if (type.dims[i].global < 1)
      return invalid_error(fmt::format("{}: size {} must be at least 1", where(dim), type.dims[i].global));
    for (const auto& ref : type.dims[i].axes)
      if (auto s = check(ref, dim); !s) return s;
  }
  for (const auto& ref : type.reduce_axes)
    if (auto s = check(ref, -1); !s) return s;
  return Ok{};
}

Status same_array(const DistType& src, const DistType& dst) {
  if (src.elem != dst.elem)
    return invalid_error(fmt::format("the element types differ: {} and {}", elem_name(src.elem), elem_name(dst.elem)));
  bool same_shape = src.rank() == dst.rank();
  for (std::size_t d = 0; same_shape && d < src.rank(); ++d) same_shape = src.dims[d].global == dst.dims[d].global;
  if (!same_shape)
    return invalid_error(
        fmt::format("the source {} and the target {} have different global shapes", to_string(src), to_string(dst)));
  return Ok{};
}

Status validate_axis_ref(const AxisRef& ref, const Mesh& mesh) {
  if (auto problem = detail::axis_ref_problem(mesh, ref)) return invalid_error(*problem);
  return Ok{};
}

std::string_view reduce_op_name(ReduceOp op) {
  switch (op) {
    case ReduceOp::sum: return "sum";
    case ReduceOp::max: return "max";
    case ReduceOp::min: return "min";
  }
  return "sum";
}

std::string to_string(const DistType& type) {
  std::string out(elem_name(type.elem));
  out += "[";
  for (std::size_t i = 0; i < type.dims.size(); ++i) {
    if (i) out += ", ";
    if (!type.dims[i].axes.empty()) out += to_string(type.dims[i].axes);
    out += std::to_string(type.dims[i].global);
  }
  out += "]";
  if (!type.reduce_axes.empty()) {
    out += " ";
    out += reduce_op_name(type.reduce_op);
    out += to_string(type.reduce_axes);
  }
  return out;
}

int64_t tile_count(const Dim& dim) { return product_of_sizes(dim.axes); }

int64_t local_size(const Dim& dim) {
  const int64_t tiles = tile_count(dim);
  return dim.global / tiles + (dim.global % tiles != 0);
}

std::vector<int64_t> local_shape(const DistType& type) {
  std::vector<int64_t> shape;
  for (const auto& d : type.dims) shape.push_back(local_size(d));
  return shape;
}

bool has_padding(const DistType& type) {
  return std::any_of(type.dims.begin(), type.dims.end(),
                     [](const Dim& d) { return d.global % tile_count(d) != 0; });
}

// Also true for a single element (global 1): it is local 0 of block 0 in every
// tiling, and every other block is padding.
bool tiles_nest(int64_t global, int64_t coarse, int64_t fine) {
  if (coarse == 1 || global == 1) return true;
  const int64_t fine_local = global / fine + (global % fine != 0);
  const int64_t coarse_local = global / coarse + (global % coarse != 0);
  return (fine / coarse) * fine_local == coarse_local;
}

int64_t replication_factor(const DistType& type, const Mesh& mesh) {
  int64_t sharded = product_of_sizes(type.reduce_axes);
  for (const auto& d : type.dims) sharded *= tile_count(d);
  return mesh.num_devices() / sharded;
}

std::vector<AxisRef> used_axes(const DistType& type) {
  std::vector<AxisRef> out;
  for (const auto& d : type.dims) out.insert(out.end(), d.axes.begin(), d.axes.end());
  out.insert(out.end(), type.reduce_axes.begin(), type.reduce_axes.end());
  return out;
}

std::vector<AxisRef> free_axes(const Mesh& mesh, const DistType& type) {
  std::vector<AxisRef> free;
  std::vector<const AxisRef*> mine;  // the used refs of one axis, by address (no copies)
  for (const auto& axis : mesh.axes()) {
    mine.clear();
    for (const auto& d : type.dims)
      for (const auto& u : d.axes)
        if (u.name == axis.name) mine.push_back(&u);
    for (const auto& u : type.reduce_axes)
      if (u.name == axis.name) mine.push_back(&u);
    std::sort(mine.begin(), mine.end(), [](const AxisRef* a, const AxisRef* b) { return a->pre < b->pre; });
    int64_t next = 1;  // start of the next unused factor
    for (const AxisRef* u : mine) {
      if (u->pre > next) free.push_back(make_axis_ref(axis.name, next, u->pre / next, axis.size));
      next = u->pre * u->size;
    }
    if (next < axis.size) free.push_back(make_axis_ref(axis.name, next, axis.size / next, axis.size));
  }
  return free;
}

std::vector<AxisRef> axes_minus(const std::vector<AxisRef>& axes, const std::vector<AxisRef>& drop) {
  std::vector<AxisRef> out;
  for (const auto& a : axes)
    if (std::find(drop.begin(), drop.end(), a) == drop.end()) out.push_back(a);
  return out;
}

namespace {

/// True when two neighbours of `axes` merge into one sub-axis (x:(1)2 then x:(2)2).
bool merges(const std::vector<AxisRef>& axes) {
  return std::adjacent_find(axes.begin(), axes.end(), [](const AxisRef& a, const AxisRef& b) {
           return a.name == b.name && a.pre * a.size == b.pre;
         }) != axes.end();
}

/// The order of canonical reduction axes: by mesh axis, then by start.
auto reduce_order(const Mesh& mesh) {
  return [&mesh](const AxisRef& a, const AxisRef& b) {
    const auto ia = *mesh.axis_index(a.name), ib = *mesh.axis_index(b.name);
    return ia != ib ? ia < ib : a.pre < b.pre;
  };
}

}  // namespace

bool is_canonical(const DistType& type, const Mesh& mesh) {
  return std::none_of(type.dims.begin(), type.dims.end(), [](const Dim& d) { return merges(d.axes); }) &&
         std::is_sorted(type.reduce_axes.begin(), type.reduce_axes.end(), reduce_order(mesh)) &&
         !merges(type.reduce_axes);
}

DistType canonical(const DistType& type, const Mesh& mesh) {
  auto axis_size = [&](const std::string& name) { return mesh.axis_size(*mesh.axis_index(name)); };
  // merge_adjacent() only where two neighbours merge (most types are canonical already).
  DistType out = type;
  for (auto& d : out.dims)
    if (merges(d.axes)) d.axes = merge_adjacent(std::move(d.axes), axis_size);
  std::sort(out.reduce_axes.begin(), out.reduce_axes.end(), reduce_order(mesh));
  if (merges(out.reduce_axes)) out.reduce_axes = merge_adjacent(std::move(out.reduce_axes), axis_size);
  return out;
}

}  // namespace redist
