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

// Where the brute force finds a partition shared by both orders, the function says so;
// where it says none, none is. Meshes of up to 3 axes and 48 devices, half of the orders
// digit permutations (which share many), half any permutation.
RC_GTEST_PROP(SharedPartitions, NeverMissesASharedPartition, ()) {
  const Mesh mesh = *gen_mesh({.max_axes = 3, .max_axis_size = 6, .max_devices = 48});
  const Mesh other = *gen_reordered(mesh);
  const auto a = proper_partitions(mesh), b = proper_partitions(other);
  const bool shared = std::any_of(a.begin(), a.end(), [&](const Partition& p) { return b.count(p) > 0; });
  if (shared) RC_ASSERT(shares_a_proper_partition(mesh, other));
  RC_TAG(shared ? "shared" : shares_a_proper_partition(mesh, other) ? "none, said may" : "none, said none");
}

}  // namespace
}  // namespace redist::testing
