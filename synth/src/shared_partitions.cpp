// Partitions of the devices by sub-axes on two device orders (shared_partitions.hpp).

#include "shared_partitions.hpp"

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

namespace redist::synth_detail {

namespace {

/// A partition of one axis's coordinates: the class of each, numbered by first
/// appearance, and the number of classes.
struct AxisPartition {
  std::vector<int> class_of;
  int classes = 1;
  bool operator==(const AxisPartition&) const = default;
};

/// The partition whose classes are `ids` (non-negative), numbered by first appearance.
AxisPartition normalized(std::vector<int> ids) {
  std::vector<int> renamed(static_cast<std::size_t>(*std::max_element(ids.begin(), ids.end())) + 1, -1);
  AxisPartition out;
  out.classes = 0;
  for (int& id : ids) {
    if (renamed[static_cast<std::size_t>(id)] < 0) renamed[static_cast<std::size_t>(id)] = out.classes++;
    id = renamed[static_cast<std::size_t>(id)];
  }
  out.class_of = std::move(ids);
  return out;
}

/// Returns every partition of the coordinates of an axis of `size` by a set of its
/// sub-axes (the trivial one and the one into single coordinates included), or an empty
/// list where there are more than `cap`.
std::vector<AxisPartition> axis_partitions(int64_t size, std::size_t cap) {
  std::vector<AxisPartition> out{AxisPartition{std::vector<int>(static_cast<std::size_t>(size), 0), 1}};
  for (int64_t pre = 1; pre < size; ++pre)
    for (int64_t sub = 2; pre * sub <= size; ++sub) {
      if (size % (pre * sub) != 0) continue;
      const int64_t below = size / (pre * sub);
      // Each partition so far refined by this sub-axis's digit (the meet: by both sets).
      const std::size_t known = out.size();
      for (std::size_t i = 0; i < known; ++i) {
        std::vector<int> ids(static_cast<std::size_t>(size));
        for (int64_t v = 0; v < size; ++v)
          ids[static_cast<std::size_t>(v)] =
              out[i].class_of[static_cast<std::size_t>(v)] * static_cast<int>(sub) + static_cast<int>(v / below % sub);
        auto p = normalized(std::move(ids));
        if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
        if (out.size() > cap) return {};
      }
    }
  return out;
}

/// Minimal union-find over a few coordinates: the root of `v`, halving the path.
int root(std::vector<int>& parent, int v) {
  auto at = [&](int i) -> int& { return parent[static_cast<std::size_t>(i)]; };
  while (at(v) != v) v = at(v) = at(at(v));
  return v;
}

/// Each device's coordinates on `a` and on `b`, by its position on `a`.
std::pair<std::vector<Coords>, std::vector<Coords>> coordinates(const Mesh& a, const Mesh& b) {
  std::vector<Coords> on_a(static_cast<std::size_t>(a.num_devices())), on_b(on_a.size());
  for (int64_t p = 0; p < a.num_devices(); ++p) {
    on_a[static_cast<std::size_t>(p)] = a.coords_of_position(p);
    on_b[static_cast<std::size_t>(p)] = b.coords_of_device(a.device_at(p));
  }
  return {std::move(on_a), std::move(on_b)};
}

}  // namespace

bool shares_a_proper_partition(const Mesh& a, const Mesh& b) {
  constexpr std::size_t kMaxAxisPartitions = 256;
  constexpr int64_t kMaxCombinations = int64_t{1} << 15;
  const std::size_t rank = a.rank();
  const int64_t n = a.num_devices();
  std::vector<std::vector<AxisPartition>> options(rank);
  int64_t combinations = 1;
  for (std::size_t x = 0; x < rank; ++x) {
    options[x] = axis_partitions(a.axis_size(x), kMaxAxisPartitions);
    if (options[x].empty()) return true;
    combinations *= static_cast<int64_t>(options[x].size());
    if (combinations > kMaxCombinations) return true;
  }
  const auto [a_coords, b_coords] = coordinates(a, b);
  std::vector<std::size_t> b_axes(rank);
  std::iota(b_axes.begin(), b_axes.end(), 0);
  std::stable_sort(b_axes.begin(), b_axes.end(),
                   [&](std::size_t u, std::size_t v) { return b.axis_size(u) > b.axis_size(v); });
  std::vector<std::size_t> pick(rank, 0);
  std::vector<int64_t> class_of(static_cast<std::size_t>(n));
  std::vector<int> first, parent;
  for (int64_t combo = 0; combo < combinations; ++combo) {
    // The next combination of one partition per axis (odometer).
    if (combo > 0)
      for (std::size_t x = rank; x-- > 0;) {
        if (++pick[x] < options[x].size()) break;
        pick[x] = 0;
      }
    int64_t classes = 1;
    for (std::size_t x = 0; x < rank; ++x) classes *= options[x][pick[x]].classes;
    if (classes == 1 || classes == n) continue;  // not proper
    for (int64_t p = 0; p < n; ++p) {
      int64_t c = 0;
      for (std::size_t x = 0; x < rank; ++x) {
        const auto& part = options[x][pick[x]];
        c = c * part.classes + part.class_of[static_cast<std::size_t>(a_coords[static_cast<std::size_t>(p)][x])];
      }
      class_of[static_cast<std::size_t>(p)] = c;
    }
    // On `b`, the finest partition by each axis's coordinates that keeps every class
    // within one part: coordinates that share a class are joined. A partition by
    // sub-axes of `b` that is this one is at least as coarse on every axis, so it has
    // as many classes only if the product of these does. Each axis adds at most its
    // size to that product: once the axes left (largest first) cannot make it up to
    // `classes`, the partition is not one of `b`'s.
    int64_t joined = 1, room = b.num_devices();
    for (std::size_t i = 0; i < rank && joined <= classes && joined * room >= classes; ++i) {
      const std::size_t y = b_axes[i];
      room /= b.axis_size(y);
      const int size = static_cast<int>(b.axis_size(y));
      parent.resize(static_cast<std::size_t>(size));
      std::iota(parent.begin(), parent.end(), 0);
      first.assign(static_cast<std::size_t>(classes), -1);
      for (int64_t p = 0; p < n; ++p) {
        const int v = static_cast<int>(b_coords[static_cast<std::size_t>(p)][y]);
        int& f = first[static_cast<std::size_t>(class_of[static_cast<std::size_t>(p)])];
        if (f < 0) f = v;
        else parent[static_cast<std::size_t>(root(parent, v))] = root(parent, f);
      }
      int parts = 0;
      for (int v = 0; v < size; ++v) parts += root(parent, v) == v;
      joined *= parts;
    }
    if (joined == classes) return true;
  }
  return false;
}

bool may_keep_distinct_blocks(const Mesh& a, const Mesh& b) {
  const int64_t n = a.num_devices();
  if (n <= 1) return true;  // one device: nothing moves
  // Block 0 is the device whose digits are all 0 (position 0), block n-1 the one whose
  // digits are all at their largest (the last position), on either order.
  if (a.device_at(0) != b.device_at(0) || a.device_at(n - 1) != b.device_at(n - 1)) return false;
  const std::size_t rank = a.rank();
  for (std::size_t x = 0; x < rank; ++x)
    if ((a.axis_size(x) & (a.axis_size(x) - 1)) != 0) return true;
  const auto [on_a, on_b] = coordinates(a, b);
  // Each bit of a's coordinates against each bit of b's, over every device.
  for (std::size_t x = 0; x < rank; ++x)
    for (int64_t bit = 1; bit < a.axis_size(x); bit <<= 1)
      for (std::size_t y = 0; y < rank; ++y)
        for (int64_t other = 1; other < b.axis_size(y); other <<= 1) {
          bool same = true;
          for (std::size_t p = 0; same && p < on_a.size(); ++p)
            same = ((on_a[p][x] & bit) != 0) == ((on_b[p][y] & other) != 0);
          if (same) return true;
        }
  return false;
}

}  // namespace redist::synth_detail
