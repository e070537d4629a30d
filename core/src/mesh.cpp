#include "redist/core/mesh.hpp"

#include <algorithm>
#include <cctype>
#include <fmt/format.h>
#include <stdexcept>

namespace redist {
namespace {

bool is_identifier(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  for (char c : s)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

}  // namespace

Mesh::Mesh() {
  static const auto empty = std::make_shared<const Rep>();
  rep_ = empty;
}

Result<Mesh> Mesh::create(std::vector<MeshAxis> axes, std::vector<int64_t> devices) {
  auto rep = std::make_shared<Rep>();
  int64_t count = 1;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const auto& a = axes[i];
    if (!is_identifier(a.name)) return invalid_error(fmt::format("axis name '{}' is not an identifier", a.name));
    for (std::size_t j = 0; j < i; ++j)
      if (axes[j].name == a.name) return invalid_error(fmt::format("mesh axis '{}' is declared twice", a.name));
    if (a.size < 1)
      return invalid_error(fmt::format("mesh axis '{}' has size {}; sizes must be at least 1", a.name, a.size));
    if (a.size > kMaxDevices / count)
      return invalid_error(fmt::format("mesh has more than 2^40 devices (overflow at axis '{}')", a.name));
    count *= a.size;
  }
  rep->axes = std::move(axes);
  rep->num_devices = count;
  if (!devices.empty()) {
    if (static_cast<int64_t>(devices.size()) != count)
      return invalid_error(fmt::format("devices=[...] lists {} devices but the mesh has {}", devices.size(), count));
    std::vector<std::pair<int64_t, int64_t>> sorted;
    sorted.reserve(devices.size());
    bool identity = true, compact = true;
    for (int64_t p = 0; p < count; ++p) {
      const int64_t d = devices[p];
      if (d < 0 || d >= kMaxDevices)
        return invalid_error(fmt::format("device id {} at index {} is outside 0..2^40-1", d, p));
      sorted.emplace_back(d, p);
      identity = identity && d == p;
    }
    std::sort(sorted.begin(), sorted.end());
    for (std::size_t i = 0; i < sorted.size(); ++i) {
      if (i > 0 && sorted[i].first == sorted[i - 1].first)
        return invalid_error(fmt::format("device id {} appears twice in devices=[...]", sorted[i].first));
      compact = compact && sorted[i].first == static_cast<int64_t>(i);
    }
    if (!identity) {
      rep->devices = std::move(devices);
      if (compact) {
        rep->inverse_devices.resize(static_cast<std::size_t>(count));
        for (const auto& [d, p] : sorted) rep->inverse_devices[static_cast<std::size_t>(d)] = p;
      } else {
        rep->sorted_ids = std::move(sorted);
      }
    }
  }
  Mesh mesh;
  mesh.rep_ = std::move(rep);
  return mesh;
}

std::optional<std::size_t> Mesh::axis_index(std::string_view name) const {
  const auto& axes = rep_->axes;
  // Names are short and most differ in their first letter: test that before a compare
  // (every type check looks its axes up here).
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const std::string& n = axes[i].name;
    if (n.size() == name.size() && (name.empty() || n[0] == name[0]) && n == name) return i;
  }
  return std::nullopt;
}

int64_t Mesh::device_at(int64_t position) const {
  return rep_->devices.empty() ? position : rep_->devices[position];
}

int64_t Mesh::position_of(int64_t device) const {
  const auto& sorted = rep_->sorted_ids;
  if (sorted.empty()) {
    if (device < 0 || device >= num_devices())
      throw std::out_of_range(fmt::format("the mesh {} has no device {}", to_string(*this), device));
    return rep_->inverse_devices.empty() ? device : rep_->inverse_devices[static_cast<std::size_t>(device)];
  }
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), std::pair{device, int64_t{0}});
  if (it == sorted.end() || it->first != device)
    throw std::out_of_range(fmt::format("the mesh {} has no device {}", to_string(*this), device));
  return it->second;
}

bool Mesh::has_device(int64_t device) const {
  const auto& sorted = rep_->sorted_ids;
  if (sorted.empty()) return device >= 0 && device < num_devices();
  const auto it = std::lower_bound(sorted.begin(), sorted.end(), std::pair{device, int64_t{0}});
  return it != sorted.end() && it->first == device;
}

bool Mesh::same_devices(const Mesh& other) const {
  if (compact() || other.compact()) return compact() && other.compact() && num_devices() == other.num_devices();
  const auto &mine = rep_->sorted_ids, &theirs = other.rep_->sorted_ids;
  return num_devices() == other.num_devices() &&
         std::equal(mine.begin(), mine.end(), theirs.begin(),
                    [](const auto& a, const auto& b) { return a.first == b.first; });
}

std::vector<int64_t> Mesh::device_ids() const {
  std::vector<int64_t> ids;
  ids.reserve(static_cast<std::size_t>(num_devices()));
  if (compact()) {
    for (int64_t d = 0; d < num_devices(); ++d) ids.push_back(d);
  } else {
    for (const auto& entry : rep_->sorted_ids) ids.push_back(entry.first);
  }
  return ids;
}

Coords Mesh::coords_of_position(int64_t position) const {
  const auto& axes = rep_->axes;
  Coords coords(axes.size());
  for (std::size_t i = axes.size(); i-- > 0;) {
    coords[i] = position % axes[i].size;
    position /= axes[i].size;
  }
  return coords;
}

int64_t Mesh::position_of_coords(std::span<const int64_t> coords) const {
  int64_t position = 0;
  const auto& axes = rep_->axes;
  for (std::size_t i = 0; i < axes.size(); ++i) position = position * axes[i].size + coords[i];
  return position;
}

std::string to_string(const Mesh& mesh) {
  std::string out = "{";
  for (std::size_t i = 0; i < mesh.axes().size(); ++i) {
    if (i) out += ", ";
    out += fmt::format("{}:{}", mesh.axes()[i].name, mesh.axes()[i].size);
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
