// pivot.Batch (docs/python.md "Batches of worlds"): n copies of a scene's World stepped on a
// thread pool in one call without the GIL (scenes/format/world_batch.hpp).

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <string>

#include "bindings.hpp"
#include "pivot/core/error.hpp"
#include "pivot/scenes/world_batch.hpp"
#include "scene_arg.hpp"

namespace py = pybind11;

namespace pivot::python {
namespace {

using Array = py::array_t<double>;

std::string shape_text(const py::array& a) {
  std::string s = "(";
  for (py::ssize_t i = 0; i < a.ndim(); ++i) s += (i ? ", " : "") + std::to_string(a.shape(i));
  return s + (a.ndim() == 1 ? ",)" : ")");
}

/// every copy reset; the (n, m) observations
Array reset(WorldBatch& b) {
  Array out({static_cast<py::ssize_t>(b.size()), static_cast<py::ssize_t>(b.observation_size())});
  double* data = out.mutable_data();
  {
    py::gil_scoped_release release;
    b.reset(data);
  }
  return out;
}

}  // namespace

void bind_batch(py::module_& m) {
  py::class_<WorldBatch>(m, "Batch",
                         "n independent copies of a scene's World, stepped together on a thread "
                         "pool (docs/python.md \"Batches of worlds\")")
      .def(py::init([](const py::object& scene, int n, int threads) {
             return std::make_unique<WorldBatch>(scene_from(scene), n, threads);
           }),
           py::arg("scene"), py::arg("n"), py::arg("threads") = 0,
           "scene: a path, a shipped scene's name or a dict; threads: 0 = every core")
      .def_property_readonly("size", &WorldBatch::size, "n")
      .def_property_readonly("action_size", &WorldBatch::action_size,
                             "k: the scene's actuator count")
      .def_property_readonly("observation_size", &WorldBatch::observation_size,
                             "m: 2 per actuator (q, q̇) plus the scene's sensors' values")
      .def_property_readonly("threads", &WorldBatch::threads)
      .def(
          "step",
          [](WorldBatch& b, const py::array& actions, int steps) {
            const auto n = static_cast<py::ssize_t>(b.size()),
                       k = static_cast<py::ssize_t>(b.action_size());
            const std::string expected = "(" + std::to_string(n) + ", " + std::to_string(k) + ")";
            if (actions.ndim() != 2 || actions.shape(0) != n || actions.shape(1) != k)
              throw Error("Batch.step: actions must have the shape " + expected +
                          " (copies × actuator targets), got " + shape_text(actions));
            const auto a =
                py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(actions);
            if (!a) throw Error("Batch.step: actions must be numbers (float64)");
            Array out({n, static_cast<py::ssize_t>(b.observation_size())});
            double* data = out.mutable_data();
            {
              py::gil_scoped_release release;
              b.step(a.data(), steps, data);
            }
            return out;
          },
          py::arg("actions"), py::arg("steps") = 1,
          "sets copy i's actuator targets to actions[i] (an (n, k) array, actuator order), steps "
          "every copy `steps` times without the GIL; returns the (n, m) observations")
      .def("reset", &reset,
           "every copy back to the scene's initial state; returns the (n, m) observations")
      .def(
          "state_hashes",
          [](const WorldBatch& b) {
            std::vector<std::string> out;
            for (int i = 0; i < b.size(); ++i) out.push_back(hash_to_hex(state_hash(b.world(i))));
            return out;
          },
          "each copy's final-state hash (pivot.World.state_hash)")
      .def(
          "times",
          [](const WorldBatch& b) {
            std::vector<double> out;
            for (int i = 0; i < b.size(); ++i) out.push_back(b.world(i).time());
            return out;
          },
          "each copy's time, s");
}

}  // namespace pivot::python
