// The common refinement of two meshes over the same devices (see refine.hpp).

#include "redist/core/refine.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <set>
#include <utility>

namespace redist {
namespace {

/// Position strides [lo, hi) covered by `ref` on `mesh` (see refine.hpp).
std::pair<int64_t, int64_t> stride_range(const Mesh& mesh, const AxisRef& ref) {
  int64_t stride = 1;  // product of the sizes after the axis
  for (std::size_t i = mesh.rank(); i-- > 0;) {
    const int64_t n = mesh.axis_size(i);
    if (mesh.axes()[i].name == ref.name) {
      const int64_t hi = stride * (n / ref.pre);
      return {hi / ref.size, hi};
    }
    stride *= n;
  }
  return {1, 1};  // not an axis of the mesh: validated types never get here
}

/// Every stride boundary of the axes of `mesh` and of the references `type` uses.
void add_cuts(const Mesh& mesh, const DistType& type, std::set<int64_t>& cuts) {
  int64_t stride = 1;
  cuts.insert(stride);
  for (std::size_t i = mesh.rank(); i-- > 0;) cuts.insert(stride *= mesh.axis_size(i));
  for (const auto& ref : used_axes(type)) {
    const auto [lo, hi] = stride_range(mesh, ref);
    cuts.insert(lo);
    cuts.insert(hi);
  }
}

/// The factor of an axis of `mesh` that covers strides [lo, hi) (inside one axis).
AxisRef factor_of(const Mesh& mesh, int64_t lo, int64_t hi) {
  int64_t stride = 1;
  for (std::size_t i = mesh.rank(); i-- > 0;) {
    const int64_t n = mesh.axis_size(i);
    if (stride <= lo && hi <= stride * n)
      return make_axis_ref(mesh.axes()[i].name, stride * n / hi, hi / lo, n);
    stride *= n;
  }
  return {};
}

/// A name for the refined axis: the source axis it is all of, else the target axis it
/// is all of (unless a source axis has that name), else `<source axis>_<factor
/// index>`; made unique with trailing '_'.
std::string refined_name(const Mesh& src_mesh, const AxisRef& source, const AxisRef& target, int factor,
                         std::set<std::string>& taken) {
  const bool target_free = !target.sub && !taken.contains(target.name) && !src_mesh.axis_index(target.name);
  std::string name = !source.sub   ? source.name
                     : target_free ? target.name
                                   : fmt::format("{}_{}", source.name, factor);
  while (taken.contains(name)) name += "_";
  taken.insert(name);
  return name;
}

std::string cut_list(const std::set<int64_t>& cuts) {
  std::string out;
  for (int64_t c : cuts) out += (out.empty() ? "" : ", ") + std::to_string(c);
  return out;
}

}  // namespace

DistType rewrite_type(const DistType& type, const Mesh& mesh, const std::vector<RefinedAxis>& axes, bool source) {
  auto expand = [&](const std::vector<AxisRef>& refs) {
    std::vector<AxisRef> out;
    for (const auto& ref : refs) {
      const auto [lo, hi] = stride_range(mesh, ref);
      for (const auto& axis : axes) {  // major first
        const auto [alo, ahi] = stride_range(mesh, source ? axis.source : axis.target);
        if (lo <= alo && ahi <= hi) out.push_back(AxisRef{axis.name, 1, axis.size, false});
      }
    }
    return out;
  };
  DistType out = type;
  for (auto& dim : out.dims) dim.axes = expand(dim.axes);
  out.reduce_axes = expand(type.reduce_axes);
  return out;
}

Result<Refinement> refine(const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh, const DistType& dst) {
  if (auto s = validate(src, src_mesh); !s) return invalid_error("source: " + s.error().message);
  if (auto s = validate(dst, dst_mesh); !s) return invalid_error("target: " + s.error().message);
  if (auto s = same_array(src, dst); !s) return s.error();
  if (src_mesh.num_devices() != dst_mesh.num_devices())
    return unsupported_error(fmt::format(
        "the source mesh {} has {} devices and the target mesh {} has {}: a common refinement needs one device set "
        "(reshards between device sets are planned as a transfer, docs/meshes.md)",
        to_string(src_mesh), src_mesh.num_devices(), to_string(dst_mesh), dst_mesh.num_devices()));
  if (!src_mesh.compact() || !dst_mesh.compact())
    return unsupported_error(fmt::format(
        "the meshes {} and {} are not both over devices 0..{}: a common refinement runs on devices 0..N-1 "
        "(reshards between device sets are planned as a transfer, docs/meshes.md)",
        to_string(src_mesh), to_string(dst_mesh), src_mesh.num_devices() - 1));
  std::set<int64_t> cuts;
  add_cuts(src_mesh, src, cuts);
  add_cuts(dst_mesh, dst, cuts);
  for (auto it = cuts.begin(); std::next(it) != cuts.end(); ++it)
    if (*std::next(it) % *it != 0)
      return unsupported_error(fmt::format(
          "the meshes {} and {} have no common refinement: their axes cut device positions at strides {}, and {} "
          "does not divide {}",
          to_string(src_mesh), to_string(dst_mesh), cut_list(cuts), *it, *std::next(it)));
  Refinement r;
  std::set<std::string> taken;
  std::vector<int64_t> bounds(cuts.rbegin(), cuts.rend());  // major first
  std::vector<MeshAxis> mesh_axes;
  for (std::size_t j = 0; j + 1 < bounds.size(); ++j) {
    const int64_t hi = bounds[j], lo = bounds[j + 1];
    RefinedAxis axis{"", hi / lo, factor_of(src_mesh, lo, hi), factor_of(dst_mesh, lo, hi)};
    int factor = 0;  // refined axes before this one inside its source axis
    for (const auto& prev : r.axes) factor += prev.source.name == axis.source.name;
    axis.name = refined_name(src_mesh, axis.source, axis.target, factor, taken);
    mesh_axes.push_back({axis.name, axis.size});
    r.axes.push_back(std::move(axis));
  }
  auto source_mesh = Mesh::create(mesh_axes, src_mesh.device_order());
  auto target_mesh = Mesh::create(mesh_axes, dst_mesh.device_order());
  if (!source_mesh) return source_mesh.error();
  if (!target_mesh) return target_mesh.error();
  r.source_mesh = std::move(*source_mesh);
  r.target_mesh = std::move(*target_mesh);
  r.source = rewrite_type(src, src_mesh, r.axes, true);
  r.target = rewrite_type(dst, dst_mesh, r.axes, false);
  return r;
}

std::vector<std::string> describe(const std::vector<RefinedAxis>& axes) {
  std::vector<std::string> lines;
  for (const auto& a : axes)
    lines.push_back(
        fmt::format("{}:{} = {} (source) = {} (target)", a.name, a.size, to_string(a.source), to_string(a.target)));
  return lines;
}

}  // namespace redist
