// XLA HloSharding text in and out (docs/interop.md): `{devices=[2,1,4]<=[4,2]T(1,0)}`,
// explicit device lists, replication subgroups, `{replicated}`.

#include <numeric>

#include "notation/cursor.hpp"
#include "notation/tiling.hpp"

namespace redist::notation {

using detail::Cursor;
using detail::str;

namespace {

std::string join(const std::vector<int64_t>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += ',';
    out += std::to_string(v[i]);
  }
  return out;
}

// Mesh axes of the given sizes (size-1 ones dropped), named later by split_sub_axes.
Result<Mesh> invent_mesh(const std::vector<int64_t>& sizes, std::vector<int64_t> devices) {
  std::vector<MeshAxis> axes;
  for (int64_t s : sizes)
    if (s > 1) axes.push_back({str("t", axes.size()), s});
  bool identity = true;
  for (std::size_t i = 0; i < devices.size(); ++i) identity = identity && devices[i] == static_cast<int64_t>(i);
  if (identity) devices.clear();
  return Mesh::create(std::move(axes), std::move(devices));
}

}  // namespace

Result<MeshType> from_hlo_sharding(std::string_view text, const ArrayShape& shape, const HloShardingOptions& options) {
  Cursor cur(text);
  if (cur.accept("sharding"))
    if (auto s = cur.expect('=', "after 'sharding'"); !s) return s.error();
  if (auto s = cur.expect('{', "to open the HloSharding"); !s) return s.error();
  const std::size_t kind_at = (cur.skip_spaces(), cur.position());
  auto replicated_on = [&](const Mesh& mesh) -> Result<MeshType> {
    DistType type;
    type.elem = shape.elem;
    for (int64_t d : shape.dims) type.dims.push_back({d, {}});
    return MeshType{mesh, type};
  };
  if (cur.accept("replicated")) {
    if (auto s = cur.expect('}', "after 'replicated'"); !s) return s.error();
    if (auto s = cur.expect_end("the HloSharding"); !s) return s.error();
    // With no mesh, one device holds everything: a replicated type on any mesh says so.
    return replicated_on(options.mesh ? *options.mesh : Mesh());
  }
  if (cur.accept("maximal"))
    return parse_error(kind_at,
                       "a maximal sharding puts the whole array on one device; redist types spread an array "
                       "over all devices of a mesh, so it has no redist type");
  if (cur.accept("manual"))
    return parse_error(kind_at, "a manual sharding is opaque to the partitioner; it has no redist type");
  if (cur.accept("unknown"))
    return parse_error(kind_at, "an unknown sharding has no redist type");
  if (cur.peek() == '{')
    return parse_error(kind_at, "a tuple sharding has one sharding per element: pass one element's sharding");
  if (auto s = cur.expect("devices", "(or 'replicated')"); !s) return s.error();
  if (auto s = cur.expect('=', "after 'devices'"); !s) return s.error();
  const std::size_t dims_at = (cur.skip_spaces(), cur.position());
  auto dims = cur.integer_list('[', ']', "tile dimension", 1);
  if (!dims) return dims.error();
  int64_t count = 1;
  for (int64_t d : *dims) {
    if (d > detail::kMaxExpandedTiles / count)
      return parse_error(dims_at, str("more than ", detail::kMaxExpandedTiles, " tiles"));
    count *= d;
  }
  detail::TileAssignment tiles{*dims, {}};
  std::vector<int64_t> reshape, perm;
  const std::size_t assign_at = (cur.skip_spaces(), cur.position());
  const bool iota = cur.accept("<=");
  if (iota) {
    auto r = cur.integer_list('[', ']', "reshape dimension", 1);
    if (!r) return r.error();
    reshape = std::move(*r);
    int64_t n = 1;
    for (int64_t d : reshape) {
      if (d > count / n + 1) return parse_error(assign_at, "the iota reshape does not match the tile count");
      n *= d;
    }
    if (n != count)
      return parse_error(assign_at, str("the iota reshape has ", n, " devices but the tile dims have ", count));
    if (cur.accept('T')) {
      const std::size_t perm_at = (cur.skip_spaces(), cur.position());
      auto p = cur.integer_list('(', ')', "transpose dimension");
      if (!p) return p.error();
      perm = std::move(*p);
      std::vector<bool> seen(reshape.size(), false);
      bool ok = perm.size() == reshape.size();
      for (int64_t i : perm) {
        ok = ok && i < static_cast<int64_t>(reshape.size()) && !seen[static_cast<std::size_t>(i)];
        if (ok) seen[static_cast<std::size_t>(i)] = true;
      }
      if (!ok) return parse_error(perm_at, str("the transpose must be a permutation of 0..", reshape.size() - 1));
    }
    tiles.devices = detail::expand_iota(reshape, perm);
  } else {
    do {
      auto d = cur.integer("a device id");
      if (!d) return d.error();
      tiles.devices.push_back(*d);
      if (static_cast<int64_t>(tiles.devices.size()) > count)
        return parse_error(assign_at, str("more device ids than the ", count, " tiles"));
    } while (cur.accept(','));
    if (static_cast<int64_t>(tiles.devices.size()) != count)
      return parse_error(assign_at, str("the device list has ", tiles.devices.size(), " ids but the tile dims have ",
                                        count, " tiles"));
  }
  std::size_t subgroups = 0;
  while (!cur.accept('}')) {
    const std::size_t attr_at = (cur.skip_spaces(), cur.position());
    if (cur.accept("last_tile_dim_replicate")) {
      if (subgroups) return parse_error(attr_at, "replication subgroups are given twice");
      subgroups = 1;
    } else if (cur.accept("last_tile_dims")) {
      if (subgroups) return parse_error(attr_at, "replication subgroups are given twice");
      if (auto s = cur.expect('=', "after 'last_tile_dims'"); !s) return s.error();
      if (auto s = cur.expect('{', "to open the subgroup types"); !s) return s.error();
      do {
        const std::size_t at = (cur.skip_spaces(), cur.position());
        auto kind = cur.word("a subgroup type");
        if (!kind) return kind.error();
        if (*kind == "manual")
          return parse_error(at, "a manual subgroup is opaque to the partitioner; it has no redist type");
        if (*kind != "replicated")
          return parse_error(at, str("unknown subgroup type '", *kind, "' (expected replicated or manual)"));
        ++subgroups;
      } while (cur.accept(','));
      if (auto s = cur.expect('}', "to close the subgroup types"); !s) return s.error();
    } else if (cur.accept("metadata")) {
      if (auto s = cur.expect('=', "after 'metadata'"); !s) return s.error();
      if (auto s = cur.skip_group(); !s) return s.error();
    } else {
      return cur.error_here(str("expected 'last_tile_dim_replicate', 'last_tile_dims=' or '}', ", cur.found()));
    }
  }
  if (auto s = cur.expect_end("the HloSharding"); !s) return s.error();
  if (dims->size() != shape.dims.size() + subgroups)
    return parse_error(dims_at, str("the tile assignment has ", dims->size(), " dims but the array has rank ",
                                    shape.dims.size(), (subgroups ? str(" plus ", subgroups, " subgroup dims") : "")));
  if (options.mesh) {
    auto type = detail::type_from_tiles(tiles, shape, *options.mesh);
    if (!type) return detail::at(type.error(), assign_at);
    return MeshType{*options.mesh, std::move(*type)};
  }
  // An explicit list becomes the invented mesh's device order (tile t at position t);
  // the iota form's reshape dims are the axes, split below where tile dims cut them.
  auto mesh = iota ? invent_mesh(reshape, {}) : invent_mesh(*dims, tiles.devices);
  if (!mesh) return detail::at(mesh.error(), assign_at);
  if (!mesh->compact())  // XLA's logical ids of an N-device module are 0..N-1
    return parse_error(assign_at, str("device ids out of range: not a permutation of 0..", mesh->num_devices() - 1));
  auto type = detail::type_from_tiles(tiles, shape, *mesh);
  if (!type) return detail::at(type.error(), assign_at);
  auto split = split_sub_axes(*mesh, {*type}, options.axis_names);
  if (!split) return detail::at(split.error(), assign_at);
  return MeshType{std::move(split->mesh), std::move(split->types[0])};
}

Result<std::string> to_hlo_sharding(const DistType& type, const Mesh& mesh) {
  if (!type.reduce_axes.empty())
    return unsupported_error("HloSharding has no pending reduction: " + to_string(type) +
                             " needs its reduction done first (an all-reduce or reduce-scatter)");
  if (auto s = validate(type, mesh); !s) return s.error();
  auto form = detail::tiles_of_type(type, mesh);
  if (!form) return form.error();
  int64_t tiles = 1;
  for (const auto& d : type.dims) tiles *= tile_count(d);
  if (tiles == 1) return std::string("{replicated}");
  std::string out = "{devices=[" + join(form->dims) + "]";
  if (form->iota) {
    out += "<=[" + join(form->reshape) + "]";
    if (!form->perm.empty()) out += "T(" + join(form->perm) + ")";
  } else {
    out += join(form->devices);
  }
  if (form->replication > 1) out += " last_tile_dim_replicate";
  return out + "}";
}

}  // namespace redist::notation
