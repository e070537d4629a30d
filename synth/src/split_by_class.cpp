// split_by_link_class() (split_by_class.hpp): each all_gather on the slow link, and
// each permute or all_to_all before anything is received, is compared with its split
// forms step by step. Every split state holds no more than the step's own result (slices shrink,
// all_to_alls and permutes keep the size, gathers grow it up to the result), so the
// bound still holds.

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

/// `steps` applied from `before` and priced; nullopt when one does not type, they do
/// not end at `after`, or they pad a dim where neither end is padded (a slice by axes
/// that do not divide it: its shards would differ in size).
std::optional<Steps> priced(const CostModel& model, const TypedState& before, const TypedState& after,
                            std::vector<Step> steps) {
  Steps out{std::move(steps), 0};
  TypedState at = before;
  const bool even = !has_padding(before.type) && !has_padding(after.type);
  for (const auto& step : out.steps) {
    auto next = apply_step(at, step);
    if (!next || (even && has_padding(next->type))) return std::nullopt;
    out.time_us += step_cost(model, at, *next, step).time_us;
    at = std::move(*next);
  }
  if (canonical(at.type, at.mesh) != canonical(after.type, after.mesh)) return std::nullopt;
  return out;
}

/// Keeps `candidate` in `best` when it is cheaper (or `best` is empty).
void keep_cheaper(std::optional<Steps>& best, std::optional<Steps> candidate) {
  if (candidate && (!best || candidate->time_us < best->time_us)) best = std::move(candidate);
}


/// The whole mesh axes of the faster class that `type` leaves replicated, in mesh order.
std::vector<AxisRef> free_fast_axes(const CostModel& model, const Mesh& mesh, const DistType& type) {
  const LinkClass slow = slow_class(model);
  const auto used = used_axes(type);
  std::vector<AxisRef> out;
  for (const auto& axis : mesh.axes())
    if (axis.size >= 2 && model.class_of(axis.name) != slow &&
        std::none_of(used.begin(), used.end(), [&](const AxisRef& u) { return u.name == axis.name; }))
      out.push_back(make_axis_ref(axis.name, 1, axis.size, axis.size));
  return out;
}

/// Ways to take factors of total size `size` out of the whole replicated axes `fast`:
/// (taken, the rest of that axis), the major or the minor part of one axis, or all of it.
std::vector<std::pair<AxisRef, std::vector<AxisRef>>> fast_factors(const std::vector<AxisRef>& fast, int64_t size) {
  std::vector<std::pair<AxisRef, std::vector<AxisRef>>> out;
  for (const auto& a : fast) {
    if (a.size == size) out.push_back({a, {}});
    if (a.size <= size || a.size % size != 0) continue;
    const int64_t rest = a.size / size;
    out.push_back({make_axis_ref(a.name, 1, size, a.size), {make_axis_ref(a.name, size, rest, a.size)}});
    out.push_back({make_axis_ref(a.name, rest, size, a.size), {make_axis_ref(a.name, 1, rest, a.size)}});
  }
  return out;
}

/// `type` with dim `dim`'s axes replaced by `axes`.
DistType with_dim_axes(DistType type, int dim, std::vector<AxisRef> axes) {
  type.dims[static_cast<std::size_t>(dim)].axes = std::move(axes);
  return type;
}

/// The hierarchical forms of `gather` (hierarchical all-gathers, as NCCL's do across
/// nodes): its slow axes S exchanged by a permute for as many fast replicated ones F1,
/// so the gather runs on the fast link; where nothing was received yet (`may_slice`),
/// the dim first sliced by fast replicated axes F2 (the rest of F1's axis, the other
/// fast axes, or both), so the permute, the only step on the slow link, moves 1/|F2| of
/// the buffer. On {x:3 inter, y:6}, f32[{x}N] -> f32[N]: all_slice(axes={y:(3)2}),
/// collective_permute(to=f32[{y:(1)3,y:(3)2}N]), all_gather(axes={y:(1)3,y:(3)2}): N/6
/// per device on the slow link instead of 2N/3.
template <class Offer>
void offer_hierarchical(const CostModel& model, const TypedState& before, const AllGatherPart& gather, bool may_slice,
                        Offer offer) {
  const LinkClass slow = slow_class(model);
  std::vector<AxisRef> kept;  // the gather's axes on the fast link, in order
  int64_t slow_size = 1;
  std::size_t first_slow = gather.axes.size();
  for (const auto& a : gather.axes) {
    if (model.class_of(a.name) != slow) {
      kept.push_back(a);
      continue;
    }
    slow_size *= a.size;
    first_slow = std::min(first_slow, kept.size());
  }
  if (slow_size == 1) return;
  const auto& axes = before.type.dims[static_cast<std::size_t>(gather.dim)].axes;
  const std::vector<AxisRef> prefix(axes.begin(), axes.end() - static_cast<std::ptrdiff_t>(gather.axes.size()));
  const auto fast = free_fast_axes(model, before.mesh, before.type);
  for (const auto& [f1, rest] : fast_factors(fast, slow_size)) {
    std::vector<AxisRef> others;  // the other whole fast axes
    for (const auto& a : fast)
      if (a.name != f1.name) others.push_back(a);
    std::vector<std::vector<AxisRef>> slices{{}};
    if (may_slice) {
      std::vector<AxisRef> all = rest;
      all.insert(all.end(), others.begin(), others.end());
      for (const auto& f2 : {rest, others, all})
        if (!f2.empty() && std::find(slices.begin(), slices.end(), f2) == slices.end()) slices.push_back(f2);
    }
    for (const auto& f2 : slices) {
      // In the dim's order, F2 stays where the slice put it (minor), so the permute's
      // pairs differ along S and F1 only.
      std::vector<AxisRef> q = kept;
      q.insert(q.begin() + static_cast<std::ptrdiff_t>(first_slow), f1);
      q.insert(q.end(), f2.begin(), f2.end());
      std::vector<AxisRef> to = prefix;
      to.insert(to.end(), q.begin(), q.end());
      std::vector<Step> steps;
      if (!f2.empty()) steps.emplace_back(AllSlice{gather.dim, f2});
      steps.emplace_back(CollectivePermute{with_dim_axes(before.type, gather.dim, std::move(to)), std::nullopt});
      steps.emplace_back(AllGather{gather.dim, std::move(q)});
      offer(std::move(steps));
    }
  }
}

/// The cheapest split form of `gather` from `before` to `after`; nullopt when there is
/// none. Where nothing has been received yet (`may_slice`), the forms include slicing
/// another dim by the fast axes the array is replicated on, so the slow gather moves a
/// part of it.
std::optional<Steps> cheapest_split(const CostModel& model, const TypedState& before, const TypedState& after,
                                    const AllGatherPart& gather, bool may_slice) {
  std::optional<Steps> best;
  auto offer = [&](std::vector<Step> steps) { keep_cheaper(best, priced(model, before, after, std::move(steps))); };
  if (may_slice)
    if (const auto fast = free_fast_axes(model, before.mesh, before.type); !fast.empty())
      for (int other = 0; other < static_cast<int>(before.type.rank()); ++other)
        if (other != gather.dim)
          offer({Step(AllSlice{other, fast}), Step(AllGather{gather.dim, gather.axes}), Step(AllGather{other, fast})});
  offer_hierarchical(model, before, gather, may_slice, offer);
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

/// The fast factors replicated both before and after a step: each overlap of a free
/// factor before with one after (y:(2)2 of y:4 when y:(1)2 is used on either side).
std::vector<AxisRef> fast_free_both(const CostModel& model, const TypedState& before, const TypedState& after) {
  std::vector<AxisRef> fast;
  const LinkClass slow = slow_class(model);
  const auto free_after = free_axes(after.mesh, after.type);
  for (const auto& a : free_axes(before.mesh, before.type)) {
    if (model.class_of(a.name) == slow) continue;
    for (const auto& b : free_after) {
      const int64_t lo = std::max(a.pre, b.pre), hi = std::min(a.pre * a.size, b.pre * b.size);
      const int64_t n = before.mesh.axis_size(*before.mesh.axis_index(a.name));
      if (b.name == a.name && hi % lo == 0 && n % hi == 0 && hi / lo >= 2) fast.push_back(make_axis_ref(a.name, lo, hi / lo, n));
    }
  }
  return fast;
}

/// The factor sets a step may be shrunk by: all of `fast`, each one alone, and the
/// major or minor part of one (y:(1)3 or y:(2)3 of y:6: a slice by all of y may not
/// divide the dim where a part does).
std::vector<std::vector<AxisRef>> shrink_choices(const Mesh& mesh, const std::vector<AxisRef>& fast) {
  std::vector<std::vector<AxisRef>> choices{fast};
  if (fast.size() > 1)
    for (const auto& a : fast) choices.push_back({a});
  for (const auto& a : fast) {
    const int64_t n = mesh.axis_size(*mesh.axis_index(a.name));
    for (int64_t p = 2; p < a.size; ++p)
      if (a.size % p == 0) {
        choices.push_back({make_axis_ref(a.name, a.pre, p, n)});
        choices.push_back({make_axis_ref(a.name, a.pre * (a.size / p), p, n)});
      }
  }
  return choices;
}

/// The cheapest shrunk form of `permute` from `before` to `after`, where nothing was
/// received yet: another dim first sliced by fast factors replicated on both sides, so the
/// permute moves a part of the buffer, and gathered back on the fast link after (on the
/// permute's new device order where it changes it: that permute runs at the slowest
/// class). On {x:8 inter, y:4}, f32[{x:(1)2}N, M] -> f32[{x:(2)2}N, M] (pairs differ
/// along x): all_slice(dim=1, axes={y}), the permute, all_gather(dim=1, axes={y}).
std::optional<Steps> cheapest_shrunk_permute(const CostModel& model, const TypedState& before,
                                             const TypedState& after, const CollectivePermute& permute) {
  const auto fast = fast_free_both(model, before, after);
  if (fast.empty()) return std::nullopt;
  std::optional<Steps> best;
  for (int dim = 0; dim < static_cast<int>(before.type.rank()); ++dim)
    for (const auto& f : shrink_choices(before.mesh, fast)) {
      auto to = after.type.dims[static_cast<std::size_t>(dim)].axes;
      to.insert(to.end(), f.begin(), f.end());
      CollectivePermute shrunk{with_dim_axes(after.type, dim, std::move(to)), permute.to_mesh};
      keep_cheaper(best, priced(model, before, after,
                                {Step(AllSlice{dim, f}), Step(std::move(shrunk)), Step(AllGather{dim, f})}));
    }
  return best;
}

/// The cheapest shrunk form of `a2a` from `before` to `after`, where nothing was received
/// yet: a dim the exchange does not touch first sliced by fast factors replicated on both
/// sides, so the exchange moves a part of the buffer, and gathered back on the fast link
/// after. On {x:16 inter, y:4, z:2}, bf16[8, {x}384, 512, 32] -> bf16[8, 384, {x}512, 32]:
/// all_slice(dim=0, axes={y,z}), the all_to_all over x on an eighth, all_gather(dim=0).
std::optional<Steps> cheapest_shrunk_all_to_all(const CostModel& model, const TypedState& before,
                                                const TypedState& after, const AllToAll& a2a) {
  const auto fast = fast_free_both(model, before, after);
  if (fast.empty()) return std::nullopt;
  std::optional<Steps> best;
  for (int dim = 0; dim < static_cast<int>(before.type.rank()); ++dim) {
    if (std::any_of(a2a.moves.begin(), a2a.moves.end(),
                    [dim](const AllToAllMove& m) { return m.src_dim == dim || m.dst_dim == dim; }))
      continue;
    for (const auto& f : shrink_choices(before.mesh, fast))
      keep_cheaper(best, priced(model, before, after, {Step(AllSlice{dim, f}), Step(a2a), Step(AllGather{dim, f})}));
  }
  return best;
}

/// Appends `step` to `steps`, as part of the last step when both slice one dim (one
/// all_slice(dim, {a,b}) is all_slice(dim, {a}) then all_slice(dim, {b})).
void append_step(std::vector<Step>& steps, Step step) {
  const auto* slice = std::get_if<AllSlice>(&step.op);
  auto* last = steps.empty() ? nullptr : std::get_if<AllSlice>(&steps.back().op);
  if (slice && last && last->dim == slice->dim && !step.groups && !steps.back().groups) {
    last->axes.insert(last->axes.end(), slice->axes.begin(), slice->axes.end());
    return;
  }
  steps.push_back(std::move(step));
}

}  // namespace

LinkClass slow_class(const CostModel& model) {
  return model.intra.bandwidth_gbps >= model.inter.bandwidth_gbps ? LinkClass::inter : LinkClass::intra;
}

std::optional<Plan> split_by_link_class(const CostModel& model, const Plan& plan,
                                        const std::vector<TypedState>& states) {
  if (model.intra == model.inter) return std::nullopt;
  // Built at the first split (most plans have none).
  std::optional<Plan> out;
  bool received = false;
  const TypedState source{plan.mesh, plan.source};
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const Step& step = plan.steps[k];
    const TypedState& before = k == 0 ? source : states[k - 1];
    std::optional<Steps> parts;
    if (const auto* gather = std::get_if<AllGather>(&step.op); gather && gather->parts.size() == 1 && !step.groups)
      parts = cheapest_split(model, before, states[k], gather->parts[0], !received);
    if (const auto* permute = std::get_if<CollectivePermute>(&step.op);
        permute && !step.pairs && !received)
      parts = cheapest_shrunk_permute(model, before, states[k], *permute);
    if (const auto* a2a = std::get_if<AllToAll>(&step.op); a2a && !step.groups && !received)
      parts = cheapest_shrunk_all_to_all(model, before, states[k], *a2a);
    received = received || !std::holds_alternative<AllSlice>(step.op);
    if (parts && parts->time_us < step_cost(model, before, states[k], step).time_us) {
      if (!out) {
        out = Plan{plan.mesh, plan.source, {}, plan.target};
        for (std::size_t i = 0; i < k; ++i) append_step(out->steps, plan.steps[i]);
      }
      for (auto& s : parts->steps) append_step(out->steps, std::move(s));
    } else if (out) {
      append_step(out->steps, step);
    }
  }
  return out;
}

}  // namespace redist::synth_detail
