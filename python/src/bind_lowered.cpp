// The lowered form of a plan (docs/design.md §2): per step the device groups in member
// order, the permute (source, target) pairs, the slice offsets per device and the
// all-to-all split and concat dims, all read from the one lowering in plan/.
// Tables (groups, pairs, offsets) are computed when asked for, on the step's mesh.

#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <string>
#include <type_traits>
#include <variant>

#include "common.hpp"
#include "redist/plan/lowered.hpp"
#include "redist/plan/plan.hpp"

namespace redist::py {
namespace {

/// The group spec of ops that have one, else nullptr (a permute, a transfer).
const GroupSpec* group_of(const LoweredOp& op) {
  return std::visit([](const auto& o) -> const GroupSpec* {
    using Op = std::decay_t<decltype(o)>;
    if constexpr (std::is_same_v<Op, LoweredPermute> || std::is_same_v<Op, LoweredTransfer>) return nullptr;
    else return &o.group;
  }, op);
}

nb::object maybe_int(bool present, int64_t value) { return present ? nb::int_(value) : nb::object(nb::none()); }

std::string describe(const LoweredStep& s) {
  std::string text = std::string(lowered_name(s.op));
  if (const GroupSpec* g = group_of(s.op)) text += " over " + to_string(g->axes) + " (groups of " +
                                                   std::to_string(g->size) + ")";
  return text + ": " + to_string(s.before.type) + " -> " + to_string(s.after.type);
}

}  // namespace

void bind_lowered(nb::module_& m) {
  nb::class_<PermuteMove>(m, "PermuteMove",
                          "Part of a symbolic permute: the source's coordinates on source_axes are the "
                          "target's on target_axes read as one number.")
      .def_ro("source_axes", &PermuteMove::source_axes)
      .def_ro("target_axes", &PermuteMove::target_axes)
      .def("__repr__", [](const PermuteMove& p) {
        return "PermuteMove(" + to_string(p.source_axes) + " <- " + to_string(p.target_axes) + ")";
      });

  nb::class_<LoweredStep>(m, "LoweredStep", "One step as it runs (docs/design.md §2).")
      .def_prop_ro("kind", [](const LoweredStep& s) { return std::string(lowered_name(s.op)); })
      .def_ro("before", &LoweredStep::before)
      .def_ro("after", &LoweredStep::after)
      .def_prop_ro("dim", [](const LoweredStep& s) {
            return std::visit([](const auto& o) -> nb::object {
              using Op = std::decay_t<decltype(o)>;
              if constexpr (std::is_same_v<Op, LoweredSlice> || std::is_same_v<Op, LoweredReduceScatter>)
                return nb::int_(o.dim);
              else if constexpr (std::is_same_v<Op, LoweredGather>)
                return o.parts.size() == 1 ? nb::int_(o.parts[0].dim) : nb::object(nb::none());
              else return nb::none();
            }, s.op);
          }, "Sliced, scattered or gathered dim (an all_gather of one part); else None.")
      .def_prop_ro("gather_parts", [](const LoweredStep& s) -> nb::object {
            auto* g = std::get_if<LoweredGather>(&s.op);
            if (!g) return nb::none();
            nb::list parts;
            for (const auto& p : g->parts) parts.append(nb::make_tuple(p.dim, p.size));
            return parts;
          }, "An all_gather's (dim, members) per part, part 0 most significant; else None.")
      .def_prop_ro("split_dim", [](const LoweredStep& s) {
            auto* a = std::get_if<LoweredAllToAll>(&s.op);
            const bool one = a != nullptr && a->parts.size() == 1;
            return maybe_int(one, one ? a->parts[0].split_dim : 0);
          }, "Split dim of an all_to_all of one part; else None.")
      .def_prop_ro("concat_dim", [](const LoweredStep& s) {
            auto* a = std::get_if<LoweredAllToAll>(&s.op);
            const bool one = a != nullptr && a->parts.size() == 1;
            return maybe_int(one, one ? a->parts[0].concat_dim : 0);
          }, "Concat dim of an all_to_all of one part; else None.")
      .def_prop_ro("parts", [](const LoweredStep& s) -> nb::object {
            auto* a = std::get_if<LoweredAllToAll>(&s.op);
            if (!a) return nb::none();
            nb::list parts;
            for (const auto& p : a->parts) parts.append(nb::make_tuple(p.split_dim, p.concat_dim, p.size));
            return parts;
          }, "An all_to_all's (split dim, concat dim, members) per part, part 0 most significant; else None.")
      .def_prop_ro("chunk", [](const LoweredStep& s) {
            auto* a = std::get_if<LoweredSlice>(&s.op);
            return maybe_int(a != nullptr, a ? a->chunk : 0);
          }, "Elements each device keeps along the sliced dim; else None.")
      .def_prop_ro("reduce_op", [](const LoweredStep& s) {
            return std::visit([](const auto& o) -> nb::object {
              using Op = std::decay_t<decltype(o)>;
              if constexpr (std::is_same_v<Op, LoweredReduceScatter> || std::is_same_v<Op, LoweredAllReduce> ||
                            std::is_same_v<Op, LoweredAddPending>)
                return nb::str(std::string(reduce_op_name(o.op)).c_str());
              else return nb::none();
            }, s.op);
          })
      .def_prop_ro("group_axes", [](const LoweredStep& s) {
            const GroupSpec* g = group_of(s.op);
            return g ? nb::cast(g->axes) : nb::object(nb::none());
          }, "Axes the groups run over, major first (None for a permute).")
      .def_prop_ro("group_size", [](const LoweredStep& s) {
            const GroupSpec* g = group_of(s.op);
            return maybe_int(g != nullptr, g ? g->size : 0);
          })
      .def_prop_ro("explicit_table", [](const LoweredStep& s) {
            const GroupSpec* g = group_of(s.op);
            if (g) return g->table.has_value();
            if (const auto* p = std::get_if<LoweredPermute>(&s.op)) return p->table.has_value();
            return false;  // a transfer's sends are always a table: see `sends`
          }, "True when the plan gave explicit groups or pairs (an imported plan).")
      .def_prop_ro("sends", [](const LoweredStep& s) -> nb::object {
            auto* t = std::get_if<LoweredTransfer>(&s.op);
            if (!t) return nb::none();
            nb::list out;
            for (const auto& box : t->sends)
              out.append(nb::make_tuple(box.from, box.to, nb::cast(box.src_start), nb::cast(box.dst_start),
                                        nb::cast(box.extent)));
            return out;
          }, "A transfer's sends as (from, to, src_start, dst_start, extent) (None unless a transfer).")
      .def_prop_ro("groups", [](const LoweredStep& s) {
            const GroupSpec* g = group_of(s.op);
            return g ? nb::cast(group_table(*g, s.before.mesh)) : nb::object(nb::none());
          }, "Physical device ids per group, members in order (None for a permute).")
      .def_prop_ro("offsets", [](const LoweredStep& s) {
            auto* a = std::get_if<LoweredSlice>(&s.op);
            return a ? nb::cast(slice_offsets(*a, s.before.mesh)) : nb::object(nb::none());
          }, "Slice offset of every physical device (None unless a slice).")
      .def_prop_ro("pairs", [](const LoweredStep& s) {
            auto* a = std::get_if<LoweredPermute>(&s.op);
            return a ? nb::cast(pair_table(*a, s.before.mesh, s.after.mesh)) : nb::object(nb::none());
          }, "(source, target) physical ids, one per target (None unless a permute).")
      .def_prop_ro("moves", [](const LoweredStep& s) {
            auto* a = std::get_if<LoweredPermute>(&s.op);
            return a ? nb::cast(a->moves) : nb::object(nb::none());
          })
      .def("__repr__", [](const LoweredStep& s) { return "LoweredStep(" + describe(s) + ")"; });

  nb::class_<LoweredPlan>(m, "LoweredPlan", "A lowered plan: the source state and the steps as they run.")
      .def_ro("source", &LoweredPlan::source)
      .def_ro("steps", &LoweredPlan::steps)
      .def("__len__", [](const LoweredPlan& p) { return p.steps.size(); })
      .def("__repr__", [](const LoweredPlan& p) {
        std::string text = "LoweredPlan(" + to_string(p.source.type);
        for (const LoweredStep& s : p.steps) text += "\n  " + describe(s);
        return text + ")";
      });

  m.def("lower", [](const Plan& plan) { return unwrap(lower(plan)); }, nb::arg("plan"),
        "The lowered form of `plan`; ValueError when a step does not type.");
}

}  // namespace redist::py
