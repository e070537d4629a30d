// Parser of the mesh notation `{x:4, y:2}` with an optional ` devices=[...]`.

#include "lexer.hpp"

#include <fmt/format.h>
#include "redist/core/mesh.hpp"

namespace redist {

Result<std::pair<Mesh, std::size_t>> parse_mesh_prefix(std::string_view text) {
  detail::Lexer lex(text);
  if (auto s = lex.expect('{', "to open the mesh"); !s) return s.error();
  std::vector<MeshAxis> axes;
  int64_t count = 1;
  if (!lex.accept('}')) {
    do {
      const std::size_t at = (lex.skip_spaces(), lex.position());
      auto name = lex.identifier("an axis name");
      if (!name) return name.error();
      for (const auto& a : axes)
        if (a.name == *name) return parse_error(at, fmt::format("mesh axis '{}' is declared twice", *name));
      if (auto s = lex.expect(':', fmt::format("after axis name '{}'", *name)); !s) return s.error();
      auto size = lex.positive_integer(fmt::format("the size of axis '{}'", *name));
      if (!size) return size.error();
      if (*size > Mesh::kMaxDevices / count)
        return parse_error(at, fmt::format("mesh has more than 2^40 devices (overflow at axis '{}')", *name));
      count *= *size;
      axes.push_back({std::move(*name), *size});
    } while (lex.accept(','));
    if (auto s = lex.expect('}', "to close the mesh"); !s) return s.error();
  }
  std::vector<int64_t> devices;
  std::vector<std::size_t> device_positions;
  const std::size_t devices_at = (lex.skip_spaces(), lex.position());
  if (lex.accept_word("devices")) {
    if (auto s = lex.expect('=', "after 'devices'"); !s) return s.error();
    if (auto s = lex.expect('[', "to open the device list"); !s) return s.error();
    do {
      device_positions.push_back((lex.skip_spaces(), lex.position()));
      auto d = lex.non_negative_integer("a device id");
      if (!d) return d.error();
      devices.push_back(*d);
    } while (lex.accept(','));
    if (auto s = lex.expect(']', "to close the device list"); !s) return s.error();
  }
  auto mesh = Mesh::create(axes, devices);
  if (!mesh) {
    // Axes were checked above, so the device list is at fault: point at the entry.
    Error e = mesh.error();
    e.position = devices_at;
    for (std::size_t i = 0; i < devices.size(); ++i) {
      const auto id = std::to_string(devices[i]);
      if (e.message.starts_with("device id " + id + " ")) {
        // The second occurrence for duplicates, else the first.
        e.position = device_positions[i];
        if (e.message.find("twice") == std::string::npos) break;
      }
    }
    return e;
  }
  return std::pair{std::move(*mesh), lex.consumed()};
}

Result<Mesh> parse_mesh(std::string_view text) {
  auto parsed = parse_mesh_prefix(text);
  if (!parsed) return parsed.error();
  detail::Lexer rest(text.substr(parsed->second), parsed->second);
  if (!rest.at_end()) return rest.error_here("unexpected text after the mesh, " + rest.found());
  return std::move(parsed->first);
}

}  // namespace redist
