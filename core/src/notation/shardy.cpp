// Shardy's sdy dialect in and out (docs/interop.md): `sdy.mesh @m = <["x"=4]>` and
// `#sdy.sharding<@m, [{"x"}, {"y", "z":(1)2}], replicated={"w"}, unreduced={"u"}>`.

#include <cctype>
#include <fmt/format.h>

#include "notation/common.hpp"

namespace redist::notation {

using detail::Cursor;
using detail::str;

namespace {

bool is_identifier(const std::string& s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

// `<["x"=4, "y"=2], device_ids=[...]>` at the cursor.
Result<Mesh> mesh_body(Cursor& cur) {
  const std::size_t start = (cur.skip_spaces(), cur.position());
  if (auto s = cur.expect('<', "to open the mesh"); !s) return s.error();
  if (auto s = cur.expect('[', "to open the mesh axes"); !s) return s.error();
  std::vector<MeshAxis> axes;
  if (!cur.accept(']')) {
    do {
      const std::size_t at = (cur.skip_spaces(), cur.position());
      auto name = cur.quoted("an axis name");
      if (!name) return name.error();
      if (!is_identifier(*name))
        return parse_error(at, str("axis name \"", *name, "\" is not an identifier, which redist's axes must be"));
      for (const auto& a : axes)
        if (a.name == *name) return parse_error(at, str("mesh axis \"", *name, "\" is declared twice"));
      if (auto s = cur.expect('=', "after the axis name"); !s) return s.error();
      auto size = cur.integer("the axis size", 1);
      if (!size) return size.error();
      axes.push_back({*name, *size});
    } while (cur.accept(','));
    if (auto s = cur.expect(']', "to close the mesh axes"); !s) return s.error();
  }
  std::vector<int64_t> ids;
  const std::size_t ids_at = (cur.skip_spaces(), cur.position());
  if (cur.accept(',')) {
    if (auto s = cur.expect("device_ids", "after ','"); !s) return s.error();
    if (auto s = cur.expect('=', "after 'device_ids'"); !s) return s.error();
    auto list = cur.integer_list('[', ']', "device id");
    if (!list) return list.error();
    ids = std::move(*list);
  }
  if (auto s = cur.expect('>', "to close the mesh"); !s) return s.error();
  if (axes.empty() && !ids.empty() && !(ids.size() == 1 && ids[0] == 0))
    return parse_error(start, "a maximal mesh puts the array on one chosen device; redist types spread an array "
                              "over all devices of a mesh, so it has no redist mesh");
  if (axes.empty()) ids.clear();
  bool identity = true;
  for (std::size_t i = 0; i < ids.size(); ++i) identity = identity && ids[i] == static_cast<int64_t>(i);
  if (identity) ids.clear();
  auto mesh = Mesh::create(std::move(axes), std::move(ids));
  if (!mesh) return detail::at(mesh.error(), ids_at);
  if (!mesh->compact())  // Shardy's device_ids are a permutation of 0..N-1
    return parse_error(ids_at, fmt::format("device_ids are not a permutation of 0..{}", mesh->num_devices() - 1));
  return std::move(*mesh);
}

// `"x"` or `"x":(m)k`.
Result<AxisRef> axis_ref(Cursor& cur, const Mesh& mesh) {
  const std::size_t at = (cur.skip_spaces(), cur.position());
  auto name = cur.quoted("an axis name");
  if (!name) return name.error();
  auto whole = detail::whole_axis(mesh, *name, at);
  if (!whole) return whole.error();
  if (!cur.accept(':')) return *whole;
  if (auto s = cur.expect('(', "to open the sub-axis"); !s) return s.error();
  auto pre = cur.integer("the sub-axis pre-size", 1);
  if (!pre) return pre.error();
  if (auto s = cur.expect(')', "after the sub-axis pre-size"); !s) return s.error();
  auto size = cur.integer("the sub-axis size", 1);
  if (!size) return size.error();
  AxisRef ref{*name, *pre, *size, true};
  if (auto s = validate_axis_ref(ref, mesh); !s) return detail::at(s.error(), at);
  return ref;
}

// `{"x", "y":(1)2}` for replicated= / unreduced=.
Result<std::vector<AxisRef>> axis_set(Cursor& cur, const Mesh& mesh) {
  if (auto s = cur.expect('{', "to open the axis set"); !s) return s.error();
  std::vector<AxisRef> out;
  if (cur.accept('}')) return out;
  do {
    auto ref = axis_ref(cur, mesh);
    if (!ref) return ref.error();
    out.push_back(std::move(*ref));
  } while (cur.accept(','));
  if (auto s = cur.expect('}', "to close the axis set"); !s) return s.error();
  return out;
}

std::string quoted(const AxisRef& ref) {
  std::string out = "\"" + ref.name + "\"";
  if (ref.sub) out += str(":(", ref.pre, ")", ref.size);
  return out;
}

std::string axis_list(const std::vector<AxisRef>& axes) {
  std::string out = "{";
  for (std::size_t i = 0; i < axes.size(); ++i) out += (i ? ", " : "") + quoted(axes[i]);
  return out + "}";
}

}  // namespace

Result<SdyMesh> parse_sdy_mesh(std::string_view text) {
  Cursor cur(text);
  SdyMesh out;
  cur.accept("sdy.mesh");
  if (cur.accept('@')) {
    auto name = cur.word("the mesh name");
    if (!name) return name.error();
    out.name = *name;
    if (auto s = cur.expect('=', "after the mesh name"); !s) return s.error();
  }
  cur.accept("#sdy.mesh");
  auto mesh = mesh_body(cur);
  if (!mesh) return mesh.error();
  if (auto s = cur.expect_end("the mesh"); !s) return s.error();
  out.mesh = std::move(*mesh);
  return out;
}

std::string to_sdy_mesh(const Mesh& mesh, std::string_view name) {
  std::string out = str("sdy.mesh @", name, " = <[");
  for (std::size_t i = 0; i < mesh.rank(); ++i)
    out += str(i ? ", " : "", "\"", mesh.axes()[i].name, "\"=", mesh.axis_size(i));
  out += "]";
  if (mesh.has_explicit_order()) {
    out += ", device_ids=[";
    for (std::size_t i = 0; i < mesh.device_order().size(); ++i) out += str(i ? ", " : "", mesh.device_order()[i]);
    out += "]";
  }
  return out + ">";
}

Result<DistType> from_sdy_sharding(std::string_view text, const ArrayShape& shape, const Mesh& mesh) {
  Cursor cur(text);
  const std::size_t start = (cur.skip_spaces(), cur.position());
  cur.accept("#sdy.sharding");
  const bool wrapped = cur.accept('<');
  if (wrapped) {
    const std::size_t ref_at = (cur.skip_spaces(), cur.position());
    if (cur.accept('@')) {
      if (auto name = cur.word("the mesh name"); !name) return name.error();
    } else {
      cur.accept("#sdy.mesh");
      auto inline_mesh = mesh_body(cur);
      if (!inline_mesh) return inline_mesh.error();
      if (!(*inline_mesh == mesh))
        return parse_error(ref_at, str("the inline mesh ", to_string(*inline_mesh), " is not the mesh ",
                                       to_string(mesh), " given for this sharding"));
    }
    if (auto s = cur.expect(',', "after the mesh"); !s) return s.error();
  }
  const std::size_t dims_at = (cur.skip_spaces(), cur.position());
  if (auto s = cur.expect('[', "to open the dimension shardings"); !s) return s.error();
  std::vector<std::vector<AxisRef>> dims;
  if (!cur.accept(']')) {
    do {
      if (auto s = cur.expect('{', "to open a dimension sharding"); !s) return s.error();
      std::vector<AxisRef> axes;
      // An open dim (`?`) may gain axes later in Shardy; it is read as closed.
      if (!cur.accept('}')) {
        do {
          if (cur.accept('?')) break;
          auto ref = axis_ref(cur, mesh);
          if (!ref) return ref.error();
          axes.push_back(std::move(*ref));
        } while (cur.accept(','));
        if (auto s = cur.expect('}', "to close the dimension sharding"); !s) return s.error();
      }
      // A priority (`p0`) orders propagation, not placement.
      if (cur.peek() == 'p') {
        cur.accept('p');
        if (auto p = cur.integer("the priority"); !p) return p.error();
      }
      dims.push_back(std::move(axes));
    } while (cur.accept(','));
    if (auto s = cur.expect(']', "to close the dimension shardings"); !s) return s.error();
  }
  // On a mesh without axes Shardy writes `[]` whatever the rank: the one device holds all.
  if (dims.empty() && mesh.rank() == 0) dims.resize(shape.dims.size());
  if (auto s = detail::check_rank(dims.size(), shape, dims_at, "the sharding"); !s) return s.error();
  std::vector<AxisRef> replicated, unreduced;
  while (cur.accept(',')) {
    const std::size_t at = (cur.skip_spaces(), cur.position());
    std::vector<AxisRef>* into = nullptr;
    if (cur.accept("replicated")) into = &replicated;
    else if (cur.accept("unreduced")) into = &unreduced;
    else return cur.error_here(str("expected 'replicated=' or 'unreduced=', ", cur.found()));
    if (!into->empty()) return parse_error(at, "this axis set is given twice");
    if (auto s = cur.expect('=', "after the axis set's name"); !s) return s.error();
    auto set = axis_set(cur, mesh);
    if (!set) return set.error();
    *into = std::move(*set);
  }
  if (wrapped)
    if (auto s = cur.expect('>', "to close the sharding"); !s) return s.error();
  if (auto s = cur.expect_end("the sharding"); !s) return s.error();
  // Replicated axes must not be used elsewhere: check them as extra reduction axes.
  auto with_replicated = unreduced;
  with_replicated.insert(with_replicated.end(), replicated.begin(), replicated.end());
  if (auto t = detail::build_type(shape, dims, with_replicated, mesh, start); !t) return t.error();
  return detail::build_type(shape, std::move(dims), std::move(unreduced), mesh, start);
}

Result<std::string> to_sdy_sharding(const DistType& type, const Mesh& mesh, std::string_view mesh_name) {
  if (auto s = validate(type, mesh); !s) return s.error();
  if (!type.reduce_axes.empty() && type.reduce_op != ReduceOp::sum)
    return unsupported_error(str("Shardy's unreduced axes are a pending sum; ", to_string(type), " has a pending ",
                                 reduce_op_name(type.reduce_op)));
  std::string out = str("#sdy.sharding<@", mesh_name, ", [");
  for (std::size_t i = 0; i < type.dims.size(); ++i) out += (i ? ", " : "") + axis_list(type.dims[i].axes);
  out += "]";
  if (!type.reduce_axes.empty()) out += ", unreduced=" + axis_list(detail::in_mesh_order(type.reduce_axes, mesh));
  return out + ">";
}

}  // namespace redist::notation
