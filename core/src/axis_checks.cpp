#include "axis_checks.hpp"

#include <fmt/format.h>

namespace redist::detail {

std::optional<std::string> axis_ref_problem(const Mesh& mesh, const AxisRef& ref) {
  const auto index = mesh.axis_index(ref.name);
  if (!index) return fmt::format("unknown axis '{}' (the mesh is {})", ref.name, to_string(mesh));
  const int64_t n = mesh.axis_size(*index);
  if (!ref.sub) {
    if (ref.pre != 1 || ref.size != n) return fmt::format("axis '{}' must have size {}", ref.name, n);
    return std::nullopt;
  }
  const auto text = [&] { return to_string(ref); };  // only for a message
  if (ref.pre < 1 || ref.size < 1) return fmt::format("sub-axis {} needs positive sizes", text());
  if (ref.size == 1) return fmt::format("sub-axis {} has size 1", text());
  if (ref.pre > n / ref.size || n % (ref.pre * ref.size) != 0)
    return fmt::format("sub-axis {}: {} * {} does not divide the size of axis '{}' ({})", text(), ref.pre, ref.size,
                       ref.name, n);
  if (ref.pre == 1 && ref.size == n)
    return fmt::format("sub-axis {} covers the whole axis; write '{}'", text(), ref.name);
  return std::nullopt;
}

std::optional<std::string> axis_conflict(const AxisRef& earlier, const AxisRef& ref) {
  if (compatible(earlier, ref)) return std::nullopt;
  if (!earlier.sub && !ref.sub) return fmt::format("axis '{}' is used twice", ref.name);
  if (overlaps(earlier, ref))
    return fmt::format("{} overlaps {}, already used", to_string(ref), to_string(earlier));
  return fmt::format("{} and {} are sub-axes of '{}' that do not nest (one's end must divide the other's start)",
                     to_string(ref), to_string(earlier), ref.name);
}

}  // namespace redist::detail
