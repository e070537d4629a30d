#include "redist/core/mesh.hpp"

#include <cctype>

namespace redist {
namespace {

bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

}  // namespace

Result<Mesh> Mesh::create(std::vector<MeshAxis> axes, std::vector<int64_t> devices) {
  Mesh mesh;
  int64_t count = 1;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const auto& a = axes[i];
    if (!is_identifier(a.name)) return invalid_error("axis name '" + a.name + "' is not an identifier");
    for (std::size_t j = 0; j < i; ++j)
      if (axes[j].name == a.name) return invalid_error("mesh axis '" + a.name + "' is declared twice");
    if (a.size < 1) return invalid_error("mesh axis '" + a.name + "' has size " + std::to_string(a.size) + "; sizes must be at least 1");
    if (a.size > kMaxDevices / count)
      return invalid_error("mesh has more than 2^40 devices (overflow at axis '" + a.name + "')");
    count *= a.size;
  }
  mesh.axes_ = std::move(axes);
  mesh.num_devices_ = count;
  if (!devices.empty()) {
    if (static_cast<int64_t>(devices.size()) != count)
      return invalid_error("devices=[...] lists " + std::to_string(devices.size()) + " devices but the mesh has " + std::to_string(count));
    std::vector<int64_t> inverse(count, -1);
    bool identity = true;
    for (int64_t p = 0; p < count; ++p) {
      const int64_t d = devices[p];
      if (d < 0 || d >= count)
        return invalid_error("device id " + std::to_string(d) + " at index " + std::to_string(p) + " is outside 0.." + std::to_string(count - 1));
      if (inverse[d] != -1)
        return invalid_error("device id " + std::to_string(d) + " appears twice in devices=[...]");
      inverse[d] = p;
      identity = identity && d == p;
    }
    if (!identity) {
      mesh.devices_ = std::move(devices);
      mesh.inverse_devices_ = std::move(inverse);
    }
  }
  return mesh;
}

std::optional<std::size_t> Mesh::axis_index(std::string_view name) const {
  for (std::size_t i = 0; i < axes_.size(); ++i)
    if (axes_[i].name == name) return i;
  return std::nullopt;
}

int64_t Mesh::device_at(int64_t position) const {
  return devices_.empty() ? position : devices_[position];
}

int64_t Mesh::position_of(int64_t device) const {
  return inverse_devices_.empty() ? device : inverse_devices_[device];
}

Coords Mesh::coords_of_position(int64_t position) const {
  Coords coords(axes_.size());
  for (std::size_t i = axes_.size(); i-- > 0;) {
    coords[i] = position % axes_[i].size;
    position /= axes_[i].size;
  }
  return coords;
}

int64_t Mesh::position_of_coords(std::span<const int64_t> coords) const {
  int64_t position = 0;
  for (std::size_t i = 0; i < axes_.size(); ++i) position = position * axes_[i].size + coords[i];
  return position;
}

std::string to_string(const Mesh& mesh) {
  std::string out = "{";
  for (std::size_t i = 0; i < mesh.axes().size(); ++i) {
    if (i) out += ", ";
    out += mesh.axes()[i].name + ":" + std::to_string(mesh.axes()[i].size);
  }
  out += "}";
  if (mesh.has_explicit_order()) {
    out += " devices=[";
    for (std::size_t i = 0; i < mesh.device_order().size(); ++i) {
      if (i) out += ",";
      out += std::to_string(mesh.device_order()[i]);
    }
    out += "]";
  }
  return out;
}

}  // namespace redist
