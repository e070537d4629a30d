// Meshes refined so that types need no sub-axes (split_sub_axes in notation.hpp): a
// mesh invented for an XLA tiling reads best with one axis per factor a dim uses.

#include <algorithm>
#include <fmt/format.h>

#include "notation/cursor.hpp"
#include "redist/core/notation/notation.hpp"

namespace redist::notation {

using detail::str;

Result<SplitMesh> split_sub_axes(const Mesh& mesh, const std::vector<DistType>& types,
                                 const std::vector<std::string>& axis_names) {
  std::vector<std::vector<int64_t>> cuts(mesh.rank());
  for (std::size_t a = 0; a < mesh.rank(); ++a) cuts[a] = {1, mesh.axis_size(a)};
  for (const auto& type : types) {
    if (auto s = validate(type, mesh); !s) return s.error();
    for (const auto& ref : used_axes(type)) {
      auto& c = cuts[*mesh.axis_index(ref.name)];
      c.push_back(ref.pre);
      c.push_back(ref.pre * ref.size);
    }
  }
  // New axes: each old axis's pieces, major first; first_piece[a] indexes them.
  struct Piece {
    int64_t pre, size;
    std::size_t axis;  // index in the new mesh
  };
  std::vector<std::vector<Piece>> pieces(mesh.rank());
  std::vector<MeshAxis> axes;
  for (std::size_t a = 0; a < mesh.rank(); ++a) {
    auto& c = cuts[a];
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
    for (std::size_t i = 0; i + 1 < c.size(); ++i) {
      if (c[i + 1] % c[i] != 0)
        return invalid_error(fmt::format("the types' factors of axis '{}' do not nest", mesh.axes()[a].name));
      pieces[a].push_back({c[i], c[i + 1] / c[i], axes.size()});
      axes.push_back({"", c[i + 1] / c[i]});
    }
  }
  if (!axis_names.empty() && axis_names.size() != axes.size())
    return invalid_error(str("the mesh has ", axes.size(), " axes but ", axis_names.size(), " names were given"));
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (!axis_names.empty()) {
      axes[i].name = axis_names[i];
    } else {
      axes[i].name = str(static_cast<char>('a' + i % 26));
      if (i >= 26) axes[i].name += std::to_string(i / 26);
    }
  }
  // Splitting an axis row-major keeps every device's position, so the order carries over.
  auto refined = Mesh::create(axes, mesh.device_order());
  if (!refined) return refined.error();
  auto rewrite = [&](const std::vector<AxisRef>& refs) {
    std::vector<AxisRef> out;
    for (const auto& ref : refs) {
      for (const auto& p : pieces[*mesh.axis_index(ref.name)])
        if (p.pre >= ref.pre && p.pre < ref.pre * ref.size && p.size > 1)
          out.push_back({axes[p.axis].name, 1, p.size, false});
    }
    return out;
  };
  SplitMesh result{*refined, {}};
  for (const auto& type : types) {
    DistType t = type;
    for (auto& d : t.dims) d.axes = rewrite(d.axes);
    t.reduce_axes = rewrite(t.reduce_axes);
    result.types.push_back(std::move(t));
  }
  return result;
}

}  // namespace redist::notation
