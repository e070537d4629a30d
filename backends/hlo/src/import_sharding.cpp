// Replica groups, permute pairs and shardings as XLA prints them (import_sharding.hpp).

#include "import_sharding.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <map>
#include <numeric>
#include <set>

#include "import_parse.hpp"

namespace redist::hlo_import {
namespace {

/// Returns the product of `v`, or -1 when a factor is below 1 or the product exceeds
/// 2^40 (no device count a module can name; the callers compare it with one).
int64_t product(const std::vector<int64_t>& v) {
  constexpr int64_t kLimit = int64_t{1} << 40;
  int64_t p = 1;
  for (auto x : v) {
    if (x < 1 || x > kLimit / p) return -1;
    p *= x;
  }
  return p;
}

/// iota(prod(dims)) reshaped to `dims`, transposed by `perm`, flattened row-major.
std::vector<int64_t> iota_list(const std::vector<int64_t>& dims, const std::vector<int64_t>& perm) {
  const std::size_t k = dims.size();
  std::vector<int64_t> strides(k, 1);
  for (std::size_t i = k; i-- > 1;) strides[i - 1] = strides[i] * dims[i];
  std::vector<int64_t> tdims(k), tstrides(k);
  for (std::size_t i = 0; i < k; ++i) {
    tdims[i] = dims[perm[i]];
    tstrides[i] = strides[perm[i]];
  }
  std::vector<int64_t> out;
  out.reserve(product(dims));
  std::vector<int64_t> idx(k, 0);
  for (int64_t n = product(dims); n > 0; --n) {
    int64_t v = 0;
    for (std::size_t i = 0; i < k; ++i) v += idx[i] * tstrides[i];
    out.push_back(v);
    for (std::size_t i = k; i-- > 0;) {
      if (++idx[i] < tdims[i]) break;
      idx[i] = 0;
    }
  }
  return out;
}

/// Parses `[d0,d1]T(p0,p1)` or `[d0,d1]` (an iota reshape and transpose), validating.
Result<std::pair<std::vector<int64_t>, std::vector<int64_t>>> parse_iota(std::string_view text, int64_t n) {
  const auto close = text.find(']');
  if (text.empty() || text[0] != '[' || close == std::string_view::npos)
    return invalid_error("'" + std::string(text) + "' is not an iota [dims]T(perm)");
  auto dims = integers_in(text.substr(1, close - 1));
  std::vector<int64_t> perm(dims.size());
  std::iota(perm.begin(), perm.end(), 0);
  const auto t = text.find("T(", close);
  if (t != std::string_view::npos) perm = integers_in(text.substr(t + 2, text.find(')', t) - t - 2));
  if (product(dims) != n || std::any_of(dims.begin(), dims.end(), [](int64_t d) { return d < 1; }))
    return invalid_error(fmt::format("iota dims [{}] do not multiply to {} devices", text.substr(1, close - 1), n));
  std::vector<int64_t> sorted = perm;
  std::sort(sorted.begin(), sorted.end());
  bool permutation = sorted.size() == dims.size();  // T() or T(false) lists too few
  for (std::size_t i = 0; permutation && i < sorted.size(); ++i) permutation = sorted[i] == static_cast<int64_t>(i);
  if (!permutation)
    return invalid_error(fmt::format("'{}' has a transpose that is not a permutation of its dims", text));
  return std::pair{dims, perm};
}

/// Groups of the mesh spelling: mesh['a'=2,'b'=4] with device list `devices` (mesh
/// position -> device) and the group axes text `{'b'}` / `{'b':(2)2,'a'}`.
Result<DeviceGroups> mesh_groups(std::string_view mesh_text, const std::vector<int64_t>& devices,
                                 std::string_view axes_text) {
  std::vector<std::string> names;
  std::vector<int64_t> sizes;
  for (const auto& part : split_top_level(mesh_text.substr(1, mesh_text.size() - 2))) {
    const auto q1 = part.find('\''), q2 = part.find('\'', q1 + 1), eq = part.find('=');
    if (q1 == std::string::npos || q2 == std::string::npos || eq == std::string::npos)
      return invalid_error("cannot read mesh axis '" + part + "'");
    names.push_back(part.substr(q1 + 1, q2 - q1 - 1));
    const auto v = integers_in(std::string_view(part).substr(eq + 1));
    if (v.size() != 1 || v[0] < 1) return invalid_error("cannot read the size of mesh axis '" + part + "'");
    sizes.push_back(v[0]);
  }
  const int64_t n = product(sizes);
  if (n < 0) return invalid_error("the mesh " + std::string(mesh_text) + " has too many devices");
  if (n != static_cast<int64_t>(devices.size()))
    return invalid_error(fmt::format("the mesh has {} devices, the device list {}", n, devices.size()));
  struct Factor {
    std::size_t axis;
    int64_t stride, size;
  };
  std::vector<Factor> factors;
  for (const auto& part : split_top_level(axes_text)) {
    const auto q1 = part.find('\''), q2 = part.find('\'', q1 + 1);
    if (q1 == std::string::npos || q2 == std::string::npos) return invalid_error("cannot read group axis '" + part + "'");
    const auto it = std::find(names.begin(), names.end(), part.substr(q1 + 1, q2 - q1 - 1));
    if (it == names.end()) return invalid_error("group axis '" + part + "' is not an axis of the mesh");
    const std::size_t a = it - names.begin();
    int64_t pre = 1, size = sizes[a];
    const auto colon = part.find(':', q2);
    if (colon != std::string::npos) {
      const auto v = integers_in(std::string_view(part).substr(colon + 1));
      if (v.size() != 2 || v[0] < 1 || v[1] < 1 || sizes[a] % (v[0] * v[1]) != 0)
        return invalid_error("sub-axis '" + part + "' does not divide its axis");
      pre = v[0];
      size = v[1];
    }
    factors.push_back({a, sizes[a] / (pre * size), size});
  }
  std::map<std::vector<int64_t>, std::vector<std::pair<int64_t, int64_t>>> by_key;
  for (int64_t p = 0; p < n; ++p) {
    std::vector<int64_t> c(sizes.size());
    for (std::size_t a = sizes.size(), rest = p; a-- > 0;) {
      c[a] = static_cast<int64_t>(rest) % sizes[a];
      rest /= sizes[a];
    }
    int64_t member = 0;
    std::vector<int64_t> key = c;
    for (const auto& f : factors) {
      const int64_t digit = (c[f.axis] / f.stride) % f.size;
      member = member * f.size + digit;
      key[f.axis] -= digit * f.stride;
    }
    by_key[key].push_back({member, devices[p]});
  }
  DeviceGroups groups;
  for (auto& [key, members] : by_key) {
    std::sort(members.begin(), members.end());
    std::vector<int64_t> g;
    for (const auto& [m, d] : members) g.push_back(d);
    groups.push_back(std::move(g));
  }
  return groups;
}

/// Ok when `groups` partition 0..n-1 into groups of one size.
Status check_partition(const DeviceGroups& groups, int64_t n) {
  std::vector<bool> seen(n);
  int64_t count = 0;
  for (const auto& g : groups) {
    if (g.size() != groups.front().size()) return invalid_error("replica groups of different sizes");
    for (auto d : g) {
      if (d < 0 || d >= n || seen[d])
        return invalid_error(fmt::format("device {} is out of range or in two groups", d));
      seen[d] = true;
      ++count;
    }
  }
  if (count != n) return invalid_error(fmt::format("the replica groups do not cover all {} devices", n));
  return Ok{};
}

}  // namespace

Result<DeviceGroups> parse_replica_groups(std::string_view text, std::string_view device_ids, int64_t n) {
  DeviceGroups groups;
  if (text.rfind("mesh[", 0) == 0) {
    const auto close = text.find(']');
    std::string_view axes = text.substr(close + 1);
    std::vector<int64_t> devices(n);
    std::iota(devices.begin(), devices.end(), 0);
    if (!device_ids.empty()) {
      const auto open = device_ids.find('(');
      const auto end = device_ids.find(')', device_ids.find(']') == std::string_view::npos ? 0 : device_ids.find(']'));
      if (open == std::string_view::npos || end == std::string_view::npos)
        return invalid_error("cannot read device_ids=" + std::string(device_ids));
      // `device_ids=([4,2]T(1,0)) {'b'}`: the inner text ends at the last ')' before the axes.
      const auto brace = device_ids.find('{');
      std::string_view inner = device_ids.substr(open + 1, (brace == std::string_view::npos ? device_ids.size() : brace));
      inner = inner.substr(0, inner.rfind(')'));
      if (!inner.empty() && inner[0] == '[') {
        auto iota = parse_iota(inner, n);
        if (!iota) return iota.error();
        devices = iota_list(iota->first, iota->second);
      } else {
        devices = integers_in(inner);
      }
      if (brace != std::string_view::npos) axes = device_ids.substr(brace);
    }
    const auto a = axes.find('{'), b = axes.rfind('}');
    if (a == std::string_view::npos || b == std::string_view::npos)
      return invalid_error("the mesh replica groups name no axes");
    auto g = mesh_groups(text.substr(4, close - 3), devices, axes.substr(a + 1, b - a - 1));
    if (!g) return g.error();
    groups = std::move(*g);
  } else if (!text.empty() && text[0] == '[') {
    const auto le = text.find("<=");
    if (le == std::string_view::npos) return invalid_error("cannot read replica_groups=" + std::string(text));
    const auto shape = integers_in(text.substr(0, le));
    auto iota = parse_iota(text.substr(le + 2), n);
    if (!iota) return iota.error();
    if (shape.size() != 2 || shape[0] * shape[1] != n)
      return invalid_error(fmt::format("replica_groups={} is not [groups,size] over {} devices", text, n));
    const auto list = iota_list(iota->first, iota->second);
    for (int64_t g = 0; g < shape[0]; ++g)
      groups.emplace_back(list.begin() + g * shape[1], list.begin() + (g + 1) * shape[1]);
  } else if (!text.empty() && text[0] == '{') {
    const std::string inner(text.substr(1, text.size() - 2));
    for (const auto& g : split_top_level(inner)) groups.push_back(integers_in(g));
    if (groups.empty()) {
      groups.emplace_back(n);
      std::iota(groups[0].begin(), groups[0].end(), 0);
    }
  } else {
    return invalid_error("cannot read replica_groups=" + std::string(text));
  }
  if (auto ok = check_partition(groups, n); !ok) return invalid_error("replica_groups=" + std::string(text) + ": " + ok.error().message);
  return groups;
}

Result<DevicePairs> parse_pairs(std::string_view text, int64_t n) {
  DevicePairs pairs;
  if (text.size() < 2 || text[0] != '{') return invalid_error("cannot read source_target_pairs=" + std::string(text));
  std::set<int64_t> sources, targets;
  for (const auto& p : split_top_level(text.substr(1, text.size() - 2))) {
    const auto v = integers_in(p);
    if (v.size() != 2 || v[0] < 0 || v[1] < 0 || v[0] >= n || v[1] >= n)
      return invalid_error(fmt::format("source_target_pairs: '{}' is not a pair of devices below {}", p, n));
    if (!sources.insert(v[0]).second || !targets.insert(v[1]).second)
      return invalid_error("source_target_pairs: device repeated in '" + p + "'");
    pairs.push_back({v[0], v[1]});
  }
  return pairs;
}

Result<Sharding> parse_sharding(std::string_view text, std::size_t rank, int64_t n) {
  Sharding s;
  std::string t(text);
  if (t.find("replicated") != std::string::npos && t.find("devices=") == std::string::npos) {
    s.tiles.assign(rank, 1);
    s.replicated = n;
    s.reshape = {n};
    s.perm = {0};
    return s;
  }
  if (t.find("manual") != std::string::npos || t.find("maximal") != std::string::npos ||
      t.find("last_tile_dims") != std::string::npos)
    return unsupported_error("sharding " + t + " is not a tiling of the array");
  const auto d = t.find("devices=[");
  if (d == std::string::npos) return invalid_error("cannot read sharding " + t);
  const auto close = t.find(']', d);
  auto tiles = integers_in(std::string_view(t).substr(d + 9, close - d - 9));
  const bool replicate = t.find("last_tile_dim_replicate") != std::string::npos;
  if (tiles.size() != rank + (replicate ? 1 : 0))
    return invalid_error(fmt::format("sharding {} has {} tile dims for an array of rank {}", t, tiles.size(), rank));
  if (product(tiles) != n) return invalid_error(fmt::format("sharding {} does not tile {} devices", t, n));
  if (replicate) {
    s.replicated = tiles.back();
    tiles.pop_back();
  }
  s.tiles = tiles;
  std::string rest = t.substr(close + 1);
  rest = rest.substr(0, rest.find(" last_tile"));
  rest = rest.substr(0, rest.find('}'));
  if (rest.rfind("<=", 0) == 0) {
    auto iota = parse_iota(std::string_view(rest).substr(2), n);
    if (!iota) return invalid_error("sharding " + t + ": " + iota.error().message);
    s.reshape = iota->first;
    s.perm = iota->second;
    return s;
  }
  const auto list = integers_in(rest);
  std::vector<int64_t> identity(n);
  std::iota(identity.begin(), identity.end(), 0);
  if (list != identity)
    return unsupported_error("sharding " + t + " lists devices in an order that is not an iota (device-order changes are not imported)");
  s.reshape = {n};
  s.perm = {0};
  return s;
}

namespace {

/// A factor of the device id: id / stride % size.
struct Digit {
  int64_t stride, size;
};

/// Per tile dim, the device-id digits it is tiled over (major first); or why not.
Result<std::vector<std::vector<Digit>>> tile_digits(const Sharding& s, int64_t n) {
  std::vector<int64_t> strides(s.reshape.size(), 1);
  for (std::size_t i = s.reshape.size(); i-- > 1;) strides[i - 1] = strides[i] * s.reshape[i];
  std::vector<Digit> order;  // transposed dims
  for (auto p : s.perm)
    if (s.reshape[p] > 1) order.push_back({strides[p], s.reshape[p]});
  std::vector<int64_t> dims = s.tiles;
  dims.push_back(s.replicated);
  std::vector<std::vector<Digit>> out;
  std::size_t k = 0;
  for (int64_t need : dims) {
    std::vector<Digit> digits;
    while (need > 1) {
      if (k >= order.size()) return invalid_error("tile dims do not match the device iota");
      Digit& front = order[k];
      if (front.size <= need) {
        if (need % front.size != 0) return unsupported_error("a tile dim splits a device digit unevenly");
        digits.push_back(front);
        need /= front.size;
        ++k;
      } else {
        if (front.size % need != 0) return unsupported_error("a tile dim splits a device digit unevenly");
        const int64_t minor = front.size / need;
        digits.push_back({front.stride * minor, need});
        front.size = minor;
        need = 1;
      }
    }
    out.push_back(std::move(digits));
  }
  (void)n;
  return out;
}

}  // namespace

Result<MeshAndTypes> mesh_and_types(const Sharding& src, const Sharding& dst, ElemType elem,
                                    const std::vector<int64_t>& src_sizes, const std::vector<int64_t>& dst_sizes,
                                    int64_t n) {
  auto sd = tile_digits(src, n);
  if (!sd) return sd.error();
  auto dd = tile_digits(dst, n);
  if (!dd) return dd.error();
  std::set<int64_t> cuts{1, n};
  for (const auto* side : {&*sd, &*dd})
    for (const auto& dim : *side)
      for (const auto& d : dim) {
        cuts.insert(d.stride);
        cuts.insert(d.stride * d.size);
      }
  std::vector<int64_t> sorted(cuts.begin(), cuts.end());
  bool nest = true;
  for (std::size_t i = 1; i < sorted.size(); ++i) nest = nest && sorted[i] % sorted[i - 1] == 0;
  if (!nest) {
    // The digits do not nest (e.g. 6 devices cut as 2 x 3 by one sharding and 3 x 2 by
    // the other): one axis of all devices, each digit a sub-axis of it.
    auto mesh = Mesh::create({{"a", n}});
    if (!mesh) return mesh.error();
    auto make = [&](const std::vector<std::vector<Digit>>& digits, const std::vector<int64_t>& sizes) {
      DistType t;
      t.elem = elem;
      for (std::size_t i = 0; i < sizes.size(); ++i) {
        Dim dim;
        dim.global = sizes[i];
        for (const auto& d : digits[i]) dim.axes.push_back(make_axis_ref("a", n / (d.stride * d.size), d.size, n));
        t.dims.push_back(std::move(dim));
      }
      return t;
    };
    MeshAndTypes out{*mesh, make(*sd, src_sizes), make(*dd, dst_sizes)};
    if (auto ok = validate(out.source, out.mesh); !ok) return ok.error();
    if (auto ok = validate(out.target, out.mesh); !ok) return ok.error();
    return out;
  }
  // Axes most significant first: the one with the largest stride is axis 'a'.
  std::vector<MeshAxis> axes;
  std::vector<int64_t> axis_stride;
  for (std::size_t i = sorted.size() - 1; i-- > 0;) {
    const std::string name = axes.size() < 26 ? std::string(1, static_cast<char>('a' + axes.size()))
                                              : "a" + std::to_string(axes.size());
    axes.push_back({name, sorted[i + 1] / sorted[i]});
    axis_stride.push_back(sorted[i]);
  }
  if (axes.empty()) axes.push_back({"a", 1}), axis_stride.push_back(1);
  auto mesh = Mesh::create(axes);
  if (!mesh) return mesh.error();
  auto make_type = [&](const std::vector<std::vector<Digit>>& digits, const std::vector<int64_t>& sizes) {
    DistType t;
    t.elem = elem;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
      Dim dim;
      dim.global = sizes[i];
      for (const auto& d : digits[i])
        for (std::size_t a = 0; a < axes.size(); ++a)
          if (axis_stride[a] >= d.stride && axis_stride[a] < d.stride * d.size)
            dim.axes.push_back(AxisRef{axes[a].name, 1, axes[a].size, false});
      t.dims.push_back(std::move(dim));
    }
    return t;
  };
  MeshAndTypes out{*mesh, make_type(*sd, src_sizes), make_type(*dd, dst_sizes)};
  if (auto ok = validate(out.source, out.mesh); !ok) return ok.error();
  if (auto ok = validate(out.target, out.mesh); !ok) return ok.error();
  return out;
}

}  // namespace redist::hlo_import
