// pivot.load_scene and pivot.run (docs/python.md): scenes as files or as dicts of the same
// JSON, read by the library's strict scene reader, so errors carry the same message and JSON
// pointer as `pivot run`'s.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <cmath>
#include <filesystem>
#include <string>

#include "bindings.hpp"
#include "pivot/core/error.hpp"
#include "pivot/engine/world.hpp"
#include "pivot/scenes/run_length.hpp"
#include "pivot/scenes/scene.hpp"
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
        World world = build_world(s);
        const long steps = steps_for_duration(s.settings.duration, s.settings.world.time_step);
        long failed_steps = 0;
        bool finite = true;
        {
          py::gil_scoped_release release;
          for (long k = 0; k < steps && finite; ++k) {
            if (world.step().failures > 0) ++failed_steps;
            for (int i = 0; i < world.body_count() && finite; ++i)
              finite = world.pose(i).p_WB.allFinite() && world.twist(i).allFinite();
          }
        }
        if (!finite)
          throw Error(s.source + ": the state became non-finite at t = " +
                      std::to_string(world.time()) + " s");
        const RunTotals& t = world.totals();
        py::dict summary;
        summary["scene"] = s.name;
        summary["steps"] = world.step_count();
        summary["simulated_time_s"] = step_time(world.step_count(), s.settings.world.time_step);
        summary["final_state_hash"] = hash_to_hex(state_hash(world));
        summary["kinetic_energy"] = world.kinetic_energy();
        summary["potential_energy"] = world.potential_energy();
        summary["lcp_solves"] = t.lcp_solves;
        summary["pivots"] = t.pivots;
        summary["failed_steps"] = failed_steps;
        summary["max_joint_error"] = world.max_joint_error();
        return py::make_tuple(std::make_unique<WorldHandle>(std::move(world)), summary);
      },
      py::arg("scene"), py::arg("duration") = py::none(),
      "runs a scene in this process (without the GIL) as `pivot run` steps it; returns "
      "(world, summary). pivot.run wraps it.");
}

}  // namespace pivot::python
