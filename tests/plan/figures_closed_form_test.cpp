// The closed-form figures (digit classes, plan/src/digit_classes.hpp) against brute
// force: LB(d) summed and maximized device by device, and permute receipts counted
// pair by pair, on random small meshes and types; plus the cost at 2^20 and 2^23
// devices, which no enumeration could reach.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <numeric>

#include "redist/plan/figures.hpp"
#include "redist/plan/lowering.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/synth/synthesize.hpp"
#include "tests/support/generators.hpp"

namespace redist {
namespace {

using testing::gen_mesh;
using testing::gen_type;
using testing::MeshOptions;
using testing::TypeOptions;

/// Max and total of LB(d) visiting every device.
LowerBound brute_lower_bound(const Mesh& mesh, const DistType& src, const DistType& dst) {
  LowerBound lb;
  for (int64_t d = 0; d < mesh.num_devices(); ++d) {
    const BigInt v = device_lower_bound(mesh, src, mesh, dst, d);
    lb.max = std::max(lb.max, v);
    lb.total += v;
  }
  return lb;
}

/// A random pair of types of one array over `mesh`: same rank and global sizes, dims
/// sometimes not divisible (where only the enumeration applies).
std::pair<DistType, DistType> gen_pair(const Mesh& mesh) {
  TypeOptions opt;
  opt.max_rank = 3;
  DistType src = *gen_type(mesh, opt);
  DistType dst = *gen_type(mesh, opt);
  RC_PRE(src.dims.size() == dst.dims.size());
  dst.elem = src.elem;
  for (std::size_t d = 0; d < src.dims.size(); ++d) {
    const int64_t tiles = std::lcm(tile_count(src.dims[d]), tile_count(dst.dims[d]));
    int64_t global = tiles * *rc::gen::inRange<int64_t>(1, 3);
    if (*rc::gen::inRange(0, 5) == 0) global += *rc::gen::inRange<int64_t>(1, 4);  // padded
    src.dims[d].global = dst.dims[d].global = global;
  }
  return {src, dst};
}

RC_GTEST_PROP(FiguresClosedForm, LowerBoundEqualsTheSumOverDevices, ()) {
  MeshOptions mesh_opt;
  mesh_opt.max_devices = 64;
  const Mesh mesh = *gen_mesh(mesh_opt);
  const auto [src, dst] = gen_pair(mesh);
  const auto lb = lower_bound(mesh, src, mesh, dst);
  RC_ASSERT(lb.has_value());
  const LowerBound brute = brute_lower_bound(mesh, src, dst);
  RC_ASSERT(lb->max == brute.max);
  RC_ASSERT(lb->total == brute.total);
}

RC_GTEST_PROP(FiguresClosedForm, PermuteReceiptsEqualTheCountOverPairs, ()) {
  MeshOptions mesh_opt;
  mesh_opt.max_devices = 64;
  const Mesh mesh = *gen_mesh(mesh_opt);
  const auto [src, dst] = gen_pair(mesh);
  auto plan = synthesize(mesh, src, mesh, dst, {});
  RC_PRE(plan.ok());
  auto states = type_plan(*plan);
  RC_ASSERT(states.ok());
  auto figures = plan_figures(*plan);
  RC_ASSERT(figures.ok());
  TypedState at{plan->mesh, plan->source};
  std::vector<BigInt> per_device(static_cast<std::size_t>(mesh.num_devices()));
  for (std::size_t k = 0; k < plan->steps.size(); ++k) {
    const TypedState& after = (*states)[k];
    const StepFigures& s = figures->steps[k];
    if (std::holds_alternative<CollectivePermute>(plan->steps[k].op)) {
      // The step's own pairs: the synthesizer may give a permute an explicit table.
      const auto& explicit_pairs = plan->steps[k].pairs;
      int64_t moved = 0;
      for (const auto& [source, target] : explicit_pairs ? *explicit_pairs : permute_pairs(at, after))
        moved += source != target;
      const BigInt bytes = local_bytes(at.type);
      RC_ASSERT(s.recv_bytes_total == bytes * moved);
      RC_ASSERT(s.recv_bytes_max == (moved ? bytes : BigInt(0)));
      RC_ASSERT(s.send_bytes_max == (moved ? bytes : BigInt(0)));
    }
    for (int64_t d = 0; d < mesh.num_devices(); ++d)
      per_device[static_cast<std::size_t>(d)] += device_recv_bytes(at, after, plan->steps[k], d);
    at = after;
  }
  BigInt max = 0, total = 0;
  for (const BigInt& v : per_device) {
    max = std::max(max, v);
    total += v;
  }
  RC_ASSERT(figures->recv_bytes_max == max);
  RC_ASSERT(figures->recv_bytes_total == total);
}

/// The figures of the swap of two dims over {x:a, y:b}: only devices with x == y keep
/// their data (a == b), so everything is known in closed form.
TEST(FiguresClosedForm, SwapAtTwoToTheTwentyAndTwentyThree) {
  for (const auto& [a, b] : {std::pair<int64_t, int64_t>{1024, 1024}, {2048, 4096}}) {
    const std::string mesh_text = "{x:" + std::to_string(a) + ", y:" + std::to_string(b) + "}";
    const Mesh mesh = *parse_mesh(mesh_text);
    const std::string n = std::to_string(a * b);
    const DistType src = *parse_type("f32[{x}" + n + ", {y}" + n + "]", mesh);
    const DistType dst = *parse_type("f32[{y}" + n + ", {x}" + n + "]", mesh);
    const auto lb = lower_bound(mesh, src, mesh, dst);
    ASSERT_TRUE(lb.has_value());
    // Each device wants a block of (n/b) x (n/a) elements and holds the same block only
    // when its x block of dim 0 equals its y block (block sizes n/a and n/b nest).
    const BigInt want = BigInt(a * b / b) * (a * b / a) * 4;
    if (a == b) {
      EXPECT_EQ(lb->max, want);
      EXPECT_EQ(lb->total, want * (a * b - a));
    } else {
      EXPECT_EQ(lb->max, want);
    }
    auto plan = synthesize(mesh, src, mesh, dst, {});
    ASSERT_TRUE(plan.ok()) << plan.error().to_string();
    auto figures = plan_figures(*plan);
    ASSERT_TRUE(figures.ok());
    ASSERT_TRUE(figures->lower_bound.has_value());
    EXPECT_EQ(figures->lower_bound->total, lb->total);
    if (a == b) {
      EXPECT_EQ(figures->recv_bytes_total, want * (a * b - a));
    }
  }
}

}  // namespace
}  // namespace redist
