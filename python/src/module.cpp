// The extension module redist._redist: the C++ library as Python objects. The
// friendly entry points (strings accepted where objects are expected) live in
// python/redist/__init__.py; docs/python.md describes both.

#include "common.hpp"

NB_MODULE(_redist, m) {
  m.doc() = "redist: verified array redistributions (C++ core bindings)";
  redist::py::bind_errors(m);
  redist::py::bind_types(m);
  redist::py::bind_plan(m);
  redist::py::bind_lowered(m);
  redist::py::bind_verify(m);
  redist::py::bind_notation(m);
}
