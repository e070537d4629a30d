// optimal_plan(): the search engine (engine.hpp) run to the end, seeded with the
// constructive plans where the pair is in their scope.

#include "redist/synth/optimal.hpp"

#include <fmt/format.h>

#include <chrono>

#include "engine.hpp"
#include "redist/synth/mesh_change.hpp"
#include "redist/synth/cost_model.hpp"
#include "seeds.hpp"
#include "size_one_axes.hpp"
#include "transfer_senders.hpp"
#include "synth_scope.hpp"

namespace redist {

namespace {

/// Arrays this large (2^62 bytes) are refused: byte counts stay exact in int64.
const BigInt kMaxArrayBytes = BigInt(1) << 62;

/// Why `src` and `dst` cannot be planned for at all, if they cannot.
std::optional<Error> input_problem(const CostModel& model, const Mesh& src_mesh, const DistType& src,
                                   const Mesh& dst_mesh, const DistType& dst) {
  if (auto s = validate(src, src_mesh); !s) return invalid_error("source: " + s.error().message);
  if (auto s = validate(dst, dst_mesh); !s) return invalid_error("target: " + s.error().message);
  if (!src_mesh.same_axes(dst_mesh))
    return unsupported_error(
        fmt::format("the source mesh {} and the target mesh {} have different axes", to_string(src_mesh), to_string(dst_mesh)));
  if (auto s = validate(model, src_mesh); !s) return s.error();
  bool same = src.elem == dst.elem && src.rank() == dst.rank();
  for (std::size_t d = 0; same && d < src.rank(); ++d) same = src.dims[d].global == dst.dims[d].global;
  if (!same) return invalid_error(fmt::format("{} and {} describe different arrays", to_string(src), to_string(dst)));
  if (auto e = synth_detail::reduction_error(src_mesh, src, dst_mesh, dst)) return *e;
  if (global_elements(src) * elem_bytes(src.elem) >= kMaxArrayBytes)
    return unsupported_error("arrays of 2^62 bytes or more are not searched");
  return std::nullopt;
}

/// The optimal plan between `src` and `dst` with their size-1 axes left out, with those
/// put back at no cost (size_one_axes.hpp), or that search's give-up or timeout (it
/// would come again); nullopt where another axis is pending, no plan is found (the
/// search with them then says so, naming the types as given) or putting them back does
/// not work, and the search plans with them.
std::optional<Result<OptimalPlan>> planned_without_size_one_axes(const CostModel& model, const Mesh& src_mesh,
                                                                 const DistType& src, const Mesh& dst_mesh,
                                                                 const DistType& dst, const OptimalOptions& options) {
  const DistType bare_src = synth_detail::without_size_one_axes(src), bare_dst = synth_detail::without_size_one_axes(dst);
  if (synth_detail::has_reductions(bare_src, bare_dst)) return std::nullopt;
  auto found = optimal_plan(model, src_mesh, bare_src, dst_mesh, bare_dst, options);
  if (!found) {
    if (found.error().kind == Error::Kind::no_plan && !options.timeout_s) return std::nullopt;
    return found;
  }
  auto dressed = synth_detail::with_size_one_axes(found->plan, src, dst);
  if (!dressed) return std::nullopt;
  auto cost = plan_cost(model, *dressed);
  if (!cost || cost->time_us > found->time_us * (1 + 1e-12)) return std::nullopt;
  found->plan = std::move(*dressed);
  return found;
}

}  // namespace

Result<OptimalPlan> optimal_plan(const CostModel& model, const Mesh& src_mesh, const DistType& src,
                                 const Mesh& dst_mesh, const DistType& dst, const OptimalOptions& options) {
  if (other_device_sets(src_mesh, dst_mesh)) {  // the cheaper of the direct and the staged plans
    auto plan = device_set_plan(src_mesh, src, dst_mesh, dst, model, true);
    if (!plan) return plan.error();
    if (options.budget_bytes && BigInt(*options.budget_bytes) < std::max(local_bytes(src), local_bytes(dst)))
      return Error{Error::Kind::no_plan,
                   fmt::format("no plan within the budget of {} bytes per device: the source holds {} and the target {} "
                               "bytes per device",
                               *options.budget_bytes, to_decimal(local_bytes(src)), to_decimal(local_bytes(dst))),
                   Error::npos};
    auto cost = plan_cost(model, *plan);
    if (!cost) return cost.error();
    // Not a search over every plan: the direct and the staged transfer are compared, and
    // the transfer's senders searched against its lower bound.
    const auto states = type_plan(*plan);
    std::string senders;
    for (std::size_t k = 0; k < plan->steps.size(); ++k) {
      if (!std::holds_alternative<Transfer>(plan->steps[k].op)) continue;
      const TypedState before = k == 0 ? TypedState{plan->mesh, plan->source} : (*states)[k - 1];
      const double bound = synth_detail::senders_bound_us(before, (*states)[k], model);
      const double time = cost->steps[k].time_us;  // the searched senders' (device_set_plan)
      senders = time <= bound * (1 + 1e-9)
                    ? fmt::format("its senders meet the transfer's lower bound of {:.4g} us", bound)
                    : fmt::format("its senders take {:.4g} us against the transfer's lower bound of {:.4g} us",
                                  time, bound);
    }
    return OptimalPlan{std::move(*plan), cost->time_us, 0, 0, false,
                       "between device sets only the direct and the staged transfer (docs/meshes.md) are compared; " +
                           senders};
  }
  if (needs_refinement(src_mesh, dst_mesh)) {
    auto refined = refine(src_mesh, src, dst_mesh, dst);
    if (!refined) return refined.error();
    auto on_refined = refined_model(model, src_mesh, *refined);
    if (!on_refined) return on_refined.error();
    return optimal_plan(*on_refined, refined->source_mesh, refined->source, refined->target_mesh, refined->target,
                        options);
  }
  if (auto problem = input_problem(model, src_mesh, src, dst_mesh, dst)) return *problem;
  const BigInt src_bytes = local_bytes(src), dst_bytes = local_bytes(dst);
  const BigInt bound = options.budget_bytes ? BigInt(*options.budget_bytes) : std::max(src_bytes, dst_bytes);
  if (bound < std::max(src_bytes, dst_bytes))
    return Error{Error::Kind::no_plan,
                 fmt::format("no plan within the budget of {} bytes per device: the source holds {} and the target {} "
                             "bytes per device",
                             to_decimal(bound), to_decimal(src_bytes), to_decimal(dst_bytes)),
                 Error::npos};
  // Size-1 axes tile nothing: the search plans without them and puts them back into its
  // plan at no cost (size_one_axes.hpp); where that does not work, or finds no plan (the
  // error then names the types as given), it plans with them.
  if (synth_detail::names_size_one_axis(src) || synth_detail::names_size_one_axis(dst))
    if (auto found = planned_without_size_one_axes(model, src_mesh, src, dst_mesh, dst, options)) return *found;
  std::vector<Plan> seeds;
  if (synth_detail::has_reductions(src, dst))
    seeds = synth_detail::reduction_seeds(src_mesh, src, dst_mesh, dst);
  else if (auto problem = synth_detail::make_problem(src_mesh, src, dst_mesh, dst))
    // synthesize()'s fallback seeds (the balanced builder backtracking, the exchange-last
    // plans: a superset of the plain seeds), so the search starts from every plan the
    // default call may start from, and every valid seed's permutes are among its edges.
    seeds = synth_detail::constructive_seeds(*problem, src_mesh, src, dst_mesh, dst,
                                             {.backtrack = true,
                                              .exchange_last = true,
                                              .slow_axes = synth_detail::slow_axes(model, src_mesh)});
  engine_detail::EngineLimits limits;
  limits.max_expanded = options.max_expanded;
  limits.max_states = options.max_states;
  limits.max_memory_bytes = options.max_memory_bytes;
  limits.progress = options.progress;
  limits.every_candidates_permutes = true;
  if (options.timeout_s)
    limits.deadline = std::chrono::steady_clock::now() +
                      std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                          std::chrono::duration<double>(*options.timeout_s));
  auto found = engine_detail::run_engine(model, src_mesh, src, dst_mesh, dst, bound, seeds, limits);
  if (!found) return found.error();
  if (!found->plan && found->stopped.empty()) {
    // As synthesize() does: no plan slices first (a device-order change on a fully used
    // mesh), so the least plan that slices after receiving (G3a does not hold for it).
    limits.slice_after_receive = true;
    found = engine_detail::run_engine(model, src_mesh, src, dst_mesh, dst, bound, seeds, limits);
    if (!found) return found.error();
  }
  // With a timeout the search is anytime: whatever stopped it, the best plan so far.
  const bool anytime = options.timeout_s.has_value();
  if (!found->stopped.empty() && !(anytime && found->plan))
    return Error{anytime ? Error::Kind::no_plan : Error::Kind::runtime,
                 "the optimal search gave up: " + found->stopped +
                     (anytime ? " before it found a plan within the budget" : ""),
                 Error::npos};
  if (!found->plan)
    return Error{Error::Kind::no_plan,
                 fmt::format("no plan from {} to {} fits the budget of {} bytes per device in the step set",
                             to_string(src), to_string(dst), to_decimal(bound)),
                 Error::npos};
  return OptimalPlan{std::move(*found->plan), found->time_us, found->expanded, found->generated,
                     found->stopped.empty(), found->stopped};
}

}  // namespace redist
