// One entry point per direction over the notations (notation.hpp), for the CLI's
// --from/--to and the bindings: arrays are written `<shape> <sharding>`.

#include "notation/cursor.hpp"
#include "redist/core/notation/notation.hpp"

namespace redist::notation {

using detail::str;

namespace {

// The first non-space character and the one after it (after spaces).
std::pair<char, char> lead(std::string_view text) {
  std::size_t i = text.find_first_not_of(" \t\n\r");
  if (i == std::string_view::npos) return {'\0', '\0'};
  std::size_t j = text.find_first_not_of(" \t\n\r", i + 1);
  return {text[i], j == std::string_view::npos ? '\0' : text[j]};
}

Error shifted(Error e, std::size_t by) {
  if (e.position != Error::npos) e.position += by;
  return e;
}

}  // namespace

Result<Notation> parse_notation(std::string_view name) {
  if (name == "redist") return Notation::redist;
  if (name == "hlo") return Notation::hlo;
  if (name == "sdy") return Notation::sdy;
  if (name == "jax") return Notation::jax;
  if (name == "dtensor") return Notation::dtensor;
  return parse_error(0, str("unknown notation '", name, "' (expected redist, hlo, sdy, jax or dtensor)"));
}

std::string_view notation_name(Notation notation) {
  switch (notation) {
    case Notation::redist: return "redist";
    case Notation::hlo: return "hlo";
    case Notation::sdy: return "sdy";
    case Notation::jax: return "jax";
    case Notation::dtensor: return "dtensor";
  }
  return "redist";
}

Result<Mesh> read_mesh(Notation notation, std::string_view text) {
  const auto [first, second] = lead(text);
  const bool redist_mesh = first == '{' && second != '\'' && second != '"';
  if (redist_mesh || notation == Notation::redist || notation == Notation::hlo) return parse_mesh(text);
  switch (notation) {
    case Notation::sdy: {
      auto m = parse_sdy_mesh(text);
      if (!m) return m.error();
      return std::move(m->mesh);
    }
    case Notation::jax: return parse_jax_mesh(text);
    case Notation::dtensor: return parse_device_mesh(text);
    default: return parse_mesh(text);
  }
}

std::string write_mesh(Notation notation, const Mesh& mesh) {
  switch (notation) {
    case Notation::sdy: return to_sdy_mesh(mesh);
    case Notation::jax: return to_jax_mesh(mesh);
    case Notation::dtensor: return to_device_mesh(mesh);
    default: return to_string(mesh);
  }
}

Result<MeshType> read_type(Notation notation, std::string_view text, const Mesh* mesh) {
  if (notation == Notation::redist) {
    if (!mesh) return invalid_error("a redist type needs a mesh");
    auto t = parse_type(text, *mesh);
    if (!t) return t.error();
    return MeshType{*mesh, std::move(*t)};
  }
  auto shape = parse_array_shape_prefix(text);
  if (!shape) return shape.error();
  const std::size_t at = shape->consumed;
  const std::string_view rest = text.substr(at);
  if (notation == Notation::hlo) {
    HloShardingOptions options;
    options.mesh = mesh;
    auto r = from_hlo_sharding(rest, shape->value, options);
    if (!r) return shifted(r.error(), at);
    return std::move(*r);
  }
  if (!mesh) return invalid_error(str("a ", notation_name(notation), " sharding needs a mesh"));
  Result<DistType> t = notation == Notation::sdy   ? from_sdy_sharding(rest, shape->value, *mesh)
                       : notation == Notation::jax ? from_partition_spec(rest, shape->value, *mesh)
                                                   : from_placements(rest, shape->value, *mesh);
  if (!t) return shifted(t.error(), at);
  return MeshType{*mesh, std::move(*t)};
}

Result<std::string> write_type(Notation notation, const DistType& type, const Mesh& mesh) {
  Result<std::string> s = std::string();
  switch (notation) {
    case Notation::redist: return to_string(type);
    case Notation::hlo: s = to_hlo_sharding(type, mesh); break;
    case Notation::sdy: s = to_sdy_sharding(type, mesh); break;
    case Notation::jax: s = to_partition_spec(type, mesh); break;
    case Notation::dtensor: s = to_placements(type, mesh); break;
  }
  if (!s) return s.error();
  return to_string(shape_of(type)) + " " + *s;
}

}  // namespace redist::notation
