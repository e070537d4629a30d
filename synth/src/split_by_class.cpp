// split_by_link_class() (split_by_class.hpp): each mixed-class all_gather is compared
// with its split forms step by step. Every split state holds no more than the gather's
// own result (all_to_alls keep the size, gathers grow it), so the bound still holds.

#include "split_by_class.hpp"

#include <algorithm>

namespace redist::synth_detail {

namespace {

/// The runs of `axes` whose axes share a link class under `model`, major first.
std::vector<std::vector<AxisRef>> class_runs(const CostModel& model, const std::vector<AxisRef>& axes) {
  std::vector<std::vector<AxisRef>> runs;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (i == 0 || model.class_of(axes[i].name) != model.class_of(axes[i - 1].name)) runs.emplace_back();
    runs.back().push_back(axes[i]);
  }
  return runs;
}

/// A sequence of steps and its modeled time.
struct Steps {
  std::vector<Step> steps;
  double time_us = 0;
};

/// `steps` applied from `before` and priced; nullopt when one does not type or they do
/// not end at `after`.
std::optional<Steps> priced(const CostModel& model, const TypedState& before, const TypedState& after,
                            std::vector<Step> steps) {
  Steps out{std::move(steps), 0};
  TypedState at = before;
  for (const auto& step : out.steps) {
    auto next = apply_step(at, step);
    if (!next) return std::nullopt;
    out.time_us += step_cost(model, at, *next, step).time_us;
    at = std::move(*next);
  }
  if (canonical(at.type, at.mesh) != canonical(after.type, after.mesh)) return std::nullopt;
  return out;
}

/// The whole mesh axes of the faster class that `type` leaves replicated, in mesh order.
std::vector<AxisRef> free_fast_axes(const CostModel& model, const Mesh& mesh, const DistType& type) {
  const LinkClass fast = model.intra.bandwidth_gbps >= model.inter.bandwidth_gbps ? LinkClass::intra : LinkClass::inter;
  const auto used = used_axes(type);
  std::vector<AxisRef> out;
  for (const auto& axis : mesh.axes())
    if (axis.size >= 2 && model.class_of(axis.name) == fast &&
        std::none_of(used.begin(), used.end(), [&](const AxisRef& u) { return u.name == axis.name; }))
      out.push_back(make_axis_ref(axis.name, 1, axis.size, axis.size));
  return out;
}

/// The cheapest split form of `gather` from `before` to `after`; nullopt when there is
/// none. Where nothing has been received yet (`may_slice`), the forms include slicing
/// another dim by the fast axes the array is replicated on, so the slow gather moves a
/// part of it.
std::optional<Steps> cheapest_split(const CostModel& model, const TypedState& before, const TypedState& after,
                                    const AllGather& gather, bool may_slice) {
  std::optional<Steps> best;
  auto offer = [&](std::vector<Step> steps) {
    if (auto s = priced(model, before, after, std::move(steps)); s && (!best || s->time_us < best->time_us))
      best = std::move(s);
  };
  if (may_slice)
    if (const auto fast = free_fast_axes(model, before.mesh, before.type); !fast.empty())
      for (int other = 0; other < static_cast<int>(before.type.rank()); ++other)
        if (other != gather.dim)
          offer({Step(AllSlice{other, fast}), Step(AllGather{gather.dim, gather.axes}), Step(AllGather{other, fast})});
  const auto runs = class_runs(model, gather.axes);
  if (runs.size() < 2) return best;
  // One gather per run, minor first.
  std::vector<Step> per_run;
  for (auto run = runs.rbegin(); run != runs.rend(); ++run) per_run.emplace_back(AllGather{gather.dim, *run});
  offer(std::move(per_run));
  // The minor runs from `i` on set aside in another dim, the major ones gathered first.
  for (std::size_t i = 1; i < runs.size(); ++i) {
    std::vector<AxisRef> major, minor;
    for (std::size_t r = 0; r < runs.size(); ++r) {
      auto& part = r < i ? major : minor;
      part.insert(part.end(), runs[r].begin(), runs[r].end());
    }
    for (int other = 0; other < static_cast<int>(before.type.rank()); ++other)
      if (other != gather.dim)
        offer({Step(AllToAll{gather.dim, other, minor}), Step(AllGather{gather.dim, major}),
               Step(AllGather{other, minor})});
  }
  return best;
}

}  // namespace

std::optional<Plan> split_by_link_class(const CostModel& model, const Plan& plan,
                                        const std::vector<TypedState>& states) {
  if (model.intra == model.inter) return std::nullopt;
  Plan out{plan.mesh, plan.source, {}, plan.target};
  bool split = false, received = false;
  TypedState before{plan.mesh, plan.source};
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const Step& step = plan.steps[k];
    std::optional<Steps> parts;
    if (const auto* gather = std::get_if<AllGather>(&step.op); gather && !step.groups)
      parts = cheapest_split(model, before, states[k], *gather, !received);
    received = received || !std::holds_alternative<AllSlice>(step.op);
    if (parts && parts->time_us < step_cost(model, before, states[k], step).time_us) {
      for (auto& s : parts->steps) out.steps.push_back(std::move(s));
      split = true;
    } else {
      out.steps.push_back(step);
    }
    before = states[k];
  }
  if (!split) return std::nullopt;
  return out;
}

}  // namespace redist::synth_detail
