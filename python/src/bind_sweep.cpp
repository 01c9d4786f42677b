// pivot._pivot.load_sweep and the Sweep object behind pivot.sweep (docs/sweeps.md): the
// library's sweep reader, expansion, variant run and row format, so that Python's tables are
// `pivot sweep`'s byte for byte.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <string>

#include "bindings.hpp"
#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/sweep.hpp"

namespace py = pybind11;

namespace pivot::python {

void bind_sweep(py::module_& m) {
  py::class_<Sweep>(m, "Sweep", "a sweep file, read and checked (pivot.load_sweep)")
      .def_readonly("source", &Sweep::source, "the sweep file as given")
      .def_property_readonly(
          "scene_file", [](const Sweep& s) { return s.scene_file; }, "the base scene's path")
      .def_property_readonly(
          "pointers",
          [](const Sweep& s) {
            std::vector<std::string> out;
            for (const SweepParameter& p : s.parameters) out.push_back(p.pointer);
            return out;
          },
          "the parameters' JSON pointers, in the file's order")
      .def_property_readonly("size", &sweep_size, "the number of variants")
      .def_property_readonly("columns", &sweep_columns, "the columns of results.csv")
      .def(
          "variant", [](const Sweep& s, long i) { return sweep_variant(s, i).values; },
          py::arg("index"), "variant i's parameter values as JSON text, one per pointer")
      .def(
          "variant_cells",
          [](const Sweep& s, long i) {
            const SweepVariant v = sweep_variant(s, i);
            std::vector<std::string> row = sweep_error_row(s, v, "", "");
            row.resize(1 + v.values.size());
            return row;
          },
          py::arg("index"), "variant i's index and parameter cells as `pivot sweep --list`")
      .def(
          "variant_scene_json",
          [](const Sweep& s, long i) { return variant_scene_json(s, sweep_variant(s, i)); },
          py::arg("index"), "variant i's scene as JSON text")
      .def(
          "resolved_variant_scene",
          [](const Sweep& s, long i) {
            const SweepVariant v = sweep_variant(s, i);
            return resolved_scene_json(
                parse_scene(variant_scene_json(s, v), s.scene_file.parent_path(), s.scene));
          },
          py::arg("index"),
          "variant i's scene as `pivot check` prints it (absolute mesh paths); pivot.Error when "
          "it is invalid")
      .def(
          "run_row",
          [](const Sweep& s, long i) {
            const SweepVariant v = sweep_variant(s, i);
            std::vector<std::string> row;
            {
              py::gil_scoped_release release;
              row = run_sweep_variant(s, v);
            }
            return csv_line(row);
          },
          py::arg("index"),
          "runs variant i (without the GIL) and returns its results.csv line, as `pivot sweep`")
      .def(
          "error_row",
          [](const Sweep& s, long i, const std::string& status, const std::string& error) {
            return csv_line(sweep_error_row(s, sweep_variant(s, i), status, error));
          },
          py::arg("index"), py::arg("status"), py::arg("error"),
          "the results.csv line of a variant without a result of its own (status \"crashed\")")
      .def_property_readonly(
          "header", [](const Sweep& s) { return csv_line(sweep_columns(s)); },
          "the header line of results.csv")
      .def(
          "read_results",
          [](const Sweep& s, const std::filesystem::path& file) {
            return read_sweep_results(s, file);
          },
          py::arg("file"),
          "the complete rows of a results.csv to resume from, by index (not the crashed ones)");
  m.def(
      "load_sweep", [](const std::filesystem::path& file) { return load_sweep(file); },
      py::arg("file"), "reads a sweep file (docs/sweeps.md); pivot.Error with its JSON pointer");
  m.def("csv_line", &csv_line, py::arg("cells"), "cells as one results.csv line");
}

}  // namespace pivot::python
