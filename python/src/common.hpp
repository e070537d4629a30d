#pragma once
// Shared pieces of the Python bindings (docs/python.md): library errors raised as
// Python exceptions, exact big integers as Python ints, and the per-area binders.

#include <nanobind/nanobind.h>

#include <utility>

#include "redist/core/bigint.hpp"
#include "redist/core/result.hpp"

namespace redist::py {

namespace nb = nanobind;

/// A library Error on its way to Python; translated (with the GIL held) into
/// ValueError, redist.UnsupportedError, redist.NoPlanError or RuntimeError, carrying
/// `kind` and `position` attributes.
struct RaisedError {
  Error error;
  std::string text;  // the parsed text the error is placed in (Error::to_string(text)), or empty
};

/// Returns the value of `result`, or throws its error as RaisedError; `text`: the text
/// parsed, so that a multi-line one's error names the line and column.
template <class T>
T unwrap(Result<T>&& result, std::string_view text = {}) {
  if (!result) throw RaisedError{result.error(), std::string(text)};
  return std::move(result).value();
}

/// Returns `value` as a Python int (exact).
nb::object to_py_int(const BigInt& value);

/// Registers the exception classes and the translator on `m`.
void bind_errors(nb::module_& m);
/// Mesh, AxisRef, Dim, DistType and their parsers.
void bind_types(nb::module_& m);
/// Step, Plan, figures, cost model and the planners (synthesis, optimal, baselines).
void bind_plan(nb::module_& m);
/// The lowered form of plans.
void bind_lowered(nb::module_& m);
/// The checker's verdicts and the concrete interpreter.
void bind_verify(nb::module_& m);
/// The notation converters, as the submodule `notation`.
void bind_notation(nb::module_& m);

}  // namespace redist::py
