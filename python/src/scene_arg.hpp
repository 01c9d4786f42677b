#pragma once
// A scene argument of the Python API (pivot.load_scene, pivot.run_scene, pivot.Batch): a path
// (str or os.PathLike) is read as a file; a dict as the scene's JSON, with relative mesh paths
// resolved against the current folder and "<dict>" naming it in errors.

#include <pybind11/pybind11.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <string>

#include "pivot/scenes/scene.hpp"

namespace pivot::python {

inline Scene scene_from(const pybind11::object& scene) {
  namespace py = pybind11;
  if (py::isinstance<py::dict>(scene)) {
    const auto text = py::cast<std::string>(py::module_::import("json").attr("dumps")(scene));
    return parse_scene(text, std::filesystem::current_path(), "<dict>");
  }
  return load_scene(py::cast<std::filesystem::path>(scene));
}

}  // namespace pivot::python
