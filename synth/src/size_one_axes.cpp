// Size-1 axes put back into a plan found without them (size_one_axes.hpp).

#include "size_one_axes.hpp"

#include <algorithm>
#include <utility>

#include "factors.hpp"
#include "redist/plan/typing.hpp"
#include "synth_scope.hpp"

namespace redist::synth_detail {

namespace {

using Refs = std::vector<AxisRef>;

bool size_one(const AxisRef& ref) { return ref.size == 1; }

/// Returns `dim` (a dim's axes, size-1 ones among them) split where the suffix `moved`
/// (axes of size 2 or more) starts: the axes before that point, and those from it on,
/// the size-1 ones there included; nullopt where `moved` is no suffix of `dim`'s axes
/// of size 2 or more. Example: {a,v,x,w} on x:4 with v and w of size 1, moved
/// {x:(2)2}: {a,v,x:(1)2} and {x:(2)2,w}. Adjacent parts of one axis are merged first: {y:(1)2,y:(2)3} is y, whose
/// minor part y:(3)2 is a suffix.
std::optional<std::pair<Refs, Refs>> split_at(const Refs& dim, const Refs& moved, const Mesh& mesh) {
  const Factors have = merged(factors_of(dim, mesh)), want = factors_of(moved, mesh);
  if (want.empty()) return std::nullopt;
  const Factor& first = want.front();
  for (std::size_t j = 0; j < have.size(); ++j) {
    const Factor& f = have[j];
    if (f.size == 1 || f.axis != first.axis || first.pre < f.pre || first.pre >= f.end() ||
        first.pre % f.pre != 0 || f.end() % first.pre != 0)
      continue;
    Factors before(have.begin(), have.begin() + static_cast<std::ptrdiff_t>(j)), after;
    if (first.pre > f.pre) before.push_back({f.axis, f.pre, first.pre / f.pre});
    after.push_back({f.axis, first.pre, f.end() / first.pre});
    after.insert(after.end(), have.begin() + static_cast<std::ptrdiff_t>(j) + 1, have.end());
    Factors tiling;  // what the split-off part tiles by
    for (const auto& g : after)
      if (g.size > 1) tiling.push_back(g);
    if (merged(tiling) != merged(want)) return std::nullopt;
    return std::pair{refs_of(before, mesh), refs_of(after, mesh)};
  }
  return std::nullopt;
}

/// Returns `step` (of a plan without size-1 axes) as it runs from `type`: each suffix
/// it moves or gathers with the size-1 axes after its start (a permute drops them);
/// nullopt for a reduction step, or where a suffix is not there.
std::optional<Step> carried(Step step, DistType type, const Mesh& mesh) {
  if (std::holds_alternative<AllSlice>(step.op) || std::holds_alternative<CollectivePermute>(step.op)) return step;
  if (auto* gather = std::get_if<AllGather>(&step.op)) {
    for (auto& part : gather->parts) {
      auto split = split_at(type.dims[static_cast<std::size_t>(part.dim)].axes, part.axes, mesh);
      if (!split) return std::nullopt;
      part.axes = std::move(split->second);
    }
    return step;
  }
  if (auto* exchange = std::get_if<AllToAll>(&step.op)) {
    for (auto& move : exchange->moves) {  // in order: each moves from what the ones before left
      auto& from = type.dims[static_cast<std::size_t>(move.src_dim)].axes;
      auto split = split_at(from, move.axes, mesh);
      if (!split) return std::nullopt;
      from = std::move(split->first);
      auto& to = type.dims[static_cast<std::size_t>(move.dst_dim)].axes;
      to.insert(to.end(), split->second.begin(), split->second.end());
      move.axes = std::move(split->second);
    }
    return step;
  }
  return std::nullopt;
}

/// Returns `step` (of a plan without size-1 axes) as it runs to `type`, and sets `type`
/// to the type before it: a gathered suffix comes back without size-1 axes, a moved or
/// sliced one with those after its start in the dim it ends in; nullopt for a permute or
/// a reduction step, or where a suffix is not there.
std::optional<Step> reversed(Step step, DistType& type, const Mesh& mesh) {
  if (auto* slice = std::get_if<AllSlice>(&step.op)) {
    auto& dim = type.dims[static_cast<std::size_t>(slice->dim)].axes;
    auto split = split_at(dim, slice->axes, mesh);
    if (!split) return std::nullopt;
    dim = std::move(split->first);
    slice->axes = std::move(split->second);
    return step;
  }
  if (auto* gather = std::get_if<AllGather>(&step.op)) {
    for (auto part = gather->parts.rbegin(); part != gather->parts.rend(); ++part) {
      auto& dim = type.dims[static_cast<std::size_t>(part->dim)].axes;
      dim.insert(dim.end(), part->axes.begin(), part->axes.end());
    }
    return step;
  }
  if (auto* exchange = std::get_if<AllToAll>(&step.op)) {
    for (auto move = exchange->moves.rbegin(); move != exchange->moves.rend(); ++move) {
      auto& to = type.dims[static_cast<std::size_t>(move->dst_dim)].axes;
      auto split = split_at(to, move->axes, mesh);
      if (!split) return std::nullopt;
      to = std::move(split->first);
      auto& from = type.dims[static_cast<std::size_t>(move->src_dim)].axes;
      from.insert(from.end(), split->second.begin(), split->second.end());
      move->axes = std::move(split->second);
    }
    return step;
  }
  return std::nullopt;
}

/// Removes the size-1 axes at the minor end of each dim of `type` and returns, per dim
/// that had some, the slice that puts them back (it drops nothing).
std::vector<Step> minor_size_one_slices(DistType& type) {
  std::vector<Step> slices;
  for (std::size_t d = 0; d < type.rank(); ++d) {
    auto& axes = type.dims[d].axes;
    auto start = axes.end();
    while (start != axes.begin() && size_one(*(start - 1))) --start;
    if (start == axes.end()) continue;
    slices.emplace_back(AllSlice{static_cast<int>(d), Refs(start, axes.end())});
    axes.erase(start, axes.end());
  }
  return slices;
}

/// True when `steps` (respelled()'s) is a permute.
bool is_permute(const std::vector<Step>& steps) {
  return !steps.empty() && std::holds_alternative<CollectivePermute>(steps.front().op);
}

/// The steps that re-spell `from` as `to` (the same blocks): gathers of the size-1 axes
/// at a dim's minor end and slices of those `to` has there, where that is all they
/// differ in; else a permute that moves nothing.
std::vector<Step> respelled(DistType from, DistType to, const Mesh& mesh) {
  if (canonical(from, mesh) == canonical(to, mesh)) return {};
  const DistType target = to;
  std::vector<Step> steps;
  for (auto& minor : minor_size_one_slices(from)) {
    auto& slice = std::get<AllSlice>(minor.op);
    steps.emplace_back(AllGather(slice.dim, std::move(slice.axes)));
  }
  std::vector<Step> slices = minor_size_one_slices(to);
  if (canonical(from, mesh) != canonical(to, mesh)) return {Step{CollectivePermute{target, std::nullopt}}};
  std::move(slices.begin(), slices.end(), std::back_inserter(steps));
  return steps;
}

}  // namespace

bool names_size_one_axis(const DistType& type) {
  return std::any_of(type.reduce_axes.begin(), type.reduce_axes.end(), size_one) ||
         std::any_of(type.dims.begin(), type.dims.end(),
                     [](const Dim& d) { return std::any_of(d.axes.begin(), d.axes.end(), size_one); });
}

DistType without_size_one_axes(DistType type) {
  for (auto& d : type.dims) std::erase_if(d.axes, size_one);
  std::erase_if(type.reduce_axes, size_one);
  if (type.reduce_axes.empty()) type.reduce_op = ReduceOp::sum;
  return type;
}

std::optional<Plan> with_size_one_axes(const Plan& plan, const DistType& source, const DistType& target) {
  if (!std::all_of(source.reduce_axes.begin(), source.reduce_axes.end(), size_one) ||
      !std::all_of(target.reduce_axes.begin(), target.reduce_axes.end(), size_one))
    return std::nullopt;
  // Pending over size-1 axes only: reduced first, added last (both move nothing).
  std::vector<Step> first_steps, pending;
  if (!source.reduce_axes.empty()) first_steps.emplace_back(AllReduce{source.reduce_axes});
  if (!target.reduce_axes.empty()) pending.emplace_back(AddPending{target.reduce_axes, target.reduce_op});
  auto plan_of = [&](std::vector<Step> steps) {
    steps.insert(steps.begin(), first_steps.begin(), first_steps.end());
    steps.insert(steps.end(), pending.begin(), pending.end());
    return Plan{plan.mesh, source, std::move(steps), target};
  };
  const DistType src = without_reductions(source), dst = without_reductions(target);
  const Mesh& mesh = plan.mesh;  // a permute's target mesh has the same axes
  const std::size_t n = plan.steps.size();
  std::size_t permute = n;  // the last permute
  for (std::size_t k = 0; k < n; ++k)
    if (std::holds_alternative<CollectivePermute>(plan.steps[k].op)) permute = k;
  std::size_t slices = 0;  // without a permute, the plan's first slices
  while (permute == n && slices < n && std::holds_alternative<AllSlice>(plan.steps[slices].op)) ++slices;
  // Up to the last permute (all steps without one), the source's size-1 axes ride along.
  std::vector<Step> steps;
  TypedState at{mesh, src};
  DistType sliced = src;  // the type after the plan's first slices, carried along
  for (std::size_t k = 0; k < permute; ++k) {
    auto step = carried(plan.steps[k], at.type, mesh);
    if (!step) return std::nullopt;
    auto next = apply_step(at, *step);
    if (!next) return std::nullopt;
    at = std::move(*next);
    if (k + 1 == slices) sliced = at.type;
    steps.push_back(std::move(*step));
  }
  // Without a permute, done where the end takes only gathers and slices of size-1 axes.
  std::vector<Step> ending;
  if (permute == n) {
    ending = respelled(at.type, dst, mesh);
    if (!is_permute(ending)) {
      std::move(ending.begin(), ending.end(), std::back_inserter(steps));
      return plan_of(std::move(steps));
    }
  }
  // From the target back over the steps after the last permute (all steps without one):
  // the type each needs, the target's size-1 axes at a dim's minor end sliced in last.
  DistType type = dst;
  const std::vector<Step> last = minor_size_one_slices(type);
  const std::size_t first = permute < n ? permute + 1 : 0;
  std::vector<Step> tail(n - first);
  std::optional<DistType> after_slices;  // the type the steps after them need
  for (std::size_t k = n; k-- > first;) {
    if (k + 1 == slices) after_slices = type;
    auto step = reversed(plan.steps[k], type, mesh);
    if (!step) return std::nullopt;
    tail[k - first] = std::move(*step);
  }
  const auto finished = [&](std::vector<Step> head, std::vector<Step> respell, std::size_t from) {
    std::move(respell.begin(), respell.end(), std::back_inserter(head));
    std::move(tail.begin() + static_cast<std::ptrdiff_t>(from - first), tail.end(), std::back_inserter(head));
    std::copy(last.begin(), last.end(), std::back_inserter(head));
    return plan_of(std::move(head));
  };
  if (permute < n) {  // the permute gives each dim the spelling the rest needs
    Step moved = plan.steps[permute];
    std::get<CollectivePermute>(moved.op).to = std::move(type);
    return finished(std::move(steps), {std::move(moved)}, first);
  }
  // Without one, the source re-spelt as the steps need (gathers and slices of size-1
  // axes alone), else the type after the plan's first slices (a permute that moves
  // nothing, before any data moves), else, where even its end takes a permute, the end.
  if (auto respell = respelled(src, type, mesh); !is_permute(respell)) return finished({}, std::move(respell), 0);
  if (slices < n && after_slices) {
    steps.resize(slices);
    return finished(std::move(steps), respelled(sliced, *after_slices, mesh), slices);
  }
  std::move(ending.begin(), ending.end(), std::back_inserter(steps));
  return plan_of(std::move(steps));
}

}  // namespace redist::synth_detail
