// Tile assignments to and from redist types (tiling.hpp).

#include "notation/tiling.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <numeric>

#include "notation/cursor.hpp"

namespace redist::notation::detail {

namespace {

// Row-major strides of the mesh axes over positions.
std::vector<int64_t> axis_strides(const Mesh& mesh) {
  std::vector<int64_t> s(mesh.rank(), 1);
  for (std::size_t a = mesh.rank(); a-- > 1;) s[a - 1] = s[a] * mesh.axis_size(a);
  return s;
}

// One mixed-radix digit of the tile index: radix `size`, contributing `stride` to the
// mesh position; it is the factor `ref` of a mesh axis.
struct Digit {
  std::size_t tile_dim;
  int64_t tile_stride;  // weight of the digit in the flat tile index
  int64_t stride;       // weight in the mesh position
  int64_t size;
  AxisRef ref;
};

}  // namespace

std::vector<int64_t> expand_iota(const std::vector<int64_t>& reshape, const std::vector<int64_t>& perm) {
  int64_t n = 1;
  for (int64_t d : reshape) n *= d;
  std::vector<int64_t> in_strides(reshape.size(), 1);
  for (std::size_t i = reshape.size(); i-- > 1;) in_strides[i - 1] = in_strides[i] * reshape[i];
  std::vector<int64_t> out_dims, out_strides;
  for (std::size_t i = 0; i < reshape.size(); ++i) {
    const std::size_t src = perm.empty() ? i : static_cast<std::size_t>(perm[i]);
    out_dims.push_back(reshape[src]);
    out_strides.push_back(in_strides[src]);
  }
  std::vector<int64_t> out(static_cast<std::size_t>(n));
  std::vector<int64_t> idx(out_dims.size(), 0);
  for (int64_t t = 0; t < n; ++t) {
    int64_t v = 0;
    for (std::size_t k = 0; k < idx.size(); ++k) v += idx[k] * out_strides[k];
    out[static_cast<std::size_t>(t)] = v;
    for (std::size_t k = idx.size(); k-- > 0;) {
      if (++idx[k] < out_dims[k]) break;
      idx[k] = 0;
    }
  }
  return out;
}

Result<DistType> type_from_tiles(const TileAssignment& tiles, const ArrayShape& shape, const Mesh& mesh) {
  const int64_t n = static_cast<int64_t>(tiles.devices.size());
  if (n != mesh.num_devices())
    return invalid_error(str("the tile assignment has ", n, " devices but the mesh ", to_string(mesh), " has ",
                             mesh.num_devices()));
  // f(t): the mesh position of the device at tile index t.
  std::vector<int64_t> f(static_cast<std::size_t>(n));
  std::vector<bool> seen(static_cast<std::size_t>(n), false);
  for (int64_t t = 0; t < n; ++t) {
    const int64_t d = tiles.devices[static_cast<std::size_t>(t)];
    if (!mesh.has_device(d))
      return invalid_error(mesh.compact() ? str("device id ", d, " is out of range: a mesh of ", n,
                                                " devices numbers them 0..", n - 1)
                                          : str("device id ", d, " is not a device of the mesh ", to_string(mesh)));
    const int64_t p = mesh.position_of(d);
    if (seen[static_cast<std::size_t>(p)]) return invalid_error(str("device id ", d, " appears twice"));
    seen[static_cast<std::size_t>(p)] = true;
    f[static_cast<std::size_t>(t)] = p;
  }
  const auto strides = axis_strides(mesh);
  auto refuse = [&] {
    return unsupported_error(fmt::format(
        "the device order of the tile assignment is not a mesh-axis ordering of {}: no redist type on this mesh "
        "places the tiles there",
        to_string(mesh)));
  };
  if (f[0] != 0) return refuse();
  // Recover the digits from the minor-most tile dim up: each digit is the longest run of
  // tile indices B, 2B, ... that walk one mesh axis with a constant stride.
  std::vector<Digit> digits;
  int64_t block = 1;
  for (std::size_t k = tiles.dims.size(); k-- > 0;) {
    int64_t remaining = tiles.dims[k];
    while (remaining > 1) {
      const int64_t s = f[static_cast<std::size_t>(block)];
      std::size_t a = 0;
      while (a < mesh.rank() && !(s >= strides[a] && s < strides[a] * mesh.axis_size(a))) ++a;
      if (a == mesh.rank() || s % strides[a] != 0) return refuse();
      const int64_t axis_n = mesh.axis_size(a);
      const int64_t q = s / strides[a];
      if (axis_n % q != 0) return refuse();
      const int64_t cap = axis_n / q;
      int64_t run = 1;
      while (run < std::min(remaining, cap) && f[static_cast<std::size_t>(run * block)] == run * s) ++run;
      int64_t r = run;
      while (r > 1 && (remaining % r != 0 || cap % r != 0)) --r;
      if (r < 2) return refuse();
      const std::string& name = mesh.axes()[a].name;
      digits.push_back({k, block, s, r, make_axis_ref(name, axis_n / (q * r), r, axis_n)});
      block *= r;
      remaining /= r;
    }
  }
  // The digits must explain every tile, not only the runs that found them.
  for (int64_t t = 0; t < n; ++t) {
    int64_t p = 0;
    for (const auto& d : digits) p += (t / d.tile_stride) % d.size * d.stride;
    if (p != f[static_cast<std::size_t>(t)]) return refuse();
  }
  DistType type;
  type.elem = shape.elem;
  type.dims.resize(shape.dims.size());
  for (std::size_t i = 0; i < shape.dims.size(); ++i) type.dims[i].global = shape.dims[i];
  // Digits were found minor first: insert each at the front of its dim's axis list.
  for (const auto& d : digits)
    if (d.tile_dim < type.dims.size()) {
      auto& axes = type.dims[d.tile_dim].axes;
      axes.insert(axes.begin(), d.ref);
    }
  if (auto s = validate(type, mesh); !s) return refuse();
  return canonical(type, mesh);
}

Result<TileForm> tiles_of_type(const DistType& type, const Mesh& mesh) {
  // Refine each mesh axis into pieces at every factor boundary the type uses.
  struct Piece {
    std::size_t axis;
    int64_t pre, size;
    int64_t stride;  // weight in the mesh position
  };
  const auto strides = axis_strides(mesh);
  std::vector<std::vector<int64_t>> cuts(mesh.rank());
  for (std::size_t a = 0; a < mesh.rank(); ++a) cuts[a] = {1, mesh.axis_size(a)};
  for (const auto& ref : used_axes(type)) {
    const auto a = mesh.axis_index(ref.name);
    if (!a) return invalid_error(fmt::format("unknown mesh axis '{}'", ref.name));
    cuts[*a].push_back(ref.pre);
    cuts[*a].push_back(ref.pre * ref.size);
  }
  std::vector<Piece> pieces;  // mesh order
  for (std::size_t a = 0; a < mesh.rank(); ++a) {
    auto& c = cuts[a];
    std::sort(c.begin(), c.end());
    c.erase(std::unique(c.begin(), c.end()), c.end());
    const int64_t n = mesh.axis_size(a);
    for (std::size_t i = 0; i + 1 < c.size(); ++i) {
      if (c[i + 1] % c[i] != 0) return invalid_error(fmt::format("sub-axes of '{}' do not nest", mesh.axes()[a].name));
      const int64_t size = c[i + 1] / c[i];
      pieces.push_back({a, c[i], size, strides[a] * (n / c[i + 1])});
    }
  }
  auto piece_of = [&](std::size_t a, int64_t pre) {
    for (std::size_t i = 0; i < pieces.size(); ++i)
      if (pieces[i].axis == a && pieces[i].pre == pre) return i;
    return pieces.size();
  };
  // Tile order: each dim's factors major to minor, then the unused pieces.
  TileForm form;
  std::vector<std::size_t> order;
  std::vector<bool> used(pieces.size(), false);
  for (const auto& dim : type.dims) {
    int64_t tiles = 1;
    for (const auto& ref : dim.axes) {
      const std::size_t a = *mesh.axis_index(ref.name);
      for (int64_t pre = ref.pre; pre < ref.pre * ref.size;) {
        const std::size_t p = piece_of(a, pre);
        if (p == pieces.size() || used[p]) return invalid_error(fmt::format("axis '{}' is used twice", ref.name));
        used[p] = true;
        order.push_back(p);
        pre *= pieces[p].size;
      }
      tiles *= ref.size;
    }
    form.dims.push_back(tiles);
  }
  if (!type.reduce_axes.empty()) return unsupported_error("a tile assignment has no pending reduction");
  for (std::size_t p = 0; p < pieces.size(); ++p)
    if (!used[p]) {
      order.push_back(p);
      form.replication *= pieces[p].size;
    }
  if (form.replication > 1) form.dims.push_back(form.replication);
  const bool row_major = !mesh.has_explicit_order();
  if (!row_major) {
    form.iota = false;
    if (mesh.num_devices() > kMaxExpandedTiles) return unsupported_error("too many devices to list explicitly");
    std::vector<int64_t> digit(order.size(), 0);
    for (int64_t t = 0; t < mesh.num_devices(); ++t) {
      int64_t pos = 0;
      for (std::size_t j = 0; j < order.size(); ++j) pos += digit[j] * pieces[order[j]].stride;
      form.devices.push_back(mesh.device_at(pos));
      for (std::size_t j = order.size(); j-- > 0;) {
        if (++digit[j] < pieces[order[j]].size) break;
        digit[j] = 0;
      }
    }
    return form;
  }
  // Iota form: drop size-1 pieces, merge tile-order neighbours adjacent in mesh order.
  std::vector<std::size_t> mesh_rank(pieces.size(), 0);
  for (std::size_t p = 0, r = 0; p < pieces.size(); ++p)
    if (pieces[p].size > 1) mesh_rank[p] = r++;
  std::vector<std::vector<std::size_t>> groups;  // tile order; each a run of mesh-order pieces
  for (std::size_t p : order) {
    if (pieces[p].size == 1) continue;
    if (!groups.empty() && mesh_rank[groups.back().back()] + 1 == mesh_rank[p]) {
      groups.back().push_back(p);
    } else {
      groups.push_back({p});
    }
  }
  std::vector<std::size_t> by_mesh(groups.size());
  std::iota(by_mesh.begin(), by_mesh.end(), 0);
  std::sort(by_mesh.begin(), by_mesh.end(), [&](auto a, auto b) { return groups[a][0] < groups[b][0]; });
  form.perm.assign(groups.size(), 0);
  for (std::size_t rank = 0; rank < by_mesh.size(); ++rank) {
    int64_t size = 1;
    for (std::size_t p : groups[by_mesh[rank]]) size *= pieces[p].size;
    form.reshape.push_back(size);
    form.perm[by_mesh[rank]] = static_cast<int64_t>(rank);
  }
  bool identity = true;
  for (std::size_t i = 0; i < form.perm.size(); ++i) identity = identity && form.perm[i] == static_cast<int64_t>(i);
  if (identity) {
    form.perm.clear();
    form.reshape = {mesh.num_devices()};
  }
  return form;
}

}  // namespace redist::notation::detail
