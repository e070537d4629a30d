// Library errors as Python exceptions, and big integers as Python ints.

#include <Python.h>

#include "common.hpp"

namespace redist::py {
namespace {

PyObject* unsupported_class = nullptr;
PyObject* no_plan_class = nullptr;

const char* kind_name(Error::Kind kind) {
  switch (kind) {
    case Error::Kind::parse: return "parse";
    case Error::Kind::invalid: return "invalid";
    case Error::Kind::unsupported: return "unsupported";
    case Error::Kind::overflow: return "overflow";
    case Error::Kind::no_plan: return "no_plan";
    case Error::Kind::runtime: return "runtime";
  }
  return "runtime";
}

PyObject* class_of(Error::Kind kind) {
  switch (kind) {
    case Error::Kind::unsupported: return unsupported_class;
    case Error::Kind::no_plan: return no_plan_class;
    case Error::Kind::runtime: return PyExc_RuntimeError;
    default: return PyExc_ValueError;  // parse, invalid, overflow: bad input
  }
}

void raise(const Error& error, std::string_view text) {
  PyObject* cls = class_of(error.kind);
  const std::string message = text.empty() ? error.to_string() : error.to_string(text);
  nb::object exc = nb::steal(PyObject_CallFunction(cls, "s", message.c_str()));
  if (!exc.is_valid()) return;  // the constructor raised; keep its error
  nb::setattr(exc, "kind", nb::str(kind_name(error.kind)));
  nb::setattr(exc, "position", error.position == Error::npos ? nb::object(nb::none()) : nb::int_(error.position));
  nb::setattr(exc, "reason", nb::str(error.message.c_str()));
  PyErr_SetObject(cls, exc.ptr());
}

}  // namespace

nb::object to_py_int(const BigInt& value) {
  return nb::steal(PyLong_FromString(to_decimal(value).c_str(), nullptr, 10));
}

void bind_errors(nb::module_& m) {
  unsupported_class = PyErr_NewExceptionWithDoc(
      "redist._redist.UnsupportedError",
      "The case is outside what redist plans (e.g. non-divisible dims for synthesis).", PyExc_ValueError, nullptr);
  no_plan_class = PyErr_NewExceptionWithDoc("redist._redist.NoPlanError",
                                            "No plan fits the memory budget (or the search gave up).",
                                            PyExc_ValueError, nullptr);
  m.attr("UnsupportedError") = nb::borrow(unsupported_class);
  m.attr("NoPlanError") = nb::borrow(no_plan_class);
  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const RaisedError& e) {
      raise(e.error, e.text);
    }
  });
}

}  // namespace redist::py
