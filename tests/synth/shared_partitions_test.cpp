// Partitions of the devices by sub-axes on two device orders
// (synth/src/shared_partitions.hpp): worked examples, and a check against every
// partition of both orders enumerated by brute force (the function may say "may share"
// where none is shared, never the reverse: the search bound charges a permute on it).

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <numeric>
#include <set>
#include <vector>

#include "synth/src/shared_partitions.hpp"
#include "synth/synthesis_cases.hpp"
#include "synth/test_util.hpp"

namespace redist::testing {
namespace {

using synth_detail::may_keep_distinct_blocks;
using synth_detail::shares_a_proper_partition;

/// A partition of the device ids: each device's class, numbered by first appearance.
using Partition = std::vector<int64_t>;

/// Returns every partition of the devices of `mesh` by a set of sub-axes (each axis's
/// coordinate split into digits of every divisor chain), proper ones only (not all
/// devices together, not all apart), written by device id.
std::set<Partition> proper_partitions(const Mesh& mesh) {
  const std::size_t rank = mesh.rank();
  const int64_t n = mesh.num_devices();
  // Per axis, the functions coordinate -> digit of each sub-axis (pre, size).
  std::vector<std::vector<std::pair<int64_t, int64_t>>> subs(rank);  // (below, size)
  for (std::size_t a = 0; a < rank; ++a) {
    const int64_t size = mesh.axis_size(a);
    for (int64_t pre = 1; pre < size; ++pre)
      for (int64_t sub = 2; pre * sub <= size; ++sub)
        if (size % (pre * sub) == 0) subs[a].emplace_back(size / (pre * sub), sub);
  }
  std::vector<std::pair<std::size_t, std::pair<int64_t, int64_t>>> all;  // (axis, sub-axis)
  for (std::size_t a = 0; a < rank; ++a)
    for (const auto& s : subs[a]) all.emplace_back(a, s);
  std::set<Partition> out;
  for (uint64_t mask = 1; mask < (uint64_t{1} << all.size()); ++mask) {
    std::vector<std::vector<int64_t>> keys(static_cast<std::size_t>(n));
    for (int64_t p = 0; p < n; ++p) {
      const auto coords = mesh.coords_of_position(p);
      auto& key = keys[static_cast<std::size_t>(mesh.device_at(p))];
      for (std::size_t i = 0; i < all.size(); ++i)
        if (mask >> i & 1) {
          const auto [below, size] = all[i].second;
          key.push_back(coords[all[i].first] / below % size);
        }
    }
    std::vector<std::vector<int64_t>> seen;
    Partition part(static_cast<std::size_t>(n));
    for (int64_t d = 0; d < n; ++d) {
      auto it = std::find(seen.begin(), seen.end(), keys[static_cast<std::size_t>(d)]);
      if (it == seen.end()) it = seen.insert(seen.end(), keys[static_cast<std::size_t>(d)]);
      part[static_cast<std::size_t>(d)] = it - seen.begin();
    }
    if (seen.size() > 1 && static_cast<int64_t>(seen.size()) < n) out.insert(part);
  }
  return out;
}

/// Every way to write `size` as a product of factors of 2 or more, major first.
std::vector<std::vector<int64_t>> ordered_factorizations(int64_t size) {
  if (size == 1) return {{}};
  std::vector<std::vector<int64_t>> out;
  for (int64_t first = 2; first <= size; ++first)
    if (size % first == 0)
      for (auto rest : ordered_factorizations(size / first)) {
        rest.insert(rest.begin(), first);
        out.push_back(std::move(rest));
      }
  return out;
}

/// Every tiling of one dim by all the digits of `mesh` (each axis split into consecutive
/// sub-axes in every way, the sub-axes in every order), as each device's block index,
/// by device id.
std::set<std::vector<int64_t>> full_tilings(const Mesh& mesh) {
  struct SubAxis {
    std::size_t axis;
    int64_t below, size;  // the digit is coordinate / below % size
    auto operator<=>(const SubAxis&) const = default;
  };
  std::vector<std::vector<std::vector<SubAxis>>> splits(mesh.rank());  // per axis, per way
  for (std::size_t a = 0; a < mesh.rank(); ++a)
    for (const auto& factors : ordered_factorizations(mesh.axis_size(a))) {
      std::vector<SubAxis> way;
      int64_t below = mesh.axis_size(a);
      for (int64_t f : factors) way.push_back({a, below /= f, f});
      splits[a].push_back(std::move(way));
    }
  std::set<std::vector<int64_t>> out;
  std::vector<std::size_t> choice(mesh.rank(), 0);
  while (true) {
    std::vector<SubAxis> subs;
    for (std::size_t a = 0; a < mesh.rank(); ++a) {
      const auto& way = splits[a][choice[a]];
      subs.insert(subs.end(), way.begin(), way.end());
    }
    std::sort(subs.begin(), subs.end());
    do {
      std::vector<int64_t> block(static_cast<std::size_t>(mesh.num_devices()));
      for (int64_t p = 0; p < mesh.num_devices(); ++p) {
        const auto coords = mesh.coords_of_position(p);
        int64_t index = 0;
        for (const auto& s : subs) index = index * s.size + coords[s.axis] / s.below % s.size;
        block[static_cast<std::size_t>(mesh.device_at(p))] = index;
      }
      out.insert(std::move(block));
    } while (std::next_permutation(subs.begin(), subs.end()));
    std::size_t a = 0;
    while (a < mesh.rank() && ++choice[a] == splits[a].size()) choice[a++] = 0;
    if (a == mesh.rank()) return out;
  }
}

/// True when some tiling of one dim by every digit on `a` gives each device the block
/// some such tiling on `b` gives it.
bool all_distinct_blocks_stay(const Mesh& a, const Mesh& b) {
  const auto on_a = full_tilings(a), on_b = full_tilings(b);
  return std::any_of(on_a.begin(), on_a.end(), [&](const auto& t) { return on_b.count(t) > 0; });
}

TEST(SharedPartitions, AnOrderChangeAlongOneAxisKeepsTheOthersPartition) {
  // Devices [1,0,3,2] swap neighbours along y: the partition by x, {0,1} and {2,3}, is
  // the same on both orders.
  EXPECT_TRUE(shares_a_proper_partition(mesh_of("{x:2, y:2}"), parse_mesh("{x:2, y:2} devices=[1,0,3,2]").value()));
  // A transposed order: x on one is y on the other.
  EXPECT_TRUE(
      shares_a_proper_partition(mesh_of("{x:2, y:4}"), parse_mesh("{x:2, y:4} devices=[0,2,4,6,1,3,5,7]").value()));
}

TEST(SharedPartitions, AScrambledOrderSharesNone) {
  // {x:2, y:3}: by x the devices split {0,1,2} {3,4,5}; by y {0,3} {1,4} {2,5}. On the
  // order [0,4,2,3,1,5], by x {0,4,2} {3,1,5} and by y {0,3} {4,1} {2,5}: y's partition
  // is shared. On [1,3,5,0,2,4], by x {1,3,5} {0,2,4} and by y {1,0} {3,2} {5,4}: none.
  const Mesh mesh = mesh_of("{x:2, y:3}");
  EXPECT_TRUE(shares_a_proper_partition(mesh, parse_mesh("{x:2, y:3} devices=[0,4,2,3,1,5]").value()));
  EXPECT_FALSE(shares_a_proper_partition(mesh, parse_mesh("{x:2, y:3} devices=[1,3,5,0,2,4]").value()));
}

TEST(SharedPartitions, AnOrderThatKeepsNoBitCannotKeepAllDistinctBlocks) {
  // {x:2, y:4} transposed: x's bit is y's major bit on the other order.
  EXPECT_TRUE(
      may_keep_distinct_blocks(mesh_of("{x:2, y:4}"), parse_mesh("{x:2, y:4} devices=[0,2,4,6,1,3,5,7]").value()));
  // Devices [0,1,2,4,3,5,6,7]: devices 3 and 4 swap places, which changes all three
  // of their position bits, while the others keep theirs: no bit of a position on the
  // new order is one bit of the same device's on the old.
  EXPECT_FALSE(
      may_keep_distinct_blocks(mesh_of("{x:2, y:4}"), parse_mesh("{x:2, y:4} devices=[0,1,2,4,3,5,6,7]").value()));
}

TEST(SharedPartitions, AnOrderWithAnotherFirstOrLastDeviceCannotKeepAllDistinctBlocks) {
  // Every tiling by all digits gives block 0 to position 0 and the last block to the
  // last position, on either order.
  const Mesh mesh = mesh_of("{x:2, y:3}");
  // Device 1 first: no such tiling stays (the brute force agrees).
  const Mesh scrambled = parse_mesh("{x:2, y:3} devices=[1,3,5,0,2,4]").value();
  EXPECT_FALSE(may_keep_distinct_blocks(mesh, scrambled));
  EXPECT_FALSE(all_distinct_blocks_stay(mesh, scrambled));
  // Device 4 last: none either.
  EXPECT_FALSE(may_keep_distinct_blocks(mesh, parse_mesh("{x:2, y:3} devices=[0,1,2,3,5,4]").value()));
  // [0,2,4,1,3,5] keeps both ends, and f32[{x,y}6] on the old order gives every device
  // the block f32[{y,x}6] gives it on the new one (device 1: 0*3+1 = 1 and 0*2+1 = 1):
  // no claim, rightly.
  const Mesh kept = parse_mesh("{x:2, y:3} devices=[0,2,4,1,3,5]").value();
  EXPECT_TRUE(may_keep_distinct_blocks(mesh, kept));
  EXPECT_TRUE(all_distinct_blocks_stay(mesh, kept));
  // A single axis of size 3: devices [0,2,1] keep both ends, [2,0,1] do not.
  EXPECT_TRUE(may_keep_distinct_blocks(mesh_of("{x:3}"), parse_mesh("{x:3} devices=[0,1,2]").value()));
  EXPECT_FALSE(may_keep_distinct_blocks(mesh_of("{x:3}"), parse_mesh("{x:3} devices=[2,0,1]").value()));
}

// Where the brute force finds a partition shared by both orders, the function says so;
// where it says none, none is. Meshes of up to 3 axes and 48 devices, half of the orders
// digit permutations (which share many), half any permutation.
RC_GTEST_PROP(SharedPartitions, NeverMissesASharedPartition, ()) {
  const Mesh mesh = *gen_mesh({.max_axes = 3, .max_axis_size = 6, .max_devices = 48});
  const Mesh other = *gen_reordered(mesh);
  const auto a = proper_partitions(mesh), b = proper_partitions(other);
  const bool shared = std::any_of(a.begin(), a.end(), [&](const Partition& p) { return b.count(p) > 0; });
  if (shared) RC_ASSERT(shares_a_proper_partition(mesh, other));
  // On up to 36 devices: where the function says no tiling by every digit can keep its
  // blocks, no such tiling of one order gives every device the block one of the other's
  // gives it.
  if (!may_keep_distinct_blocks(mesh, other) && mesh.num_devices() <= 36)
    RC_ASSERT(!all_distinct_blocks_stay(mesh, other));
  RC_TAG(shared ? "shared" : shares_a_proper_partition(mesh, other) ? "none, said may" : "none, said none");
}

}  // namespace
}  // namespace redist::testing
