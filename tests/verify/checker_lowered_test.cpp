// Each lowered step's SMT constraint (step_relations.cpp, the checker's trusted base)
// materialized on small meshes agrees with what the interpreter does. For every
// device and local index after a step, Z3 enumerates every location before the step
// that the relation links to it (all solutions, blocking each model); the interpreter
// runs the step once per source device with only that device's buffer marked (value
// = 1 + flat index, zeros elsewhere), so an element after the step shows exactly
// which marked elements moved or were combined into it. The two sets must be equal
// on every device and index: a wrong member order, offset, pair or group in either
// the encoding or the interpreter fails here.

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <numeric>
#include <set>

#include "encoding.hpp"
#include "redist/core/semantics.hpp"
#include "redist/plan/lowered.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/verify/interpreter.hpp"
#include "step_relations.hpp"
#include "tests/synth/plan_gen.hpp"

namespace redist::testing {
namespace {

/// (device, flat local index).
using Spot = std::pair<int64_t, int64_t>;
/// For every location after a step, the locations before it that feed it.
using Movement = std::map<Spot, std::set<Spot>>;

int64_t elements(const std::vector<int64_t>& shape) {
  return std::accumulate(shape.begin(), shape.end(), int64_t{1}, std::multiplies<>());
}

std::vector<int64_t> unflatten(int64_t flat, const std::vector<int64_t>& shape) {
  std::vector<int64_t> index(shape.size(), 0);
  for (std::size_t i = shape.size(); i-- > 0;) {
    index[i] = flat % shape[i];
    flat /= shape[i];
  }
  return index;
}

/// The interpreter's movement of step `step` from `before`.
Movement interpreted(const TypedState& before, const Step& step) {
  const auto shape = local_shape(before.type);
  const int64_t n = before.mesh.num_devices();
  Movement out;
  for (int64_t p = 0; p < n; ++p) {
    MeshData data(static_cast<std::size_t>(n));
    for (int64_t d = 0; d < n; ++d) {
      data[static_cast<std::size_t>(d)].shape = shape;
      data[static_cast<std::size_t>(d)].values.assign(static_cast<std::size_t>(elements(shape)), 0);
    }
    auto& marked = data[static_cast<std::size_t>(p)].values;
    std::iota(marked.begin(), marked.end(), int64_t{1});
    auto after = run_step(before, step, data);
    RC_ASSERT(after.ok());
    for (int64_t d = 0; d < n; ++d) {
      const auto& values = (*after)[static_cast<std::size_t>(d)].values;
      for (std::size_t f = 0; f < values.size(); ++f) {
        out[{d, static_cast<int64_t>(f)}];
        // 0: another device's element; kPadding: padding the step made (a padded chunk);
        // past the marks: an add_pending's identity (INT64_MAX for min), which feeds nothing.
        if (values[f] > 0 && values[f] <= static_cast<int64_t>(marked.size()))
          out[{d, static_cast<int64_t>(f)}].insert({p, values[f] - 1});
      }
    }
  }
  return out;
}

/// The movement the SMT relation of `step` allows, enumerated with Z3.
Movement materialized(const LoweredStep& step) {
  smt::Query q;
  const LoweredPlan alone{step.before, {step}};
  smt::Encoding enc(q, alone, step.after);
  const smt::Location b = enc.location(step.before, "b"), a = enc.location(step.after, "a");
  const z3::expr relation = smt::relate(enc, step, b, a);
  z3::solver solver(q.ctx());
  for (const auto& group : q.groups())
    for (const auto& fact : group.second) solver.add(fact);
  solver.add(relation);
  std::vector<z3::expr> b_terms;
  for (std::size_t i = 0; i < step.before.mesh.rank(); ++i) b_terms.push_back(enc.axis_value(b.device, i));
  b_terms.insert(b_terms.end(), b.index.begin(), b.index.end());

  const auto shape_a = local_shape(step.after.type), shape_b = local_shape(step.before.type);
  Movement out;
  for (int64_t d = 0; d < step.after.mesh.num_devices(); ++d) {
    const Coords coords = step.after.mesh.coords_of_device(d);
    for (int64_t f = 0; f < elements(shape_a); ++f) {
      const auto index = unflatten(f, shape_a);
      solver.push();
      for (std::size_t i = 0; i < coords.size(); ++i) solver.add(enc.axis_value(a.device, i) == enc.num(coords[i]));
      for (std::size_t i = 0; i < index.size(); ++i) solver.add(a.index[i] == enc.num(index[i]));
      auto& feeds = out[{d, f}];
      while (solver.check() == z3::sat) {
        const auto v = smt::values_in(solver.get_model(), b_terms);
        const Coords bc(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(step.before.mesh.rank()));
        const std::vector<int64_t> bi(v.begin() + static_cast<std::ptrdiff_t>(step.before.mesh.rank()), v.end());
        // A read past the end of the buffer is padding (a padded slice or all_to_all
        // chunk): it feeds nothing, as the interpreter's padding does; G1 refuses it
        // for a real target slot.
        int64_t flat = 0;
        bool inside = true;
        for (std::size_t i = 0; i < bi.size(); ++i) {
          RC_ASSERT(bi[i] >= 0);  // never a read before the buffer
          inside = inside && bi[i] < shape_b[i];
          flat = flat * shape_b[i] + bi[i];
        }
        if (inside) feeds.insert({step.before.mesh.device_at_coords(bc), flat});
        z3::expr_vector same(q.ctx());
        for (std::size_t i = 0; i < v.size(); ++i) same.push_back(b_terms[i] == enc.num(v[i]));
        solver.add(!z3::mk_and(same));
        RC_ASSERT(feeds.size() <= static_cast<std::size_t>(step.before.mesh.num_devices()));
      }
      solver.pop();
    }
  }
  return out;
}

RC_GTEST_PROP(CheckerLowered, EachStepsConstraintMovesWhatTheInterpreterMoves, ()) {
  const Plan plan = *gen_plan(3);
  RC_PRE(plan.mesh.num_devices() <= 8);
  auto lowered = lower(plan);
  RC_ASSERT(lowered.ok());
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const LoweredStep& step = lowered->steps[k];
    RC_PRE(elements(local_shape(step.before.type)) <= 32 && elements(local_shape(step.after.type)) <= 32);
    RC_LOG() << "step " << k + 1 << " of\n" << to_string(plan) << "\n";
    RC_ASSERT(materialized(step) == interpreted(step.before, plan.steps[k]));
  }
}

RC_GTEST_PROP(CheckerLowered, AddPendingConstraintMovesWhatTheInterpreterMoves, ()) {
  // add_pending is not among the random walks' steps (gen_plan): fixed cases, each op.
  static const char* plans[] = {
      "mesh {x:2, y:2}\nsource f32[{x}4, 2]\nadd_pending(axes={y}, op=sum)\n",
      "mesh {x:2, y:2}\nsource f32[4, 2]\nadd_pending(axes={y,x}, op=max)\n",
      "mesh {x:4}\nsource s32[{x:(1)2}4]\nadd_pending(axes={x:(2)2}, op=min)\n",
      "mesh {x:2, y:2}\nsource f32[2, 4] min{x}\nadd_pending(axes={y}, op=min)\n",
  };
  for (const char* text : plans) {
    auto plan = parse_plan(text);
    RC_ASSERT(plan.ok());
    auto lowered = lower(*plan);
    RC_ASSERT(lowered.ok());
    RC_LOG() << text << "\n";
    RC_ASSERT(materialized(lowered->steps[0]) == interpreted(lowered->steps[0].before, plan->steps[0]));
  }
}

TEST(CheckerLowered, IllTypedPlanIsAnError) {
  Plan plan;
  plan.mesh = *parse_mesh("{x:2}");
  plan.source = *parse_type("f32[{x}4]", plan.mesh);
  plan.steps.push_back({AllSlice{0, {{"x", 1, 2, false}}}, std::nullopt, std::nullopt});
  EXPECT_FALSE(lower(plan).ok());
}

}  // namespace
}  // namespace redist::testing
