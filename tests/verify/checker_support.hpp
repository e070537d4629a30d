#pragma once
// Helpers of the checker's tests: plans from text, checking, and confirming a
// counterexample on real data with the concrete interpreter.

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "redist/core/semantics.hpp"
#include "redist/plan/lowered.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/verify/checker.hpp"
#include "redist/verify/interpreter.hpp"

namespace redist::testing {

/// The plan `text` denotes; throws (failing the test) when it does not parse.
inline Plan plan_of(std::string_view text) {
  auto plan = parse_plan(text);
  if (!plan.ok()) throw std::runtime_error("bad plan: " + plan.error().to_string() + "\n" + std::string(text));
  return *plan;
}

/// check_plan on `text`; throws when the plan is rejected.
inline CheckReport check_text(std::string_view text, CheckOptions options = {}) {
  auto report = check_plan(plan_of(text), options);
  if (!report.ok()) throw std::runtime_error("check failed: " + report.error().to_string());
  return *report;
}

/// The final state of `plan` (its last step's type, or the source).
inline TypedState final_state(const LoweredPlan& plan) {
  return plan.steps.empty() ? plan.source : plan.steps.back().after;
}

/// A 40-bit hash of summand r of the element with value `element`: sums of up to 2^23
/// of them cannot overflow, and a doubled, missing or foreign summand changes a sum
/// except with probability about 2^-40.
inline int64_t summand_hash(int64_t element, int64_t r) {
  uint64_t z = static_cast<uint64_t>(element) * 0x9E3779B97F4A7C15ull + static_cast<uint64_t>(r) + 1;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return static_cast<int64_t>((z ^ (z >> 31)) >> 24);
}

/// Buffers of `type` in which the device at position r on the reduction axes holds
/// summand_hash(element, r) for every element: the interpreter's sums (reduce_scatter,
/// all_reduce with op sum) then show whether each summand was combined exactly once.
inline MeshData distinct_summands(const Mesh& mesh, const DistType& type) {
  MeshData data(static_cast<std::size_t>(mesh.num_devices()));
  const auto shape = local_shape(type);
  for (int64_t d = 0; d < mesh.num_devices(); ++d) {
    const Coords coords = mesh.coords_of_device(d);
    const int64_t r = mixed_radix_index(mesh, coords, type.reduce_axes);
    LocalBuffer& b = data[static_cast<std::size_t>(d)];
    b.shape = shape;
    std::vector<int64_t> local(shape.size(), 0);
    const int64_t count = std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<>());
    for (int64_t k = 0; k < count; ++k) {
      const auto global = local_to_global(mesh, type, coords, local);
      b.values.push_back(global ? summand_hash(element_value(type, *global), r) : kPadding);
      for (std::size_t i = shape.size(); i-- > 0;) {
        if (++local[i] < shape[i]) break;
        local[i] = 0;
      }
    }
  }
  return data;
}

/// True when, at local index `local`, the sum over the reduction group of `device`
/// under `target` is not the sum of every summand of `source` of the element `target`
/// prescribes there (data made by distinct_summands(source)); false in padding.
inline bool summands_wrong_at(const Mesh& mesh, const DistType& source, const DistType& target, const MeshData& data,
                              int64_t device, const std::vector<int64_t>& local) {
  const Coords coords = mesh.coords_of_device(device);
  const auto global = local_to_global(mesh, target, coords, local);
  if (!global) return false;
  int64_t held = 0, wanted = 0;
  for (int64_t p : group_positions(mesh, coords, target.reduce_axes)) {
    const auto& b = data[static_cast<std::size_t>(mesh.device_at(p))];
    int64_t flat = 0;
    for (std::size_t i = 0; i < local.size(); ++i) flat = flat * b.shape[i] + local[i];
    held += b.values[static_cast<std::size_t>(flat)];
  }
  for (int64_t r = 0; r < product_of_sizes(source.reduce_axes); ++r) wanted += summand_hash(element_value(target, *global), r);
  return held != wanted;
}

/// Empty when the interpreter, running `plan` on the source data, shows the element
/// at `ce` (device, local index) to differ from what `target` prescribes there, and to
/// be the source element `ce.actual_global` when it names one (with a pending
/// reduction: the device's reduction group not to hold each summand there once); else
/// why not.
inline std::string confirm_on_data(const Plan& plan, const TypedState& target, const Counterexample& ce) {
  const bool sums = !plan.source.reduce_axes.empty();
  auto data = run_plan(plan, sums ? distinct_summands(plan.mesh, plan.source) : distribute(plan.mesh, plan.source));
  if (!data.ok()) return "the interpreter cannot run the plan: " + data.error().to_string();
  const auto& buffer = (*data)[static_cast<std::size_t>(ce.device)];
  if (buffer.shape != local_shape(target.type)) return "";  // wrong shape: wrong everywhere
  if (ce.local_index.empty()) return "the buffer has the target's shape";
  if (sums)
    return summands_wrong_at(target.mesh, plan.source, target.type, *data, ce.device, ce.local_index)
               ? ""
               : "the interpreter finds every summand of the element there once";
  int64_t flat = 0;
  for (std::size_t i = 0; i < ce.local_index.size(); ++i) flat = flat * buffer.shape[i] + ce.local_index[i];
  const int64_t got = buffer.values[static_cast<std::size_t>(flat)];
  if (got == element_value(target.type, ce.expected_global)) return "the interpreter finds the expected element there";
  if (ce.actual_global && !ce.actual_global->empty() && got != element_value(plan.source, *ce.actual_global))
    return "the interpreter finds " + std::to_string(got) + ", not the source element the counterexample names";
  return "";
}

/// Returns the G1 counterexample of the plan `text` (which names its target) after
/// expecting G1 refuted and the interpreter to confirm the counterexample on data;
/// nullopt (with a failure recorded) when there is none.
inline std::optional<Counterexample> refuted_and_confirmed(std::string_view text) {
  const auto r = check_text(text);
  EXPECT_EQ(r.correct.verdict, Verdict::refuted) << r.correct.detail;
  if (!r.correct.counterexample) {
    ADD_FAILURE() << "no counterexample: " << r.correct.detail;
    return std::nullopt;
  }
  const Counterexample& ce = *r.correct.counterexample;
  const Plan plan = plan_of(text);
  EXPECT_EQ(confirm_on_data(plan, {plan.mesh, *plan.target}, ce), "") << ce.to_string();
  return ce;
}

}  // namespace redist::testing
