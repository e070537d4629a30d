// ordered_gathers() and merged_gathers() (gather_order.hpp). ordered_gathers(): each
// run of consecutive gathers is priced in every order that keeps the gathers of one dim
// in their order (each dim loses the same suffixes in the same order, so every such
// order types and ends where the run does); the cheapest is kept, and among the
// cheapest the one gathering higher dims first. Under one link class every order costs
// the same (a gather of g1 then g2 moves B(g1 g2 - 1) either way), so only the stable
// sort by dim is tried there. slow_gathers_first(): the gathered factors after a
// permute reordered in its target, slow ones minor, or the slow ones replaced by a
// replicated fast factor of their size (the permute then sends each block to a device
// that gathers it on the fast link). slow_gathers_early(): a slow gather
// moved before the steps that grow or exchange the buffer. merged_gathers(): adjacent gathers
// of one dim and one link class joined, kept when the joined plan types and costs less.

#include "gather_order.hpp"

#include "split_by_class.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace redist::synth_detail {

namespace {

/// Returns true when `s` is a one-part all_gather whose groups the types define.
bool plain_gather(const Step& s) {
  const auto* gather = std::get_if<AllGather>(&s.op);
  return gather && gather->parts.size() == 1 && !s.groups;
}

/// Returns the dim of a plain gather.
int dim_of(const Step& s) { return std::get<AllGather>(s.op).parts[0].dim; }

/// True when some permute of `plan` is directly followed by a plain gather.
bool permute_then_gather(const Plan& plan) {
  for (std::size_t k = 0; k + 1 < plan.steps.size(); ++k)
    if (std::holds_alternative<CollectivePermute>(plan.steps[k].op) && plain_gather(plan.steps[k + 1])) return true;
  return false;
}

/// True when two plain gathers of `plan` are adjacent.
bool gather_run(const Plan& plan) {
  for (std::size_t k = 0; k + 1 < plan.steps.size(); ++k)
    if (plain_gather(plan.steps[k]) && plain_gather(plan.steps[k + 1])) return true;
  return false;
}

/// Returns the modeled time of `steps` from `at`, or nullopt when they do not type.
std::optional<double> run_time(const CostModel& model, TypedState at, const std::vector<Step>& steps) {
  double time = 0;
  for (const auto& step : steps) {
    auto next = apply_step(at, step);
    if (!next) return std::nullopt;
    time += step_cost(model, at, *next, step).time_us;
    at = std::move(*next);
  }
  return time;
}

/// True when the gathers of `run` are on axes of more than one link class.
bool mixed_classes(const CostModel& model, const std::vector<Step>& run) {
  std::optional<LinkClass> seen;
  for (const auto& s : run)
    for (const auto& a : std::get<AllGather>(s.op).parts[0].axes) {
      if (seen && *seen != model.class_of(a.name)) return true;
      seen = model.class_of(a.name);
    }
  return false;
}

/// Returns the cheapest order of `run` (gathers, from `at`) that keeps each dim's gathers
/// in order; among equals the one with the highest dims first.
std::vector<Step> best_order(const CostModel& model, const TypedState& at, const std::vector<Step>& run) {
  std::vector<Step> sorted = run;
  std::stable_sort(sorted.begin(), sorted.end(), [](const Step& a, const Step& b) { return dim_of(a) > dim_of(b); });
  if (run.size() > 6 || !mixed_classes(model, run)) return sorted;  // 6: at most 720 orders
  // Orders as permutations of the run's dims (a multiset), in decreasing lexicographic
  // order from the sorted one; the k-th gather of dim d is the k-th of d in the run.
  std::vector<int> dims;
  for (const auto& s : sorted) dims.push_back(dim_of(s));
  std::optional<double> best_time;
  std::vector<Step> best;
  do {
    std::vector<Step> order;
    std::vector<std::size_t> taken(run.size(), 0);  // per run index: used
    for (int d : dims)
      for (std::size_t i = 0; i < run.size(); ++i)
        if (!taken[i] && dim_of(run[i]) == d) {
          taken[i] = 1;
          order.push_back(run[i]);
          break;
        }
    const auto time = run_time(model, at, order);
    if (time && (!best_time || *time < *best_time - 1e-12 * *best_time)) {
      best_time = time;
      best = std::move(order);
    }
  } while (std::prev_permutation(dims.begin(), dims.end()));
  return best_time ? best : sorted;
}

/// Returns a fast factor that `to` leaves replicated on `mesh` and whose size is the
/// product of `slow`'s sizes (a whole free factor, or its major part), or nullopt.
std::optional<AxisRef> fast_stand_in(const CostModel& model, const Mesh& mesh, const DistType& to,
                                     const std::vector<AxisRef>& slow) {
  const int64_t size = product_of_sizes(slow);
  const LinkClass slow_link = model.class_of(slow.front().name);
  for (const auto& a : free_axes(mesh, to)) {
    if (model.class_of(a.name) == slow_link || a.size % size != 0) continue;
    return make_axis_ref(a.name, a.pre, size, mesh.axis_size(*mesh.axis_index(a.name)));
  }
  return std::nullopt;
}

}  // namespace

Plan ordered_gathers(const CostModel& model, Plan plan, const std::vector<TypedState>* typed) {
  if (!gather_run(plan)) return plan;
  std::optional<std::vector<TypedState>> own;
  if (!typed) {
    auto result = type_plan(plan);
    if (!result) return plan;
    own = std::move(*result);
  }
  const std::vector<TypedState>* states = typed ? typed : &*own;
  Plan out = plan;
  bool changed = false;
  for (std::size_t i = 0; i < plan.steps.size();) {
    std::size_t j = i;
    while (j < plan.steps.size() && plain_gather(plan.steps[j])) ++j;
    if (j - i >= 2) {
      const TypedState at = i == 0 ? TypedState{plan.mesh, plan.source} : (*states)[i - 1];
      const std::vector<Step> run(plan.steps.begin() + static_cast<std::ptrdiff_t>(i),
                                  plan.steps.begin() + static_cast<std::ptrdiff_t>(j));
      auto order = best_order(model, at, run);
      if (order != run) {
        std::move(order.begin(), order.end(), out.steps.begin() + static_cast<std::ptrdiff_t>(i));
        changed = true;
      }
    }
    i = std::max(j, i + 1);
  }
  if (!changed) return plan;
  // Never dearer: the cheapest order was kept, the given one among those priced.
  auto old_cost = plan_cost(model, plan), new_cost = plan_cost(model, out);
  if (!old_cost || !new_cost || new_cost->time_us > old_cost->time_us * (1 + 1e-12)) return plan;
  return out;
}

std::optional<Plan> slow_gathers_first(const CostModel& model, const Plan& plan) {
  if (model.intra == model.inter || !permute_then_gather(plan)) return std::nullopt;
  const LinkClass slow = slow_class(model);
  Plan out{plan.mesh, plan.source, {}, plan.target};
  bool changed = false;
  for (std::size_t k = 0; k < plan.steps.size(); ++k) {
    const Step& step = plan.steps[k];
    const auto* permute = std::get_if<CollectivePermute>(&step.op);
    std::size_t end = k + 1;  // the gathers of one dim after the permute: [k + 1, end)
    while (permute && end < plan.steps.size() && plain_gather(plan.steps[end]) &&
           dim_of(plan.steps[end]) == dim_of(plan.steps[k + 1]))
      ++end;
    if (!permute || step.pairs || end == k + 1) {
      out.steps.push_back(step);
      continue;
    }
    // The gathered suffix of the dim, major first: the last gather's axes, ..., the first's.
    const int dim = dim_of(plan.steps[k + 1]);
    std::vector<AxisRef> suffix;
    for (std::size_t j = end; j-- > k + 1;) {
      const auto& axes = std::get<AllGather>(plan.steps[j].op).parts[0].axes;
      suffix.insert(suffix.end(), axes.begin(), axes.end());
    }
    const auto& axes = permute->to.dims[static_cast<std::size_t>(dim)].axes;
    std::vector<AxisRef> fast, slowest;
    for (const auto& a : suffix) (model.class_of(a.name) == slow ? slowest : fast).push_back(a);
    const bool suffix_ok = suffix.size() <= axes.size() &&
                           std::equal(suffix.begin(), suffix.end(), axes.end() - static_cast<std::ptrdiff_t>(suffix.size()));
    const auto stand_in = suffix_ok && !slowest.empty() ? fast_stand_in(model, plan.mesh, permute->to, slowest) : std::nullopt;
    std::vector<AxisRef> reordered = fast;
    if (stand_in) reordered.push_back(*stand_in);
    else reordered.insert(reordered.end(), slowest.begin(), slowest.end());
    if (!suffix_ok || slowest.empty() || (!stand_in && fast.empty()) || reordered == suffix) {
      out.steps.insert(out.steps.end(), plan.steps.begin() + static_cast<std::ptrdiff_t>(k),
                       plan.steps.begin() + static_cast<std::ptrdiff_t>(end));
      k = end - 1;
      continue;
    }
    CollectivePermute to = *permute;
    auto& dim_axes = to.to.dims[static_cast<std::size_t>(dim)].axes;
    dim_axes.resize(dim_axes.size() - suffix.size());
    dim_axes.insert(dim_axes.end(), reordered.begin(), reordered.end());
    out.steps.emplace_back(std::move(to));
    if (stand_in) {
      out.steps.emplace_back(AllGather{dim, reordered});  // every gathered factor is fast now
    } else {
      out.steps.emplace_back(AllGather{dim, slowest});
      out.steps.emplace_back(AllGather{dim, fast});
    }
    changed = true;
    k = end - 1;
  }
  if (!changed) return std::nullopt;
  return out;
}

std::vector<Plan> slow_gathers_early(const CostModel& model, const Plan& plan) {
  std::vector<Plan> out;
  if (model.intra == model.inter) return out;
  const LinkClass slow = slow_class(model);
  for (std::size_t j = 0; j < plan.steps.size(); ++j) {
    if (!plain_gather(plan.steps[j])) continue;
    const auto& gather = std::get<AllGather>(plan.steps[j].op).parts[0];
    if (gather.axes.empty() ||
        std::any_of(gather.axes.begin(), gather.axes.end(), [&](const AxisRef& a) { return model.class_of(a.name) != slow; }))
      continue;
    // Positions from j - 1 down to 0; the steps crossed must take the gather out of their
    // permutes' targets, and carry no explicit lowering or transfer.
    Plan moved = plan;
    moved.steps.erase(moved.steps.begin() + static_cast<std::ptrdiff_t>(j));
    for (std::size_t i = j; i-- > 0;) {
      Step& crossed = moved.steps[i];
      if (crossed.groups || crossed.pairs || std::holds_alternative<Transfer>(crossed.op)) break;
      if (auto* permute = std::get_if<CollectivePermute>(&crossed.op)) {
        if (permute->to_mesh) break;
        auto& axes = permute->to.dims[static_cast<std::size_t>(gather.dim)].axes;
        auto at = std::search(axes.begin(), axes.end(), gather.axes.begin(), gather.axes.end());
        if (at == axes.end()) break;
        axes.erase(at, at + static_cast<std::ptrdiff_t>(gather.axes.size()));
      }
      Plan candidate = moved;
      candidate.steps.insert(candidate.steps.begin() + static_cast<std::ptrdiff_t>(i), plan.steps[j]);
      out.push_back(std::move(candidate));
    }
  }
  return out;
}

Plan merged_gathers(const CostModel& model, Plan plan) {
  if (!gather_run(plan)) return plan;
  Plan merged{plan.mesh, plan.source, {}, plan.target};
  // The one part of a plain gather `s` (const or not), or nullptr.
  auto part = [](auto& s) -> decltype(&std::get_if<AllGather>(&s.op)->parts[0]) {
    auto* g = std::get_if<AllGather>(&s.op);
    return g && g->parts.size() == 1 && !s.groups ? &g->parts[0] : nullptr;
  };
  auto one_class = [&model](const std::vector<AxisRef>& a, const std::vector<AxisRef>& b) {
    const LinkClass c = model.class_of(a.front().name);
    auto same = [&](const AxisRef& x) { return model.class_of(x.name) == c; };
    return std::all_of(a.begin(), a.end(), same) && std::all_of(b.begin(), b.end(), same);
  };
  bool changed = false;
  for (const Step& step : plan.steps) {
    AllGatherPart* last = merged.steps.empty() ? nullptr : part(merged.steps.back());
    const AllGatherPart* next = part(step);
    if (last && next && last->dim == next->dim && !last->axes.empty() && !next->axes.empty() &&
        one_class(last->axes, next->axes)) {
      // `next` removes the suffix just before the one `last` removed.
      last->axes.insert(last->axes.begin(), next->axes.begin(), next->axes.end());
      changed = true;
      continue;
    }
    merged.steps.push_back(step);
  }
  if (!changed) return plan;
  auto old_cost = plan_cost(model, plan), new_cost = plan_cost(model, merged);
  if (!old_cost || !new_cost || !(new_cost->time_us < old_cost->time_us)) return plan;
  return merged;
}

}  // namespace redist::synth_detail
