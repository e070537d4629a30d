#pragma once
// Random well-typed (state, step) cases for the interpreter's properties, one maker per
// step kind, and the check that runs a case. Call them inside a RapidCheck property.

#include <rapidcheck.h>

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "redist/core/dist_type.hpp"
#include "redist/plan/lowering.hpp"
#include "redist/plan/plan.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/plan/typing.hpp"
#include "redist/verify/interpreter.hpp"
#include "helpers.hpp"
#include "tests/support/generators.hpp"

namespace redist::testing {

/// A state and a step meant to apply to it.
struct StepCase {
  TypedState before;
  Step step;
};

/// Most stored elements (devices * local elements) a property case may have, so that
/// 100 cases stay within a few seconds.
inline constexpr int64_t kMaxWork = int64_t{1} << 17;

/// Devices * local elements of `type` on `mesh`.
inline int64_t work(const Mesh& mesh, const DistType& type) {
  int64_t n = mesh.num_devices();
  for (int64_t s : local_shape(type)) n *= s;
  return n;
}

/// "mesh | type | step" for logs.
inline std::string describe(const StepCase& c) {
  return to_string(c.before.mesh) + " | " + to_string(c.before.type) + " | " + to_string(c.step);
}

/// `gen` at RapidCheck's full size: choices and meshes are uniform from the first case
/// on (shrinking still leads to small counterexamples).
template <class T>
T full_size(rc::Gen<T> gen) {
  return *rc::gen::resize(rc::kNominalSize, std::move(gen));
}

/// A random integer in [lo, hi], uniform.
inline int64_t any_in(int64_t lo, int64_t hi) { return full_size(rc::gen::inRange<int64_t>(lo, hi + 1)); }

/// A random element of the non-empty `items`.
template <class T>
const T& one_of(const std::vector<T>& items) {
  return items[static_cast<std::size_t>(any_in(0, static_cast<int64_t>(items.size()) - 1))];
}

/// `items` in a random order.
template <class T>
std::vector<T> shuffled(std::vector<T> items) {
  for (std::size_t i = items.size(); i > 1; --i)
    std::swap(items[i - 1], items[static_cast<std::size_t>(any_in(0, static_cast<int64_t>(i) - 1))]);
  return items;
}

/// A random non-empty selection of `items` in random order (empty when `items` is).
template <class T>
std::vector<T> some_of(std::vector<T> items) {
  if (items.empty()) return items;
  items = shuffled(std::move(items));
  items.resize(static_cast<std::size_t>(any_in(1, static_cast<int64_t>(items.size()))));
  return items;
}

/// Whole mesh axes of size > 1 that `type` names nowhere (replicated axes).
inline std::vector<AxisRef> unused_axes(const Mesh& mesh, const DistType& type) {
  const auto used = used_axes(type);
  std::vector<AxisRef> out;
  for (const auto& axis : mesh.axes()) {
    const bool named = std::any_of(used.begin(), used.end(), [&](const AxisRef& a) { return a.name == axis.name; });
    if (axis.size > 1 && !named) out.push_back({axis.name, 1, axis.size, false});
  }
  return out;
}

/// A random dim index of `type`.
inline int any_dim(const DistType& type) { return static_cast<int>(any_in(0, static_cast<int64_t>(type.rank()) - 1)); }

/// Indices of the dims of `type` tiled over at least one axis.
inline std::vector<int> tiled_dims(const DistType& type) {
  std::vector<int> out;
  for (std::size_t i = 0; i < type.dims.size(); ++i)
    if (!type.dims[i].axes.empty()) out.push_back(static_cast<int>(i));
  return out;
}

/// Sets `dim`'s global size to tiles * factor * (1 or 2): its local size becomes a
/// multiple of `factor`, so `factor` more tiles still divide it.
inline void make_room(Dim& dim, int64_t factor) { dim.global = tile_count(dim) * factor * any_in(1, 2); }

/// A random suffix (at least one axis) of a tiled dim's axes.
inline std::vector<AxisRef> any_suffix(const Dim& dim) {
  const auto k = static_cast<std::size_t>(any_in(1, static_cast<int64_t>(dim.axes.size())));
  return {dim.axes.end() - static_cast<std::ptrdiff_t>(k), dim.axes.end()};
}

/// A random mesh with at least two devices (the first axis grows when all have size 1).
inline Mesh any_mesh() {
  Mesh mesh = full_size(gen_mesh());
  if (mesh.num_devices() > 1) return mesh;
  auto axes = mesh.axes();
  axes[0].size = any_in(2, 8);
  return Mesh::create(std::move(axes)).value();
}

/// A random mesh with at least two devices and a random type on it (global sizes at
/// most twice the tile counts).
inline TypedState any_state(TypeOptions opt = {}) {
  Mesh mesh = any_mesh();
  opt.max_multiple = 2;
  DistType type = full_size(gen_type(mesh, opt));
  return {std::move(mesh), std::move(type)};
}

/// An axis reference `type` does not use: a random replicated whole axis, else the
/// minor-most axis of a random tiled dim or the last reduction axis, taken out of the
/// type (a divisible type stays divisible). The mesh must have two devices or more.
inline AxisRef free_axis(const Mesh& mesh, DistType& type) {
  const auto spare = unused_axes(mesh, type);
  if (!spare.empty()) return one_of(spare);
  std::vector<std::vector<AxisRef>*> holders;
  for (auto& dim : type.dims)
    if (!dim.axes.empty()) holders.push_back(&dim.axes);
  if (!type.reduce_axes.empty()) holders.push_back(&type.reduce_axes);
  auto& from = *one_of(holders);
  AxisRef out = from.back();
  from.pop_back();
  return out;
}

/// A random tiled dim of `type`; when there is none, a random dim gets tiled by a free
/// axis first.
inline int any_tiled_dim(const Mesh& mesh, DistType& type) {
  const auto dims = tiled_dims(type);
  if (!dims.empty()) return one_of(dims);
  const int dim = any_dim(type);
  const AxisRef axis = free_axis(mesh, type);
  type.dims[static_cast<std::size_t>(dim)].axes.push_back(axis);
  make_room(type.dims[static_cast<std::size_t>(dim)], 1);
  return dim;
}

/// Sometimes writes the derived groups of a grouped step explicitly into it.
inline void maybe_explicit_groups(const TypedState& before, Step& step) {
  if (any_in(0, 2) == 0) step.groups = step_groups(before, step);
}

/// all_gather of a random suffix of a random tiled dim.
inline StepCase any_all_gather_case() {
  auto before = any_state({.reductions = *rc::gen::arbitrary<bool>()});
  const int dim = any_tiled_dim(before.mesh, before.type);
  Step step = make_step(AllGather{dim, any_suffix(before.type.dims[static_cast<std::size_t>(dim)])});
  maybe_explicit_groups(before, step);
  return {std::move(before), std::move(step)};
}

/// all_slice of a random dim by random replicated axes (in random order).
inline StepCase any_all_slice_case() {
  auto before = any_state({.reductions = *rc::gen::arbitrary<bool>()});
  auto axes = some_of(unused_axes(before.mesh, before.type));
  if (axes.empty()) axes.push_back(free_axis(before.mesh, before.type));
  const int dim = any_dim(before.type);
  make_room(before.type.dims[static_cast<std::size_t>(dim)], product_of_sizes(axes));
  Step step = make_step(AllSlice{dim, std::move(axes)});
  maybe_explicit_groups(before, step);
  return {std::move(before), std::move(step)};
}

/// all_to_all of a random suffix of a tiled dim into another dim (one is added when
/// the type has rank 1).
inline StepCase any_all_to_all_case() {
  auto before = any_state({.reductions = *rc::gen::arbitrary<bool>()});
  if (before.type.rank() == 1) before.type.dims.push_back({1, {}});
  const int src = any_tiled_dim(before.mesh, before.type);
  int dst = static_cast<int>(any_in(0, static_cast<int64_t>(before.type.rank()) - 2));
  if (dst >= src) ++dst;
  auto axes = any_suffix(before.type.dims[static_cast<std::size_t>(src)]);
  make_room(before.type.dims[static_cast<std::size_t>(dst)], product_of_sizes(axes));
  Step step = make_step(AllToAll{src, dst, std::move(axes)});
  maybe_explicit_groups(before, step);
  return {std::move(before), std::move(step)};
}

/// Swaps two equal-size axis references of `type`, at least one of them tiled (the
/// other tiled elsewhere or replicated); no change when there is no such pair.
inline void swap_equal_axes(const Mesh& mesh, DistType& type) {
  struct Slot {
    int dim;            // -1: a replicated axis
    std::size_t index;  // into the dim's axes, or into `spare`
  };
  auto spare = unused_axes(mesh, type);
  auto ref = [&](const Slot& s) -> AxisRef& {
    return s.dim < 0 ? spare[s.index] : type.dims[static_cast<std::size_t>(s.dim)].axes[s.index];
  };
  std::vector<Slot> slots;
  for (std::size_t i = 0; i < type.dims.size(); ++i)
    for (std::size_t k = 0; k < type.dims[i].axes.size(); ++k) slots.push_back({static_cast<int>(i), k});
  const std::size_t tiled = slots.size();
  for (std::size_t k = 0; k < spare.size(); ++k) slots.push_back({-1, k});
  std::vector<std::pair<Slot, Slot>> pairs;
  for (std::size_t a = 0; a < tiled; ++a)
    for (std::size_t b = a + 1; b < slots.size(); ++b)
      if (ref(slots[a]).size == ref(slots[b]).size) pairs.push_back({slots[a], slots[b]});
  if (pairs.empty()) return;
  const auto [a, b] = one_of(pairs);
  if (b.dim < 0) ref(a) = spare[b.index];
  else std::swap(ref(a), ref(b));
}

/// collective_permute to a random type with the same local shape: axes reordered within
/// a dim, equal-size axes swapped, and/or a shuffled device order (each sometimes).
/// Types may be non-divisible.
inline StepCase any_collective_permute_case() {
  auto before = any_state({.divisible = *rc::gen::arbitrary<bool>(), .reductions = *rc::gen::arbitrary<bool>()});
  CollectivePermute permute{before.type, std::nullopt};
  if (*rc::gen::arbitrary<bool>()) {
    auto& dim = permute.to.dims[static_cast<std::size_t>(any_dim(permute.to))];
    dim.axes = shuffled(dim.axes);
  }
  if (*rc::gen::arbitrary<bool>()) swap_equal_axes(before.mesh, permute.to);
  if (*rc::gen::arbitrary<bool>()) {
    std::vector<int64_t> order(static_cast<std::size_t>(before.mesh.num_devices()));
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int64_t>(i);
    permute.to_mesh = Mesh::create(before.mesh.axes(), shuffled(std::move(order))).value();
  }
  Step step = make_step(std::move(permute));
  if (any_in(0, 2) == 0) {
    if (const auto after = apply_step(before, step); after.ok()) step.pairs = permute_pairs(before, *after);
  }
  return {std::move(before), std::move(step)};
}

/// A random state with a pending reduction (random op).
inline TypedState any_reduction_state() {
  auto state = any_state({.reductions = true});
  if (state.type.reduce_axes.empty()) {
    const AxisRef axis = free_axis(state.mesh, state.type);
    state.type.reduce_axes.push_back(axis);
  }
  static const ReduceOp ops[] = {ReduceOp::sum, ReduceOp::max, ReduceOp::min};
  state.type.reduce_op = ops[any_in(0, 2)];
  return state;
}

/// reduce_scatter of random reduction axes (random order) into a random dim.
inline StepCase any_reduce_scatter_case() {
  auto before = any_reduction_state();
  auto axes = some_of(before.type.reduce_axes);
  const int dim = any_dim(before.type);
  make_room(before.type.dims[static_cast<std::size_t>(dim)], product_of_sizes(axes));
  Step step = make_step(ReduceScatter{dim, std::move(axes)});
  maybe_explicit_groups(before, step);
  return {std::move(before), std::move(step)};
}

/// all_reduce of random reduction axes (random order).
inline StepCase any_all_reduce_case() {
  auto before = any_reduction_state();
  Step step = make_step(AllReduce{some_of(before.type.reduce_axes)});
  maybe_explicit_groups(before, step);
  return {std::move(before), std::move(step)};
}

/// How a case's result is checked against the type after the step.
enum class Expect {
  exact,    // every device's buffer equals distribute(after), padding included
  reduced,  // compare(after) finds no mismatch (the summands of a reduction differ)
};

/// Runs the case's step on distribute(before) and checks every element of every device
/// against the type after the step. Discards cases over kMaxWork.
inline void check_step_case(const StepCase& c, Expect expect) {
  RC_LOG() << describe(c) << "\n";
  const auto after = apply_step(c.before, c.step);
  if (!after.ok()) RC_FAIL("apply_step refused a well-typed step: " + after.error().to_string());
  RC_PRE(work(c.before.mesh, c.before.type) <= kMaxWork && work(after->mesh, after->type) <= kMaxWork);
  const auto out = run_step(c.before, c.step, distribute(c.before.mesh, c.before.type));
  if (!out.ok()) RC_FAIL("run_step failed: " + out.error().to_string());
  if (const auto m = compare(after->mesh, after->type, *out))
    RC_FAIL("result differs from " + to_string(after->type) + ": " + m->to_string());
  if (expect == Expect::exact) {
    const auto expected = distribute(after->mesh, after->type);
    for (std::size_t d = 0; d < expected.size(); ++d) {
      if ((*out)[d] != expected[d])
        RC_FAIL("device " + std::to_string(d) + " differs from distribute(" + to_string(after->type) + ")");
    }
  }
}

}  // namespace redist::testing
