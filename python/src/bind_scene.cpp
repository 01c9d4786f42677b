// pivot.load_scene and pivot.run (docs/python.md): scenes as files or as dicts of the same
// JSON, read by the library's strict scene reader, so errors carry the same message and JSON
// pointer as `pivot run`'s.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>
#include <pybind11/stl/filesystem.h>

#include <atomic>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include "bindings.hpp"
#include "pivot/core/error.hpp"
#include "pivot/engine/world.hpp"
#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/simulation.hpp"
#include "scene_arg.hpp"
#include "world_handle.hpp"
#include "world_record.hpp"

namespace py = pybind11;

namespace pivot::python {
namespace {

/// every frame of a run (the frames of trajectory.csv) as the 13 numbers of each body, collected
/// without the GIL and turned into arrays after the run
class FrameArrays : public RunSink {
 public:
  std::vector<double> t, state;  // state: per frame, per body: p (3), q wxyz (4), twist (ω; v)
  int bodies = 0;

  void frame(const World& world, double time) override {
    bodies = world.body_count();
    t.push_back(time);
    for (int i = 0; i < world.body_count(); ++i) {
      const Pose p = world.pose(i);
      const Vec6 V = world.twist(i);
      state.insert(state.end(), {p.p_WB.x(), p.p_WB.y(), p.p_WB.z(), p.q_WB.w(), p.q_WB.x(),
                                 p.q_WB.y(), p.q_WB.z()});
      state.insert(state.end(), V.data(), V.data() + 6);
    }
  }

  /// {"t": (F,), "positions": (F, n, 3), "quaternions_wxyz": (F, n, 4), "twists": (F, n, 6)}
  [[nodiscard]] py::dict arrays() const {
    const auto frames = static_cast<py::ssize_t>(t.size());
    const auto n = static_cast<py::ssize_t>(bodies);
    py::dict d;
    d["t"] = py::array_t<double>(frames, t.data());
    const auto part = [&](py::ssize_t first, py::ssize_t cols) {
      py::array_t<double> a({frames, n, cols});
      auto r = a.mutable_unchecked<3>();
      for (py::ssize_t f = 0; f < frames; ++f)
        for (py::ssize_t i = 0; i < n; ++i)
          for (py::ssize_t c = 0; c < cols; ++c)
            r(f, i, c) = state[static_cast<std::size_t>((f * n + i) * 13 + first + c)];
      return a;
    };
    d["positions"] = part(0, 3);
    d["quaternions_wxyz"] = part(3, 4);
    d["twists"] = part(7, 6);
    return d;
  }
};

}  // namespace

void bind_scene(py::module_& m) {
  m.def(
      "load_scene",
      [](const py::object& scene) {
        return new_scene_world(std::make_shared<const Scene>(scene_from(scene)));
      },
      py::arg("scene"), "a World built from a scene file's path or a dict of its JSON");
  m.def(
      "run_scene",
      [](const py::object& scene, std::optional<double> duration, bool frames) -> py::tuple {
        Scene s = scene_from(scene);
        // a recorded live run's events are applied by `pivot run` (tools/pivot); never ignored
        if (!s.interactions.empty())
          throw Error(s.source, "/interactions",
                      "run_scene does not apply a recording's interactions: use `pivot run`");
        if (duration) s.settings.duration = *duration;
        Simulation sim(s);
        RunSummary summary;
        FrameArrays arrays;
        // Ctrl-C: the run's thread checks Python's signals every 256 steps (the GIL taken for
        // it only then); a KeyboardInterrupt stops the run after its step and is raised here
        const auto runner = std::this_thread::get_id();
        std::atomic<bool> signalled = false;
        long polls = 0;
        RunHooks hooks;
        hooks.stop = [&] {
          // also polled inside long steps, from island threads: those only read the answer
          if (std::this_thread::get_id() != runner || signalled || ++polls % 256 != 0)
            return signalled.load();
          py::gil_scoped_acquire gil;
          signalled = PyErr_CheckSignals() != 0;
          return signalled.load();
        };
        {
          py::gil_scoped_release release;
          summary = sim.run(frames ? &arrays : nullptr, hooks);
        }
        if (signalled) throw py::error_already_set();
        if (summary.status == RunStatus::not_finite) throw Error(s.source + ": " + summary.failure);
        // summary.json's keys and values (docs/cli.md), with no files in "outputs"
        const py::object parsed = py::module_::import("json").attr("loads")(summary_json(summary));
        World world = std::move(sim.world());
        auto handle =
            ran_scene_world(std::move(world), std::make_shared<const Scene>(std::move(s)));
        if (frames) return py::make_tuple(std::move(handle), parsed, arrays.arrays());
        return py::make_tuple(std::move(handle), parsed);
      },
      py::arg("scene"), py::arg("duration") = py::none(), py::arg("frames") = false,
      "runs a scene in this process (without the GIL) through the Simulation `pivot run` "
      "uses; returns (world, summary), the summary with summary.json's keys, and with "
      "frames=True (world, summary, frames): trajectory.csv's frames as arrays. pivot.run "
      "wraps it.");
}

}  // namespace pivot::python
