// The `pivot` Python module's native part, `pivot._pivot` (python/pivot/__init__.py re-exports
// it). docs/python.md describes the API.

#include <pybind11/pybind11.h>

#include "bindings.hpp"
#include "pivot/version.hpp"  // pivot::kVersion

PYBIND11_MODULE(_pivot, m) {
  m.doc() = "Pivot: full-coordinate LCP rigid-body dynamics (docs/python.md)";
  m.attr("__version__") = pivot::kVersion;
  pivot::python::bind_errors(m);
  pivot::python::bind_world(m);
  pivot::python::bind_scene(m);
  pivot::python::bind_batch(m);
  pivot::python::bind_lcp(m);
  pivot::python::bind_sweep(m);
}
