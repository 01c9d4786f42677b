#pragma once
// The pieces of the `pivot` Python module (docs/python.md), one function per part, called by
// module.cpp. The module is a user of Pivot's public headers only, as the CLI is.

#include <pybind11/pybind11.h>

namespace pivot::python {

/// pivot.Error (with .source and .place) and the translation of pivot::Error to it
void bind_errors(pybind11::module_& m);
/// pivot.WorldSettings, pivot.World and the shape factories of pivot.shapes
void bind_world(pybind11::module_& m);
/// pivot.load_scene, pivot.run, pivot.state_hash
void bind_scene(pybind11::module_& m);
/// pivot.Batch (the native class; python/pivot/__init__.py resolves scene names)
void bind_batch(pybind11::module_& m);
/// pivot.lcp.solve
void bind_lcp(pybind11::module_& m);
/// pivot._pivot.load_sweep and Sweep, used by pivot.sweep
void bind_sweep(pybind11::module_& m);

}  // namespace pivot::python
