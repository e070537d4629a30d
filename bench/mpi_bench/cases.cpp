// Reading the anchors and growing them into benchmark cases.

#include "cases.hpp"

#include <algorithm>
#include <fmt/format.h>
#include <fstream>
#include <sstream>

#include "redist/core/bigint.hpp"
#include "redist/proofs/anchors.hpp"

namespace redist::mpi::bench {

namespace {

/// `mesh` with an extra minor-most axis `rep` of size `factor`, keeping each original
/// position's device order (device d becomes devices d*factor .. d*factor+factor-1).
Result<Mesh> with_replicas(const Mesh& mesh, int64_t factor) {
  if (factor == 1) return mesh;
  auto axes = mesh.axes();
  axes.push_back({"rep", factor});
  std::vector<int64_t> order;
  if (mesh.has_explicit_order())
    for (int64_t p = 0; p < mesh.num_devices(); ++p)
      for (int64_t r = 0; r < factor; ++r) order.push_back(mesh.device_at(p) * factor + r);
  return Mesh::create(std::move(axes), std::move(order));
}

/// The dims of `source` -> `target` that may grow: all of them for a divisible pair;
/// with padding only those both tilings divide, so the padding stays as it is.
std::vector<bool> growable(const DistType& source, const DistType& target) {
  const bool padded = has_padding(source) || has_padding(target);
  std::vector<bool> out;
  for (std::size_t d = 0; d < source.rank(); ++d)
    out.push_back(!padded || (source.dims[d].global % tile_count(source.dims[d]) == 0 &&
                              source.dims[d].global % tile_count(target.dims[d]) == 0));
  return out;
}

/// The smallest k >= 1 with the elements of `type`, its growable dims times k, times
/// the element bytes >= min_bytes.
int64_t growth(const DistType& type, const std::vector<bool>& grows, int64_t min_bytes) {
  int64_t k = 1;
  for (;; ++k) {
    BigInt bytes = elem_bytes(type.elem);
    for (std::size_t d = 0; d < type.rank(); ++d) bytes *= type.dims[d].global * (grows[d] ? k : 1);
    if (bytes >= min_bytes) return k;
  }
}

/// `type` with the global size of every growable dim multiplied by `k`.
DistType grown(DistType type, const std::vector<bool>& grows, int64_t k) {
  for (std::size_t d = 0; d < type.rank(); ++d)
    if (grows[d]) type.dims[d].global *= k;
  return type;
}

/// The benchmark case grown from `anchor`, or why it is skipped.
Result<BenchCase> grow_case(const Anchor& anchor, int64_t devices, int64_t min_bytes) {
  const Mesh& mesh = anchor.mesh;
  const DistType& source = anchor.source;
  const DistType& target = anchor.target;
  if (devices % mesh.num_devices() != 0)
    return unsupported_error(fmt::format("{} devices do not divide {}", mesh.num_devices(), devices));
  if (elem_bytes(source.elem) != 4) return unsupported_error("elements are not 4 bytes");
  const std::vector<bool> grows = growable(source, target);
  if (std::find(grows.begin(), grows.end(), true) == grows.end())
    return unsupported_error("every dim is non-divisible: growing it would change its padding");
  for (const auto& r : target.reduce_axes)
    if (std::find(source.reduce_axes.begin(), source.reduce_axes.end(), r) == source.reduce_axes.end())
      return unsupported_error("the target adds a pending reduction (add_pending, local: no baseline to compare)");
  if (!source.reduce_axes.empty() && source.reduce_axes.size() == target.reduce_axes.size())
    return unsupported_error("no pending reduction is done (no all-reduce baseline)");
  const int64_t factor = devices / mesh.num_devices();
  auto big_mesh = with_replicas(mesh, factor);
  if (!big_mesh) return big_mesh.error();
  auto big_target_mesh = with_replicas(anchor.target_mesh, factor);
  if (!big_target_mesh) return big_target_mesh.error();
  const int64_t k = growth(source, grows, min_bytes);
  std::string note = fmt::format("sizes x{}", k);
  if (std::find(grows.begin(), grows.end(), false) != grows.end()) note += " (divisible dims only)";
  if (factor > 1) note += fmt::format(", replicated over rep:{}", factor);
  return BenchCase{anchor.name, *big_mesh, grown(source, grows, k), *big_target_mesh, grown(target, grows, k), note};
}

}  // namespace

Result<std::vector<BenchCase>> bench_cases(const std::string& path, int64_t devices, int64_t min_bytes,
                                           std::vector<std::string>& skipped) {
  std::ifstream in(path);
  if (!in) return invalid_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  auto anchors = parse_anchors(text.str());
  if (!anchors) return anchors.error();
  std::vector<BenchCase> cases;
  for (const auto& anchor : *anchors) {
    auto c = grow_case(anchor, devices, min_bytes);
    if (c) cases.push_back(std::move(*c));
    else skipped.push_back(anchor.name + ": " + c.error().message);
  }
  return cases;
}

}  // namespace redist::mpi::bench
