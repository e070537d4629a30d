#include "axis_checks.hpp"

namespace redist::detail {

std::optional<std::string> axis_ref_problem(const Mesh& mesh, const AxisRef& ref) {
  const auto index = mesh.axis_index(ref.name);
  if (!index) return "unknown axis '" + ref.name + "' (the mesh is " + to_string(mesh) + ")";
  const int64_t n = mesh.axis_size(*index);
  if (!ref.sub) {
    if (ref.pre != 1 || ref.size != n) return "axis '" + ref.name + "' must have size " + std::to_string(n);
    return std::nullopt;
  }
  const std::string text = to_string(ref);
  if (ref.pre < 1 || ref.size < 1) return "sub-axis " + text + " needs positive sizes";
  if (ref.size == 1) return "sub-axis " + text + " has size 1";
  if (ref.pre > n / ref.size || n % (ref.pre * ref.size) != 0)
    return "sub-axis " + text + ": " + std::to_string(ref.pre) + " * " + std::to_string(ref.size) +
           " does not divide the size of axis '" + ref.name + "' (" + std::to_string(n) + ")";
  if (ref.pre == 1 && ref.size == n)
    return "sub-axis " + text + " covers the whole axis; write '" + ref.name + "'";
  return std::nullopt;
}

std::optional<std::string> axis_conflict(const AxisRef& earlier, const AxisRef& ref) {
  if (compatible(earlier, ref)) return std::nullopt;
  if (!earlier.sub && !ref.sub) return "axis '" + ref.name + "' is used twice";
  if (overlaps(earlier, ref))
    return to_string(ref) + " overlaps " + to_string(earlier) + ", already used";
  return to_string(ref) + " and " + to_string(earlier) + " are sub-axes of '" + ref.name +
         "' that do not nest (one's end must divide the other's start)";
}

}  // namespace redist::detail
