// Lowering: device groups, permute pairs and the groups each step runs with.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <numeric>

#include "redist/core/semantics.hpp"
#include "redist/plan/lowering.hpp"
#include "tests/support/generators.hpp"
#include "tests/synth/test_util.hpp"

namespace redist {
namespace {

using testing::mesh_of;
using testing::state_of;
using testing::sub;
using testing::type_of;
using testing::whole;

// ---- device_groups

TEST(SynthDeviceGroups, TwoAxes) {
  const Mesh m = mesh_of("{x:2, y:2}");
  const auto x = whole("x", 2), y = whole("y", 2);
  EXPECT_EQ(device_groups(m, std::vector{y}), (DeviceGroups{{0, 1}, {2, 3}}));
  EXPECT_EQ(device_groups(m, std::vector{x}), (DeviceGroups{{0, 2}, {1, 3}}));
  EXPECT_EQ(device_groups(m, std::vector{x, y}), (DeviceGroups{{0, 1, 2, 3}}));
  EXPECT_EQ(device_groups(m, std::vector{y, x}), (DeviceGroups{{0, 2, 1, 3}}));
  EXPECT_EQ(device_groups(m, std::vector<AxisRef>{}), (DeviceGroups{{0}, {1}, {2}, {3}}));
}

TEST(SynthDeviceGroups, ThreeAxes) {
  const Mesh m = mesh_of("{x:2, y:2, z:2}");
  const auto x = whole("x", 2), z = whole("z", 2);
  EXPECT_EQ(device_groups(m, std::vector{x, z}), (DeviceGroups{{0, 1, 4, 5}, {2, 3, 6, 7}}));
  EXPECT_EQ(device_groups(m, std::vector{z, x}), (DeviceGroups{{0, 4, 1, 5}, {2, 6, 3, 7}}));
  EXPECT_EQ(device_groups(m, std::vector{x}), (DeviceGroups{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
}

TEST(SynthDeviceGroups, SubAxes) {
  // Position 2x + y on {x:4, y:2}; x:(1)2 is the major bit of x, x:(2)2 the minor one.
  const Mesh m = mesh_of("{x:4, y:2}");
  EXPECT_EQ(device_groups(m, std::vector{sub("x", 2, 2)}), (DeviceGroups{{0, 2}, {1, 3}, {4, 6}, {5, 7}}));
  EXPECT_EQ(device_groups(m, std::vector{sub("x", 1, 2)}), (DeviceGroups{{0, 4}, {1, 5}, {2, 6}, {3, 7}}));
  EXPECT_EQ(device_groups(m, std::vector{sub("x", 2, 2), whole("y", 2)}), (DeviceGroups{{0, 1, 2, 3}, {4, 5, 6, 7}}));
  EXPECT_EQ(device_groups(m, std::vector{whole("y", 2), sub("x", 1, 2)}), (DeviceGroups{{0, 4, 1, 5}, {2, 6, 3, 7}}));
}

TEST(SynthDeviceGroups, ExplicitDeviceOrder) {
  const Mesh m = mesh_of("{x:2, y:2} devices=[3, 2, 1, 0]");
  EXPECT_EQ(device_groups(m, std::vector{whole("y", 2)}), (DeviceGroups{{3, 2}, {1, 0}}));
  EXPECT_EQ(device_groups(m, std::vector{whole("x", 2)}), (DeviceGroups{{3, 1}, {2, 0}}));
  const Mesh three = mesh_of("{x:2, y:3} devices=[5, 0, 4, 1, 3, 2]");
  EXPECT_EQ(device_groups(three, std::vector{whole("y", 3)}), (DeviceGroups{{5, 0, 4}, {1, 3, 2}}));
  EXPECT_EQ(device_groups(three, std::vector{whole("x", 2)}), (DeviceGroups{{5, 1}, {0, 3}, {4, 2}}));
}

RC_GTEST_PROP(SynthDeviceGroups, PartitionTheDevicesInMixedRadixOrder, ()) {
  const Mesh m = *testing::gen_mesh({.max_axes = 3, .max_devices = 64});
  auto pieces = *testing::gen_axis_pieces(m);
  std::vector<AxisRef> axes;
  for (const auto& p : pieces)
    if (*rc::gen::arbitrary<bool>()) axes.push_back(p);
  const auto groups = device_groups(m, axes);
  std::vector<int> seen(m.num_devices(), 0);
  int64_t previous_start = -1;
  for (const auto& g : groups) {
    RC_ASSERT(static_cast<int64_t>(g.size()) == product_of_sizes(axes));
    RC_ASSERT(m.position_of(g.front()) > previous_start);
    previous_start = m.position_of(g.front());
    const Coords first = m.coords_of_device(g.front());
    for (std::size_t i = 0; i < g.size(); ++i) {
      ++seen[g[i]];
      const Coords c = m.coords_of_device(g[i]);
      RC_ASSERT(mixed_radix_index(m, c, axes) == static_cast<int64_t>(i));
      Coords same = c;  // only the group's axes may differ from the first member
      for (const auto& a : axes) set_axis_coordinate(m, same, a, axis_coordinate(m, first, a));
      RC_ASSERT(same == first);
    }
  }
  RC_ASSERT(std::all_of(seen.begin(), seen.end(), [](int n) { return n == 1; }));
}

// ---- step_groups

TEST(SynthStepGroups, UsesTheStepAxesOrItsExplicitGroups) {
  const TypedState s = state_of("{x:2, y:2}", "f32[{x,y}16]");
  const auto x = whole("x", 2), y = whole("y", 2);
  EXPECT_EQ(step_groups(s, Step{AllGather{0, {y}}, {}, {}}), (DeviceGroups{{0, 1}, {2, 3}}));
  EXPECT_EQ(step_groups(s, Step{AllToAll{0, 1, {y}}, {}, {}}), (DeviceGroups{{0, 1}, {2, 3}}));
  EXPECT_EQ(step_groups(s, Step{AllSlice{0, {x}}, {}, {}}), (DeviceGroups{{0, 2}, {1, 3}}));
  EXPECT_EQ(step_groups(s, Step{ReduceScatter{0, {x}}, {}, {}}), (DeviceGroups{{0, 2}, {1, 3}}));
  EXPECT_EQ(step_groups(s, Step{AllReduce{{y, x}}, {}, {}}), (DeviceGroups{{0, 2, 1, 3}}));
  EXPECT_EQ(step_groups(s, Step{AllGather{0, {y}}, DeviceGroups{{1, 0}, {3, 2}}, {}}), (DeviceGroups{{1, 0}, {3, 2}}));
  EXPECT_TRUE(step_groups(s, Step{CollectivePermute{s.type, {}}, {}, {}}).empty());
}

// ---- permute_pairs

/// Pairs of the permute from (mesh, type) to (to_mesh, to).
DevicePairs pairs_of(std::string_view mesh, std::string_view type, std::string_view to_mesh, std::string_view to) {
  return permute_pairs(state_of(mesh, type), state_of(to_mesh, to));
}

TEST(SynthPermutePairs, ReordersAxesInADim) {
  // Target (x, y) needs block 2y + x, held by source (y, x).
  EXPECT_EQ(pairs_of("{x:2, y:2}", "f32[{x,y}16]", "{x:2, y:2}", "f32[{y,x}16]"),
            (DevicePairs{{0, 0}, {2, 1}, {1, 2}, {3, 3}}));
}

TEST(SynthPermutePairs, SwapsAxesBetweenDims) {
  EXPECT_EQ(pairs_of("{x:2, y:2}", "f32[{x}16, {y}8]", "{x:2, y:2}", "f32[{y}16, {x}8]"),
            (DevicePairs{{0, 0}, {2, 1}, {1, 2}, {3, 3}}));
}

TEST(SynthPermutePairs, ChangesTheDeviceOrder) {
  // Device 1 sits at (1, 0) of the new order and needs blocks (1, 0): device 2 holds them.
  EXPECT_EQ(pairs_of("{x:2, y:2}", "f32[{x}16, {y}8]", "{x:2, y:2} devices=[0, 2, 1, 3]", "f32[{x}16, {y}8]"),
            (DevicePairs{{0, 0}, {2, 1}, {1, 2}, {3, 3}}));
}

TEST(SynthPermutePairs, FollowsMeshCoordinatesAcrossADeviceOrderChange) {
  // Pairs are a symbolic map of mesh coordinates (what the checker proves): device 0
  // sits at (0, 1) of the new order and receives from (0, 1) of the old one, device 1.
  EXPECT_EQ(pairs_of("{x:2, y:2}", "f32[{x}16]", "{x:2, y:2} devices=[1, 0, 3, 2]", "f32[{x}16]"),
            (DevicePairs{{1, 0}, {0, 1}, {3, 2}, {2, 3}}));
}

TEST(SynthPermutePairs, KeepsDataInPlaceWithoutAnOrderChange) {
  EXPECT_EQ(pairs_of("{x:2, y:2}", "f32[{x}16]", "{x:2, y:2}", "f32[{x}16]"), (DevicePairs{{0, 0}, {1, 1}, {2, 2}, {3, 3}}));
}

TEST(SynthPermutePairs, SwapsATiledAxisForAReplicatedOne) {
  // Target (x, y) needs block y of {y}: the source has x = y, and its free y takes the
  // target's free x, so every source sends once.
  EXPECT_EQ(pairs_of("{x:2, y:2}", "f32[{x}16]", "{x:2, y:2}", "f32[{y}16]"), (DevicePairs{{0, 0}, {2, 1}, {1, 2}, {3, 3}}));
}

TEST(SynthPermutePairs, KeepsReductionCoordinates) {
  EXPECT_EQ(pairs_of("{x:2}", "f32[16] sum{x}", "{x:2} devices=[1, 0]", "f32[16] sum{x}"), (DevicePairs{{1, 0}, {0, 1}}));
}

TEST(SynthPermutePairs, MovesSubAxes) {
  // {x:(1)2, x:(2)2} -> {x:(2)2, x:(1)2} on x:4 reverses the two bits of x.
  EXPECT_EQ(pairs_of("{x:4}", "f32[{x}16]", "{x:4}", "f32[{x:(2)2,x:(1)2}16]"), (DevicePairs{{0, 0}, {2, 1}, {1, 2}, {3, 3}}));
}

/// `mesh` with a random device order.
rc::Gen<Mesh> gen_reordered(const Mesh& mesh) {
  return rc::gen::exec([mesh] {
    const auto keys = *rc::gen::container<std::vector<unsigned>>(mesh.num_devices(), rc::gen::arbitrary<unsigned>());
    std::vector<int64_t> order(mesh.num_devices());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return keys[a] < keys[b]; });
    return Mesh::create(mesh.axes(), order).value();
  });
}

/// A random permute target for `before`: equal-size axis pieces swapped between dims
/// and replicated axes, dims' axes shuffled, and sometimes a new device order.
rc::Gen<TypedState> gen_permuted(const TypedState& before) {
  return rc::gen::exec([before] {
    TypedState after = before;
    std::vector<AxisRef*> slots;  // tiled pieces, then whole replicated axes
    for (auto& d : after.type.dims)
      for (auto& a : d.axes) slots.push_back(&a);
    const auto used = used_axes(before.type);
    std::vector<AxisRef> replicated;
    for (const auto& axis : before.mesh.axes())
      if (std::none_of(used.begin(), used.end(), [&](const AxisRef& a) { return a.name == axis.name; }))
        replicated.push_back({axis.name, 1, axis.size, false});
    for (auto& r : replicated) slots.push_back(&r);
    if (!slots.empty()) {
      const int swaps = *rc::gen::inRange(0, 4);
      for (int i = 0; i < swaps; ++i) {
        AxisRef* a = slots[*rc::gen::inRange<std::size_t>(0, slots.size())];
        AxisRef* b = slots[*rc::gen::inRange<std::size_t>(0, slots.size())];
        if (a->size == b->size) std::swap(*a, *b);
      }
    }
    for (auto& d : after.type.dims) {
      const auto keys = *rc::gen::container<std::vector<unsigned>>(d.axes.size(), rc::gen::arbitrary<unsigned>());
      std::vector<std::pair<unsigned, AxisRef>> keyed;
      for (std::size_t i = 0; i < d.axes.size(); ++i) keyed.emplace_back(keys[i], d.axes[i]);
      std::stable_sort(keyed.begin(), keyed.end(), [](const auto& p, const auto& q) { return p.first < q.first; });
      for (std::size_t i = 0; i < d.axes.size(); ++i) d.axes[i] = keyed[i].second;
    }
    if (*rc::gen::arbitrary<bool>()) after.mesh = *gen_reordered(before.mesh);
    return after;
  });
}

RC_GTEST_PROP(SynthPermutePairs, EverySourceHoldsTheTargetShard, ()) {
  const Mesh mesh = *testing::gen_mesh({.max_axes = 3, .max_devices = 64});
  testing::TypeOptions options;
  options.divisible = *rc::gen::arbitrary<bool>();
  options.reductions = true;
  const TypedState before{mesh, *testing::gen_type(mesh, options)};
  const TypedState after = *gen_permuted(before);
  RC_ASSERT(apply_step(before, Step{CollectivePermute{after.type, after.mesh}, {}, {}}).ok());

  const DevicePairs pairs = permute_pairs(before, after);
  RC_ASSERT(static_cast<int64_t>(pairs.size()) == mesh.num_devices());
  for (int64_t target = 0; target < mesh.num_devices(); ++target) {
    const auto [source, t] = pairs[target];
    RC_ASSERT(t == target);
    RC_ASSERT(source >= 0 && source < mesh.num_devices());
    const Coords s_coords = before.mesh.coords_of_device(source);
    const Coords t_coords = after.mesh.coords_of_device(target);
    RC_ASSERT(shard_box(before.mesh, before.type, s_coords) == shard_box(after.mesh, after.type, t_coords));
    for (const auto& r : before.type.reduce_axes)
      RC_ASSERT(axis_coordinate(before.mesh, s_coords, r) == axis_coordinate(after.mesh, t_coords, r));
    if (before == after) RC_ASSERT(source == target);
  }
  // Each source sends once: XLA's collective-permute takes every source at most once.
  std::vector<int> sends(mesh.num_devices(), 0);
  for (const auto& [source, target] : pairs) RC_ASSERT(++sends[source] == 1);
}

}  // namespace
}  // namespace redist
