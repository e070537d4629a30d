// Plans (docs/design.md §2) and the planners (docs/design.md §4): synthesis, the exact
// optimal search under the cost model, the baselines; plan text, typing, figures and
// modeled cost. The searches run with the GIL released.

#include <nanobind/operators.h>
#include <nanobind/stl/map.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/string_view.h>
#include <nanobind/stl/vector.h>

#include <fmt/format.h>

#include <iterator>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "common.hpp"
#include "redist/plan/figures.hpp"
#include "redist/plan/plan.hpp"
#include "redist/plan/plan_text.hpp"
#include "redist/plan/typing.hpp"
#include "redist/synth/baselines.hpp"
#include "redist/synth/cost_model.hpp"
#include "redist/synth/optimal.hpp"
#include "redist/synth/synthesize.hpp"

namespace redist::py {
namespace {

using nb::gil_scoped_release;

/// A field of the step's op, or None when the op has no such field.
template <class Get>
nb::object field(const Step& step, Get get) {
  return std::visit([&](const auto& op) -> nb::object { return get(op); }, step.op);
}

template <class Op>
constexpr bool has_dim = std::is_same_v<Op, AllSlice> || std::is_same_v<Op, ReduceScatter>;

/// Returns the dim of a slice, a reduce-scatter or an all_gather of one part; else None.
nb::object step_dim(const Step& s) {
  return field(s, [](const auto& op) -> nb::object {
    using Op = std::decay_t<decltype(op)>;
    if constexpr (has_dim<Op>) return nb::int_(op.dim);
    else if constexpr (std::is_same_v<Op, AllGather>)
      return op.parts.size() == 1 ? nb::int_(op.parts[0].dim) : nb::object(nb::none());
    else return nb::none();
  });
}

nb::object step_axes(const Step& s) {
  return field(s, [](const auto& op) -> nb::object {
    using Op = std::decay_t<decltype(op)>;
    if constexpr (std::is_same_v<Op, CollectivePermute> || std::is_same_v<Op, Transfer>) return nb::none();
    else if constexpr (std::is_same_v<Op, AllToAll> || std::is_same_v<Op, AllGather>) return nb::cast(op.axes());
    else return nb::cast(op.axes);
  });
}

Plan baseline_of(std::string_view name, const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh,
                 const DistType& dst) {
  auto b = parse_baseline(name);
  if (!b) throw RaisedError{invalid_error("unknown baseline '" + std::string(name) +
                                          "' (expected gather_then_slice, xla_style or all_reduce_then_slice)")};
  return unwrap(baseline_plan(*b, src_mesh, src, dst_mesh, dst));
}

CostModel default_model(const std::optional<CostModel>& model) { return model ? *model : CostModel{}; }

}  // namespace

void bind_plan(nb::module_& m) {
  nb::class_<Step>(m, "Step", "One collective step of a plan (docs/design.md §2).")
      .def_prop_ro("kind", [](const Step& s) { return std::string(step_name(s.op)); },
                   "all_slice, all_gather, all_to_all, collective_permute, reduce_scatter, all_reduce, add_pending or "
                   "transfer.")
      .def_prop_ro("dim", &step_dim, "The dim of a slice, reduce-scatter or all_gather of one part; else None.")
      .def_prop_ro("parts", [](const Step& s) -> nb::object {
            auto* g = std::get_if<AllGather>(&s.op);
            if (!g) return nb::none();
            nb::list parts;
            for (const auto& p : g->parts) parts.append(nb::make_tuple(p.dim, nb::cast(p.axes)));
            return parts;
          }, "An all_gather's (dim, axes) per part; else None.")
      .def_prop_ro("src_dim", [](const Step& s) {
            auto* a = std::get_if<AllToAll>(&s.op);
            return a && a->moves.size() == 1 ? nb::int_(a->moves[0].src_dim) : nb::object(nb::none());
          }, "Source dim of an all_to_all of one move; else None.")
      .def_prop_ro("dst_dim", [](const Step& s) {
            auto* a = std::get_if<AllToAll>(&s.op);
            return a && a->moves.size() == 1 ? nb::int_(a->moves[0].dst_dim) : nb::object(nb::none());
          }, "Destination dim of an all_to_all of one move; else None.")
      .def_prop_ro("moves", [](const Step& s) -> nb::object {
            auto* a = std::get_if<AllToAll>(&s.op);
            if (!a) return nb::none();
            nb::list moves;
            for (const auto& m : a->moves) moves.append(nb::make_tuple(m.src_dim, m.dst_dim, nb::cast(m.axes)));
            return moves;
          }, "An all_to_all's (src dim, dst dim, axes) per move; else None.")
      .def_prop_ro("axes", &step_axes, "The step's axes; None for a permute or a transfer.")
      .def_prop_ro("to", [](const Step& s) {
            if (auto* t = std::get_if<Transfer>(&s.op)) return nb::cast(t->to);
            auto* p = std::get_if<CollectivePermute>(&s.op);
            return p ? nb::cast(p->to) : nb::object(nb::none());
          }, "The target type of a permute or a transfer; else None.")
      .def_ro("groups", &Step::groups, "Explicit groups (imported plans); None when derived.")
      .def_ro("pairs", &Step::pairs, "Explicit permute pairs (imported plans); None when derived.")
      .def(nb::self == nb::self)
      .def("__str__", [](const Step& s) { return to_string(s); })
      .def("__repr__", [](const Step& s) { return "Step(" + to_string(s) + ")"; });

  nb::class_<TypedState>(m, "TypedState", "A type with the mesh it lives on.")
      .def_ro("mesh", &TypedState::mesh)
      .def_ro("type", &TypedState::type)
      .def("__repr__", [](const TypedState& s) {
        return "TypedState(" + to_string(s.type) + " on " + to_string(s.mesh) + ")";
      });

  nb::class_<StepFigures>(m, "StepFigures", "Exact figures of one step (bytes per device).")
      .def_prop_ro("kind", [](const StepFigures& f) { return std::string(f.op); })
      .def_prop_ro("local_bytes_before", [](const StepFigures& f) { return to_py_int(f.local_bytes_before); })
      .def_prop_ro("local_bytes_after", [](const StepFigures& f) { return to_py_int(f.local_bytes_after); })
      .def_prop_ro("send_bytes_max", [](const StepFigures& f) { return to_py_int(f.send_bytes_max); })
      .def_prop_ro("send_bytes_total", [](const StepFigures& f) { return to_py_int(f.send_bytes_total); })
      .def_prop_ro("recv_bytes_max", [](const StepFigures& f) { return to_py_int(f.recv_bytes_max); })
      .def_prop_ro("recv_bytes_total", [](const StepFigures& f) { return to_py_int(f.recv_bytes_total); })
      .def_ro("group_size", &StepFigures::group_size)
      .def("__repr__", [](const StepFigures& f) {
        return "StepFigures(" + std::string(f.op) + ", group " + std::to_string(f.group_size) + ", bytes " +
               to_decimal(f.local_bytes_before) + " -> " + to_decimal(f.local_bytes_after) + ", recv max " +
               to_decimal(f.recv_bytes_max) + ")";
      });

  nb::class_<PlanFigures>(m, "PlanFigures", "Exact figures of a plan (docs/design.md §2-§3).")
      .def_ro("steps", &PlanFigures::steps)
      .def_prop_ro("source_local_bytes", [](const PlanFigures& f) { return to_py_int(f.source_local_bytes); })
      .def_prop_ro("target_local_bytes", [](const PlanFigures& f) { return to_py_int(f.target_local_bytes); })
      .def_prop_ro("peak_local_bytes", [](const PlanFigures& f) { return to_py_int(f.peak_local_bytes); })
      .def_prop_ro("transient_peak_bytes", [](const PlanFigures& f) { return to_py_int(f.transient_peak_bytes); })
      .def_prop_ro("bound_bytes", [](const PlanFigures& f) { return to_py_int(f.bound_bytes); })
      .def_prop_ro("recv_bytes_max", [](const PlanFigures& f) { return to_py_int(f.recv_bytes_max); })
      .def_prop_ro("recv_bytes_total", [](const PlanFigures& f) { return to_py_int(f.recv_bytes_total); })
      .def_prop_ro("lower_bound_max", [](const PlanFigures& f) {
            return f.lower_bound ? to_py_int(f.lower_bound->max) : nb::object(nb::none());
          }, "LB(d) max over devices; None when too many devices to count.")
      .def_prop_ro("lower_bound_total", [](const PlanFigures& f) {
            return f.lower_bound ? to_py_int(f.lower_bound->total) : nb::object(nb::none());
          })
      .def("__repr__", [](const PlanFigures& f) {
        return "PlanFigures(" + std::to_string(f.steps.size()) + " steps, peak " + to_decimal(f.peak_local_bytes) +
               " of " + to_decimal(f.bound_bytes) + " bytes, recv max " + to_decimal(f.recv_bytes_max) +
               (f.lower_bound ? ", LB max " + to_decimal(f.lower_bound->max) : std::string()) + ")";
      });

  nb::class_<Link>(m, "Link", "Speed of one link class.")
      .def(nb::init<>())
      .def_rw("bandwidth_gbps", &Link::bandwidth_gbps)
      .def_rw("latency_us", &Link::latency_us)
      .def("__repr__", [](const Link& l) {
        return "Link(" + std::to_string(l.bandwidth_gbps) + " GB/s, " + std::to_string(l.latency_us) + " us)";
      });

  nb::class_<Efficiency>(m, "Efficiency",
                         "Per collective kind, the share of its link's bandwidth it reaches, in (0, 1].")
      .def(nb::init<>())
      .def_rw("all_gather", &Efficiency::all_gather)
      .def_rw("reduce_scatter", &Efficiency::reduce_scatter)
      .def_rw("all_to_all", &Efficiency::all_to_all)
      .def_rw("all_reduce", &Efficiency::all_reduce)
      .def_rw("collective_permute", &Efficiency::permute)
      .def_rw("transfer", &Efficiency::transfer)
      .def("__repr__", [](const Efficiency& e) {
        return fmt::format("Efficiency(all_gather={}, reduce_scatter={}, all_to_all={}, all_reduce={}, "
                           "collective_permute={}, transfer={})",
                           e.all_gather, e.reduce_scatter, e.all_to_all, e.all_reduce, e.permute, e.transfer);
      });

  nb::class_<CostModel>(m, "CostModel", "The alpha-beta cost model (docs/cost_model.md).")
      .def(nb::init<>(), "The defaults: every axis intra-node.")
      .def_static("bytes", &bytes_model, "The bytes model synthesis ranks plans by unless given another.")
      .def_static("parse", [](std::string_view text) { return unwrap(parse_cost_model(text), text); }, nb::arg("text"),
                  "A model from config text (`x = inter`, `inter.bandwidth_gbps = 25`, ...).")
      .def_rw("intra", &CostModel::intra)
      .def_rw("inter", &CostModel::inter)
      .def_rw("efficiency", &CostModel::efficiency,
              "The share of its link's bandwidth each collective kind reaches (docs/cost_model.md).")
      .def_rw("transfer_node_size", &CostModel::transfer_node_size,
              "Devices d and e share a node when d // n == e // n (0: no nodes); docs/cost_model.md.")
      .def_prop_ro("inter_axes", [](const CostModel& c) {
            std::vector<std::string> out;
            for (const auto& [name, cls] : c.axis_class)
              if (cls == LinkClass::inter) out.push_back(name);
            return out;
          })
      .def("link_class", [](const CostModel& c, std::string_view axis) {
            return std::string(link_class_name(c.class_of(axis)));
          }, nb::arg("axis"))
      .def("__repr__", [](const CostModel& c) {
        std::string axes;
        for (const auto& [name, cls] : c.axis_class) axes += (axes.empty() ? "" : ", ") + name + "=" +
                                                           std::string(link_class_name(cls));
        // The shares below 1 (docs/cost_model.md "Efficiency"), by their config names.
        const std::pair<const char*, double> shares[] = {
            {"all_gather", c.efficiency.all_gather}, {"reduce_scatter", c.efficiency.reduce_scatter},
            {"all_to_all", c.efficiency.all_to_all}, {"all_reduce", c.efficiency.all_reduce},
            {"collective_permute", c.efficiency.permute}, {"transfer", c.efficiency.transfer}};
        for (const auto& [kind, share] : shares)
          if (share != 1) axes += fmt::format("{}{}.efficiency={}", axes.empty() ? "" : ", ", kind, share);
        return "CostModel(" + axes + ")";
      });

  nb::class_<StepCost>(m, "StepCost", "Modeled cost of one step.")
      .def_prop_ro("kind", [](const StepCost& c) {
            static const char* names[] = {"local", "all_gather", "reduce_scatter", "all_to_all", "all_reduce",
                                          "permute", "transfer"};
            static_assert(std::size(names) == static_cast<std::size_t>(CollectiveKind::transfer) + 1);
            return std::string(names[static_cast<int>(c.kind)]);
          })
      .def_ro("time_us", &StepCost::time_us)
      .def_prop_ro("wire_bytes", [](const StepCost& c) { return to_py_int(c.wire_bytes); })
      .def_ro("group_size", &StepCost::group_size)
      .def_prop_ro("link", [](const StepCost& c) { return std::string(link_class_name(c.link)); })
      .def_ro("communicates", &StepCost::communicates)
      .def("__repr__", [](const StepCost& c) {
        return "StepCost(" + std::to_string(c.time_us) + " us, wire " + to_decimal(c.wire_bytes) + " bytes)";
      });

  nb::class_<PlanCost>(m, "PlanCost", "Modeled cost of a plan: per step and summed.")
      .def_ro("steps", &PlanCost::steps)
      .def_ro("time_us", &PlanCost::time_us)
      .def_prop_ro("wire_bytes", [](const PlanCost& c) { return to_py_int(c.wire_bytes); })
      .def_ro("collectives", &PlanCost::collectives)
      .def("__repr__", [](const PlanCost& c) {
        return "PlanCost(" + std::to_string(c.time_us) + " us, " + std::to_string(c.collectives) +
               " collectives, wire " + to_decimal(c.wire_bytes) + " bytes)";
      });

  nb::class_<Plan>(m, "Plan", "A plan: source type, steps, asserted target (docs/design.md §2).")
      .def_ro("mesh", &Plan::mesh)
      .def_ro("source", &Plan::source)
      .def_ro("steps", &Plan::steps)
      .def_ro("target", &Plan::target)
      .def_static("parse", [](std::string_view text) { return unwrap(parse_plan(text), text); }, nb::arg("text"),
                  "Reads the plan text format; ValueError names the line and column.")
      .def("states", [](const Plan& p) { return unwrap(type_plan(p)); },
           "The state (mesh, type) after each step; ValueError when a step does not type.")
      .def("figures", [](const Plan& p, std::optional<uint64_t> budget) { return unwrap(plan_figures(p, budget)); },
           nb::arg("budget") = nb::none(), nb::call_guard<gil_scoped_release>(),
           "Exact figures; `budget` (bytes) sets the bound.")
      .def("cost", [](const Plan& p, const std::optional<CostModel>& model) {
            return unwrap(plan_cost(default_model(model), p));
          }, nb::arg("model") = nb::none(), "Modeled cost under `model` (default: the defaults).")
      .def(nb::self == nb::self)
      .def("__len__", [](const Plan& p) { return p.steps.size(); })
      .def("__str__", [](const Plan& p) { return to_string(p); })
      .def("__repr__", [](const Plan& p) {
        std::string steps;
        for (const Step& s : p.steps) steps += (steps.empty() ? "" : "; ") + to_string(s);
        return "Plan(" + to_string(p.source) + " -> " + (p.target ? to_string(*p.target) : std::string("?")) +
               " on " + to_string(p.mesh) + ": " + std::to_string(p.steps.size()) + " steps [" + steps + "])";
      });

  nb::class_<OptimalPlan>(m, "OptimalPlan", "The cheapest plan under the cost model and what the search did.")
      .def_ro("plan", &OptimalPlan::plan)
      .def_ro("time_us", &OptimalPlan::time_us)
      .def_ro("expanded", &OptimalPlan::expanded)
      .def_ro("generated", &OptimalPlan::generated)
      .def_ro("proved", &OptimalPlan::proved, "False when the timeout stopped the search.")
      .def("__repr__", [](const OptimalPlan& o) {
        return "OptimalPlan(" + std::to_string(o.time_us) + " us, " + std::to_string(o.plan.steps.size()) +
               " steps, expanded " + std::to_string(o.expanded) + (o.proved ? "" : ", optimality not proved") + ")";
      });

  m.def("synthesize",
        [](const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh, const DistType& dst,
           std::optional<uint64_t> budget, const std::optional<CostModel>& model,
           std::optional<int64_t> max_expanded) {
          SynthOptions options;
          options.budget_bytes = budget;
          options.cost_model = model ? &*model : nullptr;
          options.max_expanded = max_expanded;
          return unwrap(synthesize(src_mesh, src, dst_mesh, dst, options));
        },
        nb::arg("src_mesh"), nb::arg("src"), nb::arg("dst_mesh"), nb::arg("dst"), nb::arg("budget") = nb::none(),
        nb::arg("cost_model") = nb::none(), nb::arg("max_expanded") = nb::none(),
        nb::call_guard<gil_scoped_release>(),
        "The default synthesis (docs/synthesis.md), plans ranked by `cost_model` (default: "
        "CostModel.bytes()), searching up to `max_expanded` states from its seeds (None: 100 where the model "
        "gives the mesh's axes two link speeds, else 0), GIL released.");
  m.def("optimal_plan",
        [](const Mesh& src_mesh, const DistType& src, const Mesh& dst_mesh, const DistType& dst,
           std::optional<uint64_t> budget, const std::optional<CostModel>& model, int64_t max_expanded,
           std::optional<double> timeout_s) {
          const CostModel cm = default_model(model);
          const Status valid = validate(cm, src_mesh);
          if (!valid) throw RaisedError{valid.error()};
          OptimalOptions options;
          options.budget_bytes = budget;
          options.max_expanded = max_expanded;
          options.timeout_s = timeout_s;
          return unwrap(optimal_plan(cm, src_mesh, src, dst_mesh, dst, options));
        },
        nb::arg("src_mesh"), nb::arg("src"), nb::arg("dst_mesh"), nb::arg("dst"), nb::arg("budget") = nb::none(),
        nb::arg("cost_model") = nb::none(), nb::arg("max_expanded") = 200'000, nb::arg("timeout_s") = nb::none(),
        nb::call_guard<gil_scoped_release>(),
        "The plan of least modeled time (docs/cost_model.md); after `timeout_s` the best so far "
        "(proved=False). GIL released.");
  m.def("baseline", &baseline_of, nb::arg("name"), nb::arg("src_mesh"), nb::arg("src"), nb::arg("dst_mesh"),
        nb::arg("dst"), nb::call_guard<gil_scoped_release>(),
        "A baseline plan: gather_then_slice, xla_style or all_reduce_then_slice (docs/synthesis.md).");
  m.def("parse_plan", [](std::string_view text) { return unwrap(parse_plan(text), text); }, nb::arg("text"));
  m.def("parse_cost_model", [](std::string_view text) { return unwrap(parse_cost_model(text), text); },
        nb::arg("text"));
}

}  // namespace redist::py
