#include "same_blocks.hpp"

#include <algorithm>

#include "in_place.hpp"

namespace redist::synth_detail {

namespace {

/// Per factor of one dim: the position stride of its axis, the axis's size below the
/// factor, and the factor's size; block_at() reads a device's block from them.
struct FactorPlace {
  int64_t stride = 1;
  int64_t axis_size = 1;
  int64_t minor = 1;
  int64_t size = 1;
};

/// Returns the places of each dim's factors (`dims`) on `mesh`.
std::vector<std::vector<FactorPlace>> places_of(const Mesh& mesh, std::span<const Factors> dims) {
  std::vector<int64_t> strides(mesh.rank(), 1);  // positions between neighbours along an axis
  for (std::size_t a = mesh.rank(); a-- > 1;) strides[a - 1] = strides[a] * mesh.axis_size(a);
  std::vector<std::vector<FactorPlace>> out;
  for (const auto& dim : dims) {
    auto& places = out.emplace_back();
    for (const auto& f : dim) {
      const auto a = static_cast<std::size_t>(f.axis);
      places.push_back({strides[a], mesh.axis_size(a), mesh.axis_size(a) / f.end(), f.size});
    }
  }
  return out;
}

/// Returns the block index along one dim (its factors' `places`, major first) of the
/// device at row-major `position`.
int64_t block_at(int64_t position, const std::vector<FactorPlace>& places) {
  int64_t block = 0;
  for (const auto& f : places) block = block * f.size + position / f.stride % f.axis_size / f.minor % f.size;
  return block;
}

/// Returns, for each digit of `b`'s positions, the digit of `a`'s positions that it
/// is (same radix: device b.device_at(q) sits at a's position whose digit perm[j] is
/// q's digit j), or nullopt when the order change permutes no digits so.
std::optional<std::vector<std::size_t>> digit_permutation(const Mesh& a, const std::vector<Digit>& a_digits,
                                                          const Mesh& b, const std::vector<Digit>& b_digits) {
  if (a.position_of(b.device_at(0)) != 0) return std::nullopt;
  std::vector<std::size_t> perm;
  for (const auto& d : b_digits) {
    const int64_t p = a.position_of(b.device_at(d.stride));
    auto it = std::find_if(a_digits.begin(), a_digits.end(), [&](const Digit& x) { return x.stride == p; });
    if (it == a_digits.end() || it->radix != d.radix) return std::nullopt;
    perm.push_back(static_cast<std::size_t>(it - a_digits.begin()));
  }
  for (int64_t q = 0; q < b.num_devices(); ++q) {
    int64_t p = 0;
    for (std::size_t j = 0; j < b_digits.size(); ++j)
      p += q / b_digits[j].stride % b_digits[j].radix * a_digits[perm[j]].stride;
    if (a.position_of(b.device_at(q)) != p) return std::nullopt;
  }
  return perm;
}

/// Returns `factors` on `a`'s digits carried to `b`'s through `perm` (b's digit j is
/// a's digit perm[j]), consecutive digits of one axis of `b` merged; nullopt when a
/// factor does not start and end on digit boundaries.
std::optional<Factors> carried(const Factors& factors, const std::vector<Digit>& a_digits,
                               const std::vector<Digit>& b_digits, const std::vector<std::size_t>& perm) {
  auto list = digit_list(factors, a_digits);
  if (!list) return std::nullopt;
  for (auto& i : *list) i = static_cast<std::size_t>(std::find(perm.begin(), perm.end(), i) - perm.begin());
  return factors_of_digits(*list, b_digits);
}

}  // namespace

std::optional<DistType> same_blocks_type(const Mesh& a_mesh, const DistType& type, const Mesh& b_mesh) {
  if (!type.reduce_axes.empty() || a_mesh.num_devices() > kMaxInPlaceDevices) return std::nullopt;
  std::vector<Factors> dims;
  for (const auto& dim : type.dims) dims.push_back(factors_of(dim.axes, a_mesh));
  if (same_blocks(a_mesh, dims, b_mesh, dims)) return type;
  const auto a_digits = digits_of(a_mesh), b_digits = digits_of(b_mesh);
  const auto perm = digit_permutation(a_mesh, a_digits, b_mesh, b_digits);
  if (!perm) return std::nullopt;
  DistType out = type;
  std::vector<Factors> b_dims;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    auto f = carried(dims[d], a_digits, b_digits, *perm);
    if (!f) return std::nullopt;
    out.dims[d].axes = refs_of(*f, b_mesh);
    b_dims.push_back(std::move(*f));
  }
  // (The check is a safety net: carried digits give the same blocks by construction.)
  if (!validate(out, b_mesh) || !same_blocks(a_mesh, dims, b_mesh, b_dims)) return std::nullopt;
  return out;
}

bool same_blocks(const Mesh& a_mesh, std::span<const Factors> a_dims, const Mesh& b_mesh,
                 std::span<const Factors> b_dims) {
  if (a_mesh.num_devices() > kMaxInPlaceDevices || a_dims.size() != b_dims.size()) return false;
  const auto a_places = places_of(a_mesh, a_dims), b_places = places_of(b_mesh, b_dims);
  for (int64_t p = 0; p < a_mesh.num_devices(); ++p) {
    const int64_t q = b_mesh.position_of(a_mesh.device_at(p));
    for (std::size_t d = 0; d < a_dims.size(); ++d)
      if (block_at(p, a_places[d]) != block_at(q, b_places[d])) return false;
  }
  return true;
}

bool staying_permutes_hold(const Plan& plan, const std::vector<TypedState>& states) {
  const TypedState source{plan.mesh, plan.source};
  for (std::size_t k = 0; k < plan.steps.size() && k < states.size(); ++k) {
    if (!moves_nothing(plan.steps[k])) continue;
    const TypedState& before = k == 0 ? source : states[k - 1];
    if (!before.type.reduce_axes.empty()) return false;
    std::vector<Factors> a, b;
    for (const auto& dim : before.type.dims) a.push_back(factors_of(dim.axes, before.mesh));
    for (const auto& dim : states[k].type.dims) b.push_back(factors_of(dim.axes, states[k].mesh));
    if (!same_blocks(before.mesh, a, states[k].mesh, b)) return false;
  }
  return true;
}

Step staying_permute(const DistType& to, const Mesh& to_mesh) {
  DevicePairs pairs;
  for (int64_t p = 0; p < to_mesh.num_devices(); ++p) pairs.emplace_back(to_mesh.device_at(p), to_mesh.device_at(p));
  return Step(CollectivePermute{to, to_mesh}, std::nullopt, std::move(pairs));
}

}  // namespace redist::synth_detail
