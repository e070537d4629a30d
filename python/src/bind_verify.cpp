// The checker (docs/design.md §3): verdicts for G1-G3 with counterexamples, run with
// the GIL released; and the concrete interpreter, an independent oracle that runs a
// plan on test data and names the first wrong element.

#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <optional>
#include <string>

#include "common.hpp"
#include "redist/plan/typing.hpp"
#include "redist/verify/checker.hpp"
#include "redist/verify/interpreter.hpp"
#include "redist/verify/verdict.hpp"

namespace redist::py {
namespace {

std::string short_verdict(const PropertyResult& r) { return std::string(verdict_name(r.verdict)); }

/// Runs `plan` on distinct test values and compares the result with the plan's target
/// (or final) type; the first mismatch, or None.
std::optional<Mismatch> simulate(const Plan& plan) {
  auto states = unwrap(type_plan(plan));
  const TypedState end = states.empty() ? TypedState{plan.mesh, plan.source} : states.back();
  auto out = unwrap(run_plan(plan, distribute(plan.mesh, plan.source)));
  return compare(end.mesh, plan.target ? *plan.target : end.type, out);
}

}  // namespace

void bind_verify(nb::module_& m) {
  nb::class_<Counterexample>(m, "Counterexample", "A concrete witness that a property fails.")
      .def_ro("device", &Counterexample::device)
      .def_ro("coords", &Counterexample::coords)
      .def_ro("local_index", &Counterexample::local_index)
      .def_ro("expected_global", &Counterexample::expected_global)
      .def_ro("actual_global", &Counterexample::actual_global)
      .def_ro("step", &Counterexample::step, "1-based step to blame; 0 when none is.")
      .def_ro("reason", &Counterexample::reason)
      .def("__str__", &Counterexample::to_string)
      .def("__repr__", [](const Counterexample& c) { return "Counterexample(" + c.to_string() + ")"; });

  nb::class_<PropertyResult>(m, "PropertyResult", "The outcome of one property query.")
      .def_prop_ro("verdict", &short_verdict, "proved, refuted or unknown.")
      .def_ro("counterexample", &PropertyResult::counterexample)
      .def_ro("detail", &PropertyResult::detail)
      .def_ro("solver_ms", &PropertyResult::solver_ms)
      .def_ro("smt2", &PropertyResult::smt2, "The query as SMT-LIB2 when check(keep_smt2=True).")
      .def("__bool__", [](const PropertyResult& r) { return r.verdict == Verdict::proved; })
      .def("__repr__", [](const PropertyResult& r) {
        std::string text = "PropertyResult(" + short_verdict(r);
        if (r.counterexample) text += ": " + r.counterexample->to_string();
        else if (!r.detail.empty()) text += ": " + r.detail;
        return text + ")";
      });

  nb::class_<CheckReport>(m, "CheckReport", "Every verdict and figure of one check (G1-G3).")
      .def_ro("correct", &CheckReport::correct, "G1")
      .def_ro("memory", &CheckReport::memory, "G2")
      .def_ro("no_peak", &CheckReport::no_peak, "G3a: nothing received is later dropped")
      .def_ro("tight", &CheckReport::tight, "G3b: proved when received == LB(d) on every device")
      .def_prop_ro("transfers", [](const CheckReport& r) { return std::string(transfers_name(r.transfers)); },
                   "tight, excess or unknown.")
      .def_ro("received_over_lower_bound", &CheckReport::received_over_lower_bound)
      .def_prop_ro("bound_bytes", [](const CheckReport& r) { return to_py_int(r.bound_bytes); })
      .def_prop_ro("peak_local_bytes", [](const CheckReport& r) { return to_py_int(r.peak_local_bytes); })
      .def_prop_ro("transient_peak_bytes", [](const CheckReport& r) { return to_py_int(r.transient_peak_bytes); })
      .def_prop_ro("recv_bytes_max", [](const CheckReport& r) { return to_py_int(r.recv_bytes_max); })
      .def_prop_ro("lower_bound_bytes_max", [](const CheckReport& r) {
            return r.lower_bound_bytes_max ? to_py_int(*r.lower_bound_bytes_max) : nb::object(nb::none());
          })
      .def_ro("solver_ms", &CheckReport::solver_ms)
      .def_prop_ro("verified", &CheckReport::verified,
                   "correct, memory and no_peak proved and transfers known.")
      .def("__bool__", &CheckReport::verified)
      .def("__repr__", [](const CheckReport& r) {
        return "CheckReport(verified=" + std::string(r.verified() ? "True" : "False") +
               ", correct=" + short_verdict(r.correct) + ", memory=" + short_verdict(r.memory) +
               ", no_peak=" + short_verdict(r.no_peak) + ", transfers=" + std::string(transfers_name(r.transfers)) +
               " (" + r.received_over_lower_bound + "), peak " + to_decimal(r.peak_local_bytes) + " of " +
               to_decimal(r.bound_bytes) + " bytes)";
      });

  nb::class_<Mismatch>(m, "Mismatch", "The first element the interpreter found wrong.")
      .def_ro("device", &Mismatch::device)
      .def_ro("local_index", &Mismatch::local_index)
      .def_ro("expected", &Mismatch::expected)
      .def_ro("actual", &Mismatch::actual)
      .def("__str__", &Mismatch::to_string)
      .def("__repr__", [](const Mismatch& x) { return "Mismatch(" + x.to_string() + ")"; });

  m.def("check",
        [](const Plan& plan, std::optional<uint64_t> budget, unsigned timeout_ms, bool keep_smt2) {
          CheckOptions options;
          if (budget) options.budget_bytes = BigInt(*budget);
          options.timeout_ms = timeout_ms;
          options.keep_smt2 = keep_smt2;
          return unwrap(check_plan(plan, options));
        },
        nb::arg("plan"), nb::arg("budget") = nb::none(), nb::arg("timeout_ms") = 10000, nb::arg("keep_smt2") = false,
        nb::call_guard<nb::gil_scoped_release>(),
        "Proves or refutes G1-G3 of `plan` against its asserted target with Z3, GIL released.");
  m.def("solver_version", &solver_version, "The version of the Z3 library the checker runs.");
  m.def("simulate", &simulate, nb::arg("plan"), nb::call_guard<nb::gil_scoped_release>(),
        "Runs `plan` on distinct values with the concrete interpreter; the first wrong element, or None.");
}

}  // namespace redist::py
