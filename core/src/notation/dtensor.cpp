// PyTorch DTensor placements in and out (docs/interop.md): a DeviceMesh and one
// placement per mesh dim, `[Shard(0), Replicate(), Partial(sum)]`.
//
// Order of several mesh dims sharding one tensor dim: DTensor applies placements in
// mesh-dim order, each splitting the chunk the previous ones left, so mesh dim 0 is the
// major axis. `_StridedShard(d, sf=k)` on mesh dim i means mesh dim i splits the dim
// after later mesh dims of total size k did (it sits minor to them); `shard_order=`
// lists, per tensor dim, its mesh dims major to minor. Uneven dims follow torch.chunk
// (no padding, nested chunking), which places elements like redist's padded layout
// only in some cases: we compare the two and refuse where they differ.

#include <algorithm>
#include <functional>
#include <optional>

#include "notation/common.hpp"

namespace redist::notation {

using detail::Cursor;
using detail::str;

namespace {

// A half-open range of global indices; empty ranges compare equal.
struct Range {
  int64_t begin, end;
  bool same(const Range& o) const { return (begin >= end && o.begin >= o.end) || (begin == o.begin && end == o.end); }
};

// At most this many blocks are compared between torch.chunk and the padded layout.
constexpr int64_t kMaxComparedBlocks = int64_t{1} << 22;

// Why torch.chunk applied once per axis (major first) does not give every block the
// same elements as redist's flat padded layout ceil(global / tiles); empty when it does.
std::string chunking_mismatch(int64_t global, const std::vector<int64_t>& sizes) {
  int64_t tiles = 1;
  for (int64_t s : sizes) tiles *= s;
  if (tiles <= 1 || global % tiles == 0 || sizes.size() == 1) return "";  // one torch.chunk is the padded layout
  const std::string where = str(global, " over ", tiles, " shards");
  if (tiles > kMaxComparedBlocks)
    return where + ": too many shards to compare DTensor's nested torch.chunk with redist's padded layout";
  const int64_t local = (global + tiles - 1) / tiles;
  bool ok = true;
  int64_t block = 0;
  std::function<void(Range, std::size_t)> walk = [&](Range r, std::size_t level) {
    if (!ok) return;
    if (level == sizes.size()) {
      const Range flat{std::min(block * local, global), std::min((block + 1) * local, global)};
      ok = r.same(flat);
      ++block;
      return;
    }
    const int64_t len = std::max<int64_t>(0, r.end - r.begin);
    const int64_t chunk = (len + sizes[level] - 1) / sizes[level];
    for (int64_t j = 0; j < sizes[level]; ++j) {
      const int64_t b = std::min(r.begin + j * chunk, r.begin + len);
      walk({b, std::min(b + chunk, r.begin + len)}, level + 1);
    }
  };
  walk({0, global}, 0);
  return ok ? "" : where + ": DTensor's nested torch.chunk places elements differently from redist's padded layout";
}

struct Placement {
  enum Kind { shard, strided, replicate, partial } kind = replicate;
  int64_t dim = 0;
  int64_t split_factor = 1;
  ReduceOp op = ReduceOp::sum;
  std::size_t position = 0;
};

// `dim=0` or `0`.
Result<int64_t> int_arg(Cursor& cur, std::string_view key, std::string_view what) {
  Cursor probe = cur;
  if (probe.accept(key) && probe.accept('=')) cur = probe;
  return cur.integer(what);
}

Result<Placement> placement(Cursor& cur) {
  Placement p;
  p.position = (cur.skip_spaces(), cur.position());
  auto name = cur.word("a placement (Shard, Replicate, Partial, _StridedShard)");
  if (!name) return name.error();
  const bool call = cur.accept('(');
  if (*name == "Shard" || *name == "S") {
    if (!call) return cur.error_here("expected '(' after Shard");
    auto d = int_arg(cur, "dim", "the tensor dim");
    if (!d) return d.error();
    p.kind = Placement::shard;
    p.dim = *d;
  } else if (*name == "_StridedShard" || *name == "_S") {
    if (!call) return cur.error_here("expected '(' after _StridedShard");
    auto d = int_arg(cur, "dim", "the tensor dim");
    if (!d) return d.error();
    if (auto s = cur.expect(',', "before the split factor"); !s) return s.error();
    Cursor probe = cur;
    if ((probe.accept("sf") || probe.accept("split_factor")) && probe.accept('=')) cur = probe;
    auto sf = cur.integer("the split factor", 1);
    if (!sf) return sf.error();
    p.kind = Placement::strided;
    p.dim = *d;
    p.split_factor = *sf;
  } else if (*name == "Replicate" || *name == "R") {
    p.kind = Placement::replicate;
  } else if (*name == "Partial" || *name == "P") {
    p.kind = Placement::partial;
    if (call && cur.peek() != ')') {
      Cursor probe = cur;
      if (probe.accept("reduce_op") && probe.accept('=')) cur = probe;
      const std::size_t at = (cur.skip_spaces(), cur.position());
      auto op = (cur.peek() == '\'' || cur.peek() == '"') ? cur.quoted("a reduce op") : cur.word("a reduce op");
      if (!op) return op.error();
      if (*op == "sum") p.op = ReduceOp::sum;
      else if (*op == "max") p.op = ReduceOp::max;
      else if (*op == "min") p.op = ReduceOp::min;
      else if (*op == "avg")
        return parse_error(at, "Partial(avg) is a pending mean; redist's pending reductions are sum, max and min");
      else return parse_error(at, str("unknown reduce op '", *op, "' (expected sum, max or min)"));
    }
  } else {
    return parse_error(p.position, str("unknown placement '", *name, "'"));
  }
  if (call)
    if (auto s = cur.expect(')', "to close the placement"); !s) return s.error();
  return p;
}

}  // namespace

Result<Mesh> parse_device_mesh(std::string_view text) {
  Cursor cur(text);
  const std::size_t start = (cur.skip_spaces(), cur.position());
  if (cur.peek() == '{') return parse_mesh(text);
  std::vector<int64_t> shape, devices;
  std::vector<std::string> names;
  if (cur.accept("init_device_mesh")) {
    // init_device_mesh("cpu", (2, 4), mesh_dim_names=("dp", "tp")): row-major devices.
    if (auto s = cur.expect('(', "after init_device_mesh"); !s) return s.error();
    if (auto t = cur.quoted("the device type"); !t) return t.error();
    if (auto s = cur.expect(',', "after the device type"); !s) return s.error();
    auto v = cur.integer_list('(', ')', "mesh dim size", 1);
    if (!v) return v.error();
    shape = std::move(*v);
  } else {
    if (auto s = cur.expect("DeviceMesh", "(a DeviceMesh, init_device_mesh or a redist mesh)"); !s) return s.error();
    if (auto s = cur.expect('(', "after DeviceMesh"); !s) return s.error();
    if (cur.peek() == '\'' || cur.peek() == '"') {
      if (auto t = cur.quoted("the device type"); !t) return t.error();
      if (auto s = cur.expect(',', "after the device type"); !s) return s.error();
    }
    // A nested list of device ids: its nesting gives the shape.
    const std::size_t list_at = (cur.skip_spaces(), cur.position());
    if (cur.peek() != '[') return cur.error_here("expected a nested list of device ids, " + cur.found());
    // The shape is known once the first innermost list closes; collect it bottom up.
    std::vector<int64_t> dims;
    {
      Cursor probe = cur;
      while (probe.accept('[')) dims.push_back(0);
    }
    // Parse with the depth of the first element chain; every list at a depth must match.
    std::function<Status(std::size_t)> list = [&](std::size_t depth) -> Status {
      if (depth == dims.size()) {
        auto d = cur.integer("a device id");
        if (!d) return d.error();
        devices.push_back(*d);
        return Ok{};
      }
      if (auto s = cur.expect('[', "(the device list is ragged)"); !s) return s;
      int64_t count = 0;
      do {
        if (auto s = list(depth + 1); !s) return s;
        ++count;
      } while (cur.accept(','));
      if (auto s = cur.expect(']', "to close the device list"); !s) return s;
      if (dims[depth] == 0) dims[depth] = count;
      else if (dims[depth] != count) return parse_error(list_at, "the device list is ragged");
      return Ok{};
    };
    if (auto s = list(0); !s) return s.error();
    shape = dims;
  }
  while (cur.accept(',')) {
    const std::size_t at = (cur.skip_spaces(), cur.position());
    auto key = cur.word("a keyword argument");
    if (!key) return key.error();
    if (auto s = cur.expect('=', "after the keyword"); !s) return s.error();
    if (*key != "mesh_dim_names") return parse_error(at, str("unknown DeviceMesh argument '", *key, "'"));
    if (auto s = cur.expect('(', "to open the mesh dim names"); !s) return s.error();
    while (cur.peek() != ')') {
      auto n = cur.quoted("a mesh dim name");
      if (!n) return n.error();
      names.push_back(*n);
      if (!cur.accept(',')) break;
    }
    if (auto s = cur.expect(')', "to close the mesh dim names"); !s) return s.error();
  }
  if (auto s = cur.expect(')', "to close the mesh"); !s) return s.error();
  if (auto s = cur.expect_end("the mesh"); !s) return s.error();
  if (!names.empty() && names.size() != shape.size())
    return parse_error(start, str(shape.size(), " mesh dims but ", names.size(), " names"));
  std::vector<MeshAxis> axes;
  for (std::size_t i = 0; i < shape.size(); ++i) axes.push_back({names.empty() ? str("dim", i) : names[i], shape[i]});
  auto mesh = Mesh::create(std::move(axes), std::move(devices));
  if (!mesh) return detail::at(mesh.error(), start);
  return std::move(*mesh);
}

std::string to_device_mesh(const Mesh& mesh) {
  std::string names;
  for (std::size_t i = 0; i < mesh.rank(); ++i) names += str(i ? ", " : "", "'", mesh.axes()[i].name, "'");
  if (mesh.rank() == 1) names += ",";
  if (!mesh.has_explicit_order()) {
    std::string shape;
    for (std::size_t i = 0; i < mesh.rank(); ++i) shape += str(i ? ", " : "", mesh.axis_size(i));
    if (mesh.rank() == 1) shape += ",";
    return str("init_device_mesh('cpu', (", shape, "), mesh_dim_names=(", names, "))");
  }
  // Nested lists of the device at each position, row-major.
  std::string list;
  std::vector<int64_t> idx(mesh.rank(), 0);
  std::function<void(std::size_t, int64_t)> emit = [&](std::size_t depth, int64_t base) {
    if (depth == mesh.rank()) {
      list += std::to_string(mesh.device_at(base));
      return;
    }
    list += '[';
    for (int64_t i = 0; i < mesh.axis_size(depth); ++i) {
      if (i) list += ", ";
      emit(depth + 1, base * mesh.axis_size(depth) + i);
    }
    list += ']';
  };
  emit(0, 0);
  return str("DeviceMesh('cpu', ", list, ", mesh_dim_names=(", names, "))");
}

Result<DistType> from_placements(std::string_view text, const ArrayShape& shape, const Mesh& mesh) {
  Cursor cur(text);
  const std::size_t start = (cur.skip_spaces(), cur.position());
  const char open = cur.peek();
  const char close = open == '[' ? ']' : open == '(' ? ')' : '\0';
  if (!close) return cur.error_here("expected '[' or '(' to open the placements, " + cur.found());
  cur.accept(open);
  std::vector<Placement> ps;
  while (cur.peek() != close) {
    auto p = placement(cur);
    if (!p) return p.error();
    ps.push_back(*p);
    if (!cur.accept(',')) break;
  }
  if (auto s = cur.expect(close, "to close the placements"); !s) return s.error();
  if (ps.size() != mesh.rank())
    return parse_error(start, str(ps.size(), " placements for a mesh of ", mesh.rank(),
                                  " dims: DTensor gives one placement per mesh dim"));
  // Optional shard_order={tensor_dim: [mesh dims major to minor], ...}.
  std::vector<std::vector<std::size_t>> order(shape.dims.size());
  std::vector<bool> ordered(shape.dims.size(), false);
  const std::size_t order_at = (cur.skip_spaces(), cur.position());
  if (cur.accept("shard_order")) {
    if (auto s = cur.expect('=', "after 'shard_order'"); !s) return s.error();
    if (auto s = cur.expect('{', "to open the shard order"); !s) return s.error();
    while (cur.peek() != '}') {
      const std::size_t at = (cur.skip_spaces(), cur.position());
      auto d = cur.integer("a tensor dim");
      if (!d) return d.error();
      if (*d >= static_cast<int64_t>(shape.dims.size()) || ordered[static_cast<std::size_t>(*d)])
        return parse_error(at, str("tensor dim ", *d, " is out of range or ordered twice"));
      if (auto s = cur.expect(':', "after the tensor dim"); !s) return s.error();
      auto dims = cur.integer_list('[', ']', "mesh dim");
      if (!dims) return dims.error();
      for (int64_t m : *dims) {
        if (m >= static_cast<int64_t>(mesh.rank()) || ps[static_cast<std::size_t>(m)].kind != Placement::shard ||
            ps[static_cast<std::size_t>(m)].dim != *d)
          return parse_error(at, str("mesh dim ", m, " does not Shard(", *d, ")"));
        order[static_cast<std::size_t>(*d)].push_back(static_cast<std::size_t>(m));
      }
      ordered[static_cast<std::size_t>(*d)] = true;
      if (!cur.accept(',')) break;
    }
    if (auto s = cur.expect('}', "to close the shard order"); !s) return s.error();
  }
  if (auto s = cur.expect_end("the placements"); !s) return s.error();
  std::vector<std::vector<AxisRef>> dims(shape.dims.size());
  std::vector<AxisRef> partial;
  std::optional<ReduceOp> op;
  std::vector<bool> strided_dim(shape.dims.size(), false);
  // Walk mesh dims from last to first: the axes already placed in a dim come from later
  // mesh dims; Shard goes in front of them, _StridedShard(sf) after a prefix of size sf.
  for (std::size_t i = mesh.rank(); i-- > 0;) {
    const Placement& p = ps[i];
    const AxisRef axis{mesh.axes()[i].name, 1, mesh.axis_size(i), false};
    if (p.kind == Placement::replicate) continue;
    if (p.kind == Placement::partial) {
      if (op && *op != p.op)
        return parse_error(p.position, "Partial placements with different reduce ops: redist's pending reduction "
                                       "has one op");
      op = p.op;
      partial.insert(partial.begin(), axis);
      continue;
    }
    if (p.dim >= static_cast<int64_t>(shape.dims.size()))
      return parse_error(p.position, str("Shard(", p.dim, ") of an array of rank ", shape.dims.size()));
    const auto d = static_cast<std::size_t>(p.dim);
    auto& list = dims[d];
    if (ordered[d]) continue;  // placed below from the shard order
    if (p.kind == Placement::shard) {
      list.insert(list.begin(), axis);
      continue;
    }
    strided_dim[d] = true;
    int64_t prefix = 1;
    std::size_t k = 0;
    while (k < list.size() && prefix < p.split_factor) prefix *= list[k++].size;
    if (prefix != p.split_factor)
      return parse_error(p.position, str("_StridedShard(", p.dim, ", sf=", p.split_factor, ") on mesh dim ", i,
                                         ": no later mesh dims sharding dim ", p.dim, " have that total size"));
    list.insert(list.begin() + static_cast<std::ptrdiff_t>(k), axis);
  }
  for (std::size_t d = 0; d < shape.dims.size(); ++d) {
    if (!ordered[d]) continue;
    for (std::size_t i = 0; i < mesh.rank(); ++i)
      if (ps[i].kind == Placement::strided && ps[i].dim == static_cast<int64_t>(d))
        return parse_error(order_at, "give a dim's order by shard_order or by _StridedShard, not both");
    std::size_t count = 0;
    for (std::size_t i = 0; i < mesh.rank(); ++i)
      count += ps[i].kind == Placement::shard && ps[i].dim == static_cast<int64_t>(d);
    if (count != order[d].size())
      return parse_error(order_at, str("the shard order of dim ", d, " must list every mesh dim that shards it"));
    for (std::size_t m : order[d]) dims[d].push_back({mesh.axes()[m].name, 1, mesh.axis_size(m), false});
  }
  for (std::size_t d = 0; d < shape.dims.size(); ++d) {
    std::vector<int64_t> sizes;
    for (const auto& a : dims[d]) sizes.push_back(a.size);
    if (strided_dim[d] && shape.dims[d] % std::max<int64_t>(1, product_of_sizes(dims[d])) != 0)
      return parse_error(start, str("_StridedShard of the uneven dim ", d, " (", shape.dims[d], " over ",
                                    product_of_sizes(dims[d]), " shards) has no padded redist layout"));
    if (auto why = chunking_mismatch(shape.dims[d], sizes); !why.empty())
      return parse_error(start, str("dim ", d, " (", why, ")"));
  }
  auto type = detail::build_type(shape, std::move(dims), std::move(partial), mesh, start);
  if (!type) return type.error();
  type->reduce_op = op.value_or(ReduceOp::sum);
  return type;
}

Result<std::string> to_placements(const DistType& type, const Mesh& mesh) {
  if (auto s = validate(type, mesh); !s) return s.error();
  for (const auto& ref : used_axes(type))
    if (ref.sub)
      return unsupported_error(str("DTensor placements name whole mesh dims; ", to_string(type), " uses the sub-axis ",
                                   to_string(ref)));
  std::vector<std::string> out(mesh.rank(), "Replicate()");
  for (std::size_t d = 0; d < type.dims.size(); ++d) {
    const auto& axes = type.dims[d].axes;
    std::vector<int64_t> sizes;
    bool in_order = true;
    for (std::size_t j = 0; j < axes.size(); ++j) {
      sizes.push_back(axes[j].size);
      if (j && *mesh.axis_index(axes[j].name) < *mesh.axis_index(axes[j - 1].name)) in_order = false;
    }
    if (!in_order && type.dims[d].global % std::max<int64_t>(1, tile_count(type.dims[d])) != 0)
      return unsupported_error(str("dim ", d, " of ", to_string(type), " needs _StridedShard on an uneven dim, which "
                                   "does not match redist's padded layout"));
    if (auto why = chunking_mismatch(type.dims[d].global, sizes); !why.empty())
      return unsupported_error(str("dim ", d, " of ", to_string(type), " (", why, ")"));
    for (std::size_t j = 0; j < axes.size(); ++j) {
      const std::size_t i = *mesh.axis_index(axes[j].name);
      // The axes major to this one that come from later mesh dims: its split factor.
      int64_t sf = 1;
      for (std::size_t k = 0; k < j; ++k)
        if (*mesh.axis_index(axes[k].name) > i) sf *= axes[k].size;
      out[i] = sf == 1 ? str("Shard(dim=", d, ")") : str("_StridedShard(dim=", d, ", sf=", sf, ")");
    }
  }
  for (const auto& ref : type.reduce_axes) out[*mesh.axis_index(ref.name)] = str("Partial(", reduce_op_name(type.reduce_op), ")");
  std::string text = "[";
  for (std::size_t i = 0; i < out.size(); ++i) text += (i ? ", " : "") + out[i];
  return text + "]";
}

}  // namespace redist::notation
