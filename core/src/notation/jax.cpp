// JAX Mesh and PartitionSpec text in and out (docs/interop.md):
// `Mesh(axis_sizes=(2, 4), axis_names=('x', 'y'))` and `P('x', None, ('y', 'z'))`.

#include "notation/common.hpp"

namespace redist::notation {

using detail::Cursor;
using detail::str;

namespace {

// `('x', 'y')`, `('x',)` or `()`.
Result<std::vector<std::string>> name_tuple(Cursor& cur, char open, char close) {
  if (auto s = cur.expect(open, "to open the axis names"); !s) return s.error();
  std::vector<std::string> out;
  if (cur.accept(close)) return out;
  do {
    if (cur.peek() == close) break;
    auto n = cur.quoted("an axis name");
    if (!n) return n.error();
    out.push_back(std::move(*n));
  } while (cur.accept(','));
  if (auto s = cur.expect(close, "to close the axis names"); !s) return s.error();
  return out;
}

// `'x': 2, 'y': 4` up to `close`.
Result<std::vector<MeshAxis>> name_size_pairs(Cursor& cur, char close) {
  std::vector<MeshAxis> axes;
  while (cur.peek() != close && (cur.peek() == '\'' || cur.peek() == '"' || axes.empty())) {
    auto n = cur.quoted("an axis name");
    if (!n) return n.error();
    if (auto s = cur.expect(':', "after the axis name"); !s) return s.error();
    auto size = cur.integer("the axis size", 1);
    if (!size) return size.error();
    axes.push_back({*n, *size});
    if (!cur.accept(',')) break;
  }
  return axes;
}

std::string py_name(const std::string& name) { return "'" + name + "'"; }

}  // namespace

Result<Mesh> parse_jax_mesh(std::string_view text) {
  Cursor cur(text);
  const std::size_t start = (cur.skip_spaces(), cur.position());
  std::vector<MeshAxis> axes;
  std::vector<int64_t> devices;
  if (cur.accept('{')) {
    auto pairs = name_size_pairs(cur, '}');
    if (!pairs) return pairs.error();
    axes = std::move(*pairs);
    if (auto s = cur.expect('}', "to close the mesh"); !s) return s.error();
  } else {
    if (auto s = cur.expect("Mesh", "(a JAX mesh)"); !s) return s.error();
    if (auto s = cur.expect('(', "after 'Mesh'"); !s) return s.error();
    if (cur.peek() == '\'' || cur.peek() == '"') {
      auto pairs = name_size_pairs(cur, ')');
      if (!pairs) return pairs.error();
      axes = std::move(*pairs);
    }
    std::vector<int64_t> sizes;
    std::vector<std::string> names;
    std::size_t sizes_at = 0;
    bool have_sizes = false, have_names = false;
    while (cur.peek() != ')') {
      const std::size_t at = (cur.skip_spaces(), cur.position());
      auto key = cur.word("a keyword argument");
      if (!key) return key.error();
      if (auto s = cur.expect('=', "after the keyword"); !s) return s.error();
      if (*key == "axis_sizes") {
        sizes_at = at;
        auto v = cur.integer_list('(', ')', "axis size", 1);
        if (!v) return v.error();
        sizes = std::move(*v);
        have_sizes = true;
      } else if (*key == "axis_names") {
        auto v = name_tuple(cur, '(', ')');
        if (!v) return v.error();
        names = std::move(*v);
        have_names = true;
      } else if (*key == "device_ids") {
        auto v = cur.integer_list('[', ']', "device id");
        if (!v) return v.error();
        devices = std::move(*v);
      } else if (*key == "axis_types") {
        if (auto s = cur.skip_group(); !s) return s.error();  // Auto/Explicit/Manual: typing, not placement
      } else {
        return parse_error(at, str("unknown Mesh argument '", *key, "'"));
      }
      if (!cur.accept(',')) break;
    }
    if (have_sizes != have_names)
      return parse_error(start, "a Mesh needs both axis_sizes and axis_names");
    if (have_sizes) {
      if (!axes.empty()) return parse_error(sizes_at, "the axes are given twice");
      if (sizes.size() != names.size())
        return parse_error(sizes_at, str(sizes.size(), " axis sizes but ", names.size(), " axis names"));
      for (std::size_t i = 0; i < sizes.size(); ++i) axes.push_back({names[i], sizes[i]});
    }
    if (auto s = cur.expect(')', "to close the Mesh"); !s) return s.error();
  }
  if (auto s = cur.expect_end("the mesh"); !s) return s.error();
  auto mesh = Mesh::create(std::move(axes), std::move(devices));
  if (!mesh) return detail::at(mesh.error(), start);
  return std::move(*mesh);
}

std::string to_jax_mesh(const Mesh& mesh) {
  std::string sizes, names;
  for (std::size_t i = 0; i < mesh.rank(); ++i) {
    sizes += str(i ? ", " : "", mesh.axis_size(i));
    names += str(i ? ", " : "", py_name(mesh.axes()[i].name));
  }
  if (mesh.rank() == 1) sizes += ",", names += ",";
  std::string out = str("Mesh(axis_sizes=(", sizes, "), axis_names=(", names, ")");
  if (mesh.has_explicit_order()) {
    out += ", device_ids=[";
    for (std::size_t i = 0; i < mesh.device_order().size(); ++i) out += str(i ? ", " : "", mesh.device_order()[i]);
    out += "]";
  }
  return out + ")";
}

Result<DistType> from_partition_spec(std::string_view text, const ArrayShape& shape, const Mesh& mesh) {
  Cursor cur(text);
  const std::size_t start = (cur.skip_spaces(), cur.position());
  if (!cur.accept("PartitionSpec") && !cur.accept("P"))
    return cur.error_here(str("expected 'P(' or 'PartitionSpec(', ", cur.found()));
  if (auto s = cur.expect('(', "to open the PartitionSpec"); !s) return s.error();
  std::vector<std::vector<AxisRef>> dims;
  std::vector<AxisRef> unreduced, reduced;
  bool keywords = false;
  while (cur.peek() != ')') {
    const std::size_t at = (cur.skip_spaces(), cur.position());
    // Keyword arguments: unreduced={...} (a pending sum) and reduced={...} (replicated).
    Cursor probe = cur;
    std::vector<AxisRef>* into = nullptr;
    if (probe.accept("unreduced") && probe.accept('=')) into = &unreduced;
    else if (Cursor p2 = cur; p2.accept("reduced") && p2.accept('=')) into = &reduced, probe = p2;
    if (into) {
      cur = probe;
      keywords = true;
      if (cur.accept("set")) {
        if (auto s = cur.expect('(', "after 'set'"); !s) return s.error();
        if (auto s = cur.expect(')', "(only an empty set())"); !s) return s.error();
      } else {
        if (auto s = cur.expect('{', "to open the axis set"); !s) return s.error();
        while (cur.peek() != '}') {
          const std::size_t n_at = (cur.skip_spaces(), cur.position());
          auto n = cur.quoted("an axis name");
          if (!n) return n.error();
          auto ref = detail::whole_axis(mesh, *n, n_at);
          if (!ref) return ref.error();
          into->push_back(*ref);
          if (!cur.accept(',')) break;
        }
        if (auto s = cur.expect('}', "to close the axis set"); !s) return s.error();
      }
    } else {
      if (keywords) return parse_error(at, "a dimension entry after a keyword argument");
      std::vector<AxisRef> axes;
      if (cur.accept("None")) {
      } else if (cur.accept("UNCONSTRAINED") || cur.accept("P.UNCONSTRAINED") ||
                 cur.accept("PartitionSpec.UNCONSTRAINED")) {
        return parse_error(at, "an UNCONSTRAINED dimension lets the compiler choose; it names no placement");
      } else if (cur.peek() == '(') {
        auto names = name_tuple(cur, '(', ')');
        if (!names) return names.error();
        for (const auto& n : *names) {
          auto ref = detail::whole_axis(mesh, n, at);
          if (!ref) return ref.error();
          axes.push_back(*ref);
        }
      } else {
        const std::size_t n_at = (cur.skip_spaces(), cur.position());
        auto n = cur.quoted("an axis name, a tuple of them, or None");
        if (!n) return n.error();
        auto ref = detail::whole_axis(mesh, *n, n_at);
        if (!ref) return ref.error();
        axes.push_back(*ref);
      }
      if (dims.size() == shape.dims.size())
        return parse_error(at, str("the PartitionSpec has more entries than the array's rank ", shape.dims.size()));
      dims.push_back(std::move(axes));
    }
    if (!cur.accept(',')) break;
  }
  if (auto s = cur.expect(')', "to close the PartitionSpec"); !s) return s.error();
  if (auto s = cur.expect_end("the PartitionSpec"); !s) return s.error();
  // Reduced axes hold equal (replicated) values: check them like reduction axes.
  auto with_reduced = unreduced;
  with_reduced.insert(with_reduced.end(), reduced.begin(), reduced.end());
  if (auto t = detail::build_type(shape, dims, with_reduced, mesh, start); !t) return t.error();
  return detail::build_type(shape, std::move(dims), std::move(unreduced), mesh, start);
}

Result<std::string> to_partition_spec(const DistType& type, const Mesh& mesh) {
  if (auto s = validate(type, mesh); !s) return s.error();
  for (const auto& ref : used_axes(type))
    if (ref.sub)
      return unsupported_error(str("a PartitionSpec names whole mesh axes; ", to_string(type), " uses the sub-axis ",
                                   to_string(ref), " (split the mesh axis to express it)"));
  if (!type.reduce_axes.empty() && type.reduce_op != ReduceOp::sum)
    return unsupported_error(str("JAX's unreduced axes are a pending sum; ", to_string(type), " has a pending ",
                                 reduce_op_name(type.reduce_op)));
  std::string out = "P(";
  for (std::size_t i = 0; i < type.dims.size(); ++i) {
    const auto& axes = type.dims[i].axes;
    out += i ? ", " : "";
    if (axes.empty()) {
      out += "None";
    } else if (axes.size() == 1) {
      out += py_name(axes[0].name);
    } else {
      out += "(";
      for (std::size_t j = 0; j < axes.size(); ++j) out += (j ? ", " : "") + py_name(axes[j].name);
      out += ")";
    }
  }
  if (!type.reduce_axes.empty()) {
    out += type.dims.empty() ? "unreduced={" : ", unreduced={";
    const auto sorted = detail::in_mesh_order(type.reduce_axes, mesh);
    for (std::size_t j = 0; j < sorted.size(); ++j) out += (j ? ", " : "") + py_name(sorted[j].name);
    out += "}";
  }
  return out + ")";
}

}  // namespace redist::notation
