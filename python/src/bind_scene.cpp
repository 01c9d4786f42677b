// pivot.load_scene and pivot.run (docs/python.md): scenes as files or as dicts of the same
// JSON, read by the library's strict scene reader, so errors carry the same message and JSON
// pointer as `pivot run`'s.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <filesystem>
#include <string>

#include "bindings.hpp"
#include "pivot/core/error.hpp"
#include "pivot/engine/world.hpp"
#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/simulation.hpp"
#include "world_handle.hpp"

namespace py = pybind11;

namespace pivot::python {
namespace {

/// a path (str or os.PathLike) is read as a file; a dict as the scene's JSON, with relative
/// mesh paths resolved against the current folder and "<dict>" naming it in errors
Scene scene_from(const py::object& scene) {
  if (py::isinstance<py::dict>(scene)) {
    const auto text = py::cast<std::string>(py::module_::import("json").attr("dumps")(scene));
    return parse_scene(text, std::filesystem::current_path(), "<dict>");
  }
  return load_scene(py::cast<std::filesystem::path>(scene));
}

}  // namespace

void bind_scene(py::module_& m) {
  m.def(
      "load_scene",
      [](const py::object& scene) {
        return std::make_unique<WorldHandle>(build_world(scene_from(scene)));
      },
      py::arg("scene"), "a World built from a scene file's path or a dict of its JSON");
  m.def(
      "run_scene",
      [](const py::object& scene, std::optional<double> duration) {
        Scene s = scene_from(scene);
        // a recorded live run's events are applied by `pivot run` (tools/pivot); never ignored
        if (!s.interactions.empty())
          throw Error(s.source, "/interactions",
                      "run_scene does not apply a recording's interactions: use `pivot run`");
        if (duration) s.settings.duration = *duration;
        Simulation sim(s);
        RunSummary summary;
        {
          py::gil_scoped_release release;
          summary = sim.run(nullptr);
        }
        if (summary.status == RunStatus::not_finite) throw Error(s.source + ": " + summary.failure);
        // summary.json's keys and values (docs/cli.md), with no files in "outputs"
        const py::object parsed = py::module_::import("json").attr("loads")(summary_json(summary));
        World world = std::move(sim.world());
        return py::make_tuple(std::make_unique<WorldHandle>(std::move(world)), parsed);
      },
      py::arg("scene"), py::arg("duration") = py::none(),
      "runs a scene in this process (without the GIL) through the Simulation `pivot run` "
      "uses; returns (world, summary), the summary with summary.json's keys. pivot.run wraps "
      "it.");
}

}  // namespace pivot::python
