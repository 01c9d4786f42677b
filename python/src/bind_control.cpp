// pivot.World's actuators and sensors, its observation, and its copies: save, load, restore,
// copy.copy, copy.deepcopy and pickle (world_control.hpp, docs/python.md).

#include <pybind11/eigen.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <cmath>
#include <limits>
#include <string>
#include <variant>
#include <vector>

#include "pivot/core/error.hpp"
#include "pivot/scenes/world_batch.hpp"
#include "world_control.hpp"
#include "world_record.hpp"

namespace py = pybind11;

namespace pivot::python {
namespace {

using Array = py::array_t<double>;
/// a joint or body given by index or by name
using IndexOrName = std::variant<int, std::string>;

Array array_of(const std::vector<double>& v) {
  return Array(static_cast<py::ssize_t>(v.size()), v.data());
}

ActuatorType actuator_type(const std::string& type) {
  for (const ActuatorType t :
       {ActuatorType::effort, ActuatorType::position, ActuatorType::velocity})
    if (type == to_string(t)) return t;
  throw Error("add_actuator: unknown type \"" + type +
              "\" (expected \"effort\", \"position\" or \"velocity\")");
}

int joint_index(const World& w, const IndexOrName& joint, const char* who) {
  if (const int* j = std::get_if<int>(&joint)) return *j;
  const auto& name = std::get<std::string>(joint);
  for (int j = 0; j < w.joint_count(); ++j)
    if (w.joint(j).name() == name) return j;
  throw Error(std::string(who) + ": no joint named \"" + name + "\"");
}

int actuator_index(const World& w, const IndexOrName& actuator, const char* who) {
  if (const int* a = std::get_if<int>(&actuator)) return *a;
  const auto& name = std::get<std::string>(actuator);
  for (int a = 0; a < w.actuator_count(); ++a)
    if (w.actuator(a).name() == name) return a;
  throw Error(std::string(who) + ": no actuator named \"" + name + "\"");
}

int body_index(const World& w, const IndexOrName& body, const char* who) {
  if (const int* b = std::get_if<int>(&body)) return *b;
  const int b = w.find_body(std::get<std::string>(body));
  if (b < 0)
    throw Error(std::string(who) + ": no body named \"" + std::get<std::string>(body) + "\"");
  return b;
}

/// a target: a number (a constant) or keys [(t, value), ...]
std::vector<std::pair<double, double>> target_keys(const py::object& target) {
  if (py::isinstance<py::float_>(target) || py::isinstance<py::int_>(target))
    return {{0.0, py::cast<double>(target)}};
  return py::cast<std::vector<std::pair<double, double>>>(target);
}

// ---- world.actuators["name"], world.sensors["name"] ----

/// the World's actuators (or sensors) as a read-only mapping of names to views
struct Members {
  py::object world;
  bool sensors = false;
};

struct ActuatorView {
  py::object world;
  int index = 0;
  [[nodiscard]] WorldHandle& handle() const { return world.cast<WorldHandle&>(); }
};

struct SensorView {
  py::object world;
  int index = 0;
  [[nodiscard]] WorldHandle& handle() const { return world.cast<WorldHandle&>(); }
};

std::vector<std::string> names(const Members& m) {
  const WorldHandle::Use w(m.world.cast<WorldHandle&>());
  std::vector<std::string> out;
  if (m.sensors)
    for (int s = 0; s < w.sensors().set.size(); ++s) out.push_back(w.sensors().set.name(s));
  else
    for (int a = 0; a < w->actuator_count(); ++a) out.push_back(w->actuator(a).name());
  return out;
}

int member_index(const Members& m, const IndexOrName& key) {
  const WorldHandle::Use w(m.world.cast<WorldHandle&>());
  const int size = m.sensors ? w.sensors().set.size() : w->actuator_count();
  const char* what = m.sensors ? "sensor" : "actuator";
  if (const int* i = std::get_if<int>(&key)) {
    if (*i < 0 || *i >= size)
      throw py::index_error(std::string(what) + " index " + std::to_string(*i) +
                            " out of range (the World has " + std::to_string(size) + ")");
    return *i;
  }
  const auto& name = std::get<std::string>(key);
  for (int i = 0; i < size; ++i)
    if ((m.sensors ? w.sensors().set.name(i) : w->actuator(i).name()) == name) return i;
  throw py::key_error(std::string("no ") + what + " named \"" + name + "\"");
}

void bind_views(py::module_& m) {
  py::class_<Members>(m, "_Members", "a World's actuators or sensors by name (a read-only mapping)")
      .def("__len__", [](const Members& s) { return names(s).size(); })
      .def("keys", &names, "the names, in index order")
      .def("__iter__", [](const Members& s) { return py::iter(py::cast(names(s))); })
      .def("__contains__",
           [](const Members& s, const std::string& name) {
             for (const auto& n : names(s))
               if (n == name) return true;
             return false;
           })
      .def("__getitem__", [](const Members& s, const IndexOrName& key) -> py::object {
        const int i = member_index(s, key);
        if (s.sensors) return py::cast(SensorView{s.world, i});
        return py::cast(ActuatorView{s.world, i});
      });

  py::class_<ActuatorView>(m, "Actuator", "an actuator of a World (world.actuators[name])")
      .def_property_readonly("name",
                             [](const ActuatorView& a) {
                               return WorldHandle::Use(a.handle())->actuator(a.index).name();
                             })
      .def_property_readonly("index", [](const ActuatorView& a) { return a.index; })
      .def_property_readonly("joint",
                             [](const ActuatorView& a) {
                               return WorldHandle::Use(a.handle())->actuator(a.index).joint();
                             })
      .def_property_readonly(
          "type",
          [](const ActuatorView& a) {
            return std::string(to_string(WorldHandle::Use(a.handle())->actuator(a.index).type()));
          })
      .def_property(
          "target",
          [](const ActuatorView& a) {
            const WorldHandle::Use w(a.handle());
            return w->actuator(a.index).target(w->time());
          },
          [](const ActuatorView& a, double value) {
            WorldHandle::Use(a.handle())->set_actuator_target(a.index, value);
          },
          "the target at the World's time (rad, m, rad/s, m/s, N·m or N by type and joint); "
          "setting it makes it that constant from the next step on")
      .def_property_readonly(
          "effort",
          [](const ActuatorView& a) {
            return WorldHandle::Use(a.handle())->actuator(a.index).effort();
          },
          "the effort of the last step, N·m or N")
      .def("__repr__", [](const ActuatorView& a) {
        const WorldHandle::Use w(a.handle());
        return "<pivot.Actuator \"" + w->actuator(a.index).name() + "\" " +
               to_string(w->actuator(a.index).type()) + ">";
      });

  py::class_<SensorView>(m, "Sensor", "a sensor of a World (world.sensors[name])")
      .def_property_readonly("name",
                             [](const SensorView& s) {
                               return WorldHandle::Use(s.handle()).sensors().set.name(s.index);
                             })
      .def_property_readonly(
          "fields",
          [](const SensorView& s) {
            return WorldHandle::Use(s.handle()).sensors().set.fields(s.index);
          },
          "the names of read()'s values, in order")
      .def_property_readonly(
          "time",
          [](const SensorView& s) {
            return WorldHandle::Use(s.handle()).sensors().set.latest(s.index).time;
          },
          "the time of the latest sample, s (-1 before the first)")
      .def(
          "read",
          [](const SensorView& s) {
            const WorldHandle::Use w(s.handle());
            const SensorSet& set = w.sensors().set;
            const SensorSample& latest = set.latest(s.index);
            return array_of(latest.time < 0.0 ? set.read(*w, s.index) : latest.values);
          },
          "the latest sample's values (sampled after each step at the sensor's period; before "
          "the first sample, the values now), a NumPy array in the order of .fields")
      .def("__repr__", [](const SensorView& s) {
        return "<pivot.Sensor \"" + WorldHandle::Use(s.handle()).sensors().set.name(s.index) +
               "\">";
      });
}

// ---- add_actuator, add_sensor ----

int add_actuator(WorldHandle& h, const IndexOrName& joint, const std::string& type, double kp,
                 double kd, double effort_limit, const py::object& target,
                 const std::string& name) {
  const WorldHandle::Use w(h);
  ActuatorSettings s;
  s.joint =
      joint_index(*w, joint, name.empty() ? "add_actuator" : ("actuator \"" + name + "\"").c_str());
  s.name =
      name.empty() && s.joint >= 0 && s.joint < w->joint_count() ? w->joint(s.joint).name() : name;
  s.type = actuator_type(type);
  s.kp = kp;
  s.kd = kd;
  s.effort_limit = effort_limit;
  s.keys = target_keys(target);
  return record_op(w, actuator_op(s));
}

int add_sensor(WorldHandle& h, const std::string& type, const std::string& name,
               const std::optional<IndexOrName>& joint, const std::optional<IndexOrName>& body,
               const std::optional<IndexOrName>& other, const Vec3& position,
               const Eigen::Vector4d& quat_wxyz, const Vec3& direction, double max_range,
               double period, const std::optional<IndexOrName>& actuator) {
  const WorldHandle::Use w(h);
  const std::string who = "sensor \"" + name + "\"";
  const auto need = [&](const std::optional<IndexOrName>& v, const char* key) {
    if (!v) throw Error(who + ": a " + type + " sensor needs " + key + "=");
    return key == std::string("joint") ? joint_index(*w, *v, who.c_str())
                                       : body_index(*w, *v, who.c_str());
  };
  SensorSettings s;
  if (type == "joint") {
    s = JointSensorSettings{.name = name, .joint = need(joint, "joint"), .period = period};
  } else if (type == "contact") {
    s = ContactSensorSettings{.name = name,
                              .body = need(body, "body"),
                              .other = other ? body_index(*w, *other, who.c_str()) : -1,
                              .period = period};
  } else if (type == "imu") {
    s = ImuSensorSettings{
        .name = name,
        .body = need(body, "body"),
        .p_BS = position,
        .q_BS = Quat(quat_wxyz(0), quat_wxyz(1), quat_wxyz(2), quat_wxyz(3)).normalized(),
        .period = period};
  } else if (type == "range") {
    s = RangeSensorSettings{.name = name,
                            .body = need(body, "body"),
                            .origin_B = position,
                            .direction_B = direction,
                            .max_range = max_range,
                            .period = period};
  } else if (type == "actuator") {
    if (!actuator) throw Error(who + ": an actuator sensor needs actuator=");
    s = ActuatorSensorSettings{
        .name = name, .actuator = actuator_index(*w, *actuator, who.c_str()), .period = period};
  } else {
    throw Error(who + ": unknown type \"" + type +
                "\" (expected \"joint\", \"contact\", \"imu\", \"range\" or \"actuator\")");
  }
  return record_op(w, sensor_op(s));
}

std::unique_ptr<WorldHandle> deep_copy(WorldHandle& h) {
  const WorldHandle::Use w(h);
  auto copy = load_world(save_world(w));
  // the sensors exactly as they are (their latest samples and periods' clocks too)
  WorldHandle::Use(*copy).sensors() = w.sensors();
  return copy;
}

}  // namespace

void bind_world_control(py::module_& m, py::class_<WorldHandle>& c) {
  bind_views(m);
  c.def("add_actuator", &add_actuator, py::arg("joint"), py::arg("type") = "effort",
        py::arg("kp") = 0.0, py::arg("kd") = 0.0,
        py::arg("effort_limit") = std::numeric_limits<double>::infinity(), py::arg("target") = 0.0,
        py::arg("name") = "",
        "an actuator on a hinge or slider joint (index or name): type \"effort\", \"position\" or "
        "\"velocity\", gains kp, kd, effort_limit (N·m or N), target a number or keys "
        "[(t, value), ...]; name defaults to the joint's. Returns its index")
      .def_property_readonly(
          "actuators",
          [](py::object self) {
            return Members{std::move(self), false};
          },
          "the actuators by name (or index): .target (get, set), .effort, .type, .joint")
      .def("add_sensor", &add_sensor, py::arg("type"), py::arg("name") = "",
           py::arg("joint") = py::none(), py::arg("body") = py::none(),
           py::arg("other") = py::none(), py::arg("position") = Vec3::Zero(),
           py::arg("quat_wxyz") = Eigen::Vector4d(1.0, 0.0, 0.0, 0.0),
           py::arg("direction") = Vec3::UnitX(), py::arg("max_range") = 10.0,
           py::arg("period") = 0.0, py::arg("actuator") = py::none(),
           "a sensor (docs/sensors.md): \"joint\" (joint=), \"contact\" (body=, other=), "
           "\"imu\" (body=, position=, quat_wxyz=), \"range\" (body=, position= the ray's origin, "
           "direction=, max_range=), \"actuator\" (actuator=: target, value, error, effort); "
           "period s (0: every step). Returns its index")
      .def_property_readonly(
          "sensors",
          [](py::object self) {
            return Members{std::move(self), true};
          },
          "the sensors by name (or index): .read(), .fields, .time")
      .def(
          "observation",
          [](WorldHandle& h) {
            const WorldHandle::Use w(h);
            std::vector<double> out(
                static_cast<std::size_t>(observation_size(*w, w.sensors().set)));
            observe(*w, w.sensors().set, out.data());
            return array_of(out);
          },
          "per actuator its joint's (q, q̇), then every sensor's latest values (as a "
          "pivot.Batch row)")
      .def(
          "save", [](WorldHandle& h) { return py::bytes(save_world(WorldHandle::Use(h))); },
          "the World as bytes: how it was built and its state (pivot.World.load)")
      .def_static(
          "load", [](const py::bytes& b) { return load_world(std::string_view(b)); },
          py::arg("data"), "a new World from World.save()'s bytes, in the saved state")
      .def(
          "restore",
          [](WorldHandle& h, const py::bytes& b) {
            restore_world(WorldHandle::Use(h), std::string_view(b));
          },
          py::arg("data"),
          "puts back the state of World.save()'s bytes of this World (built by the same calls)")
      .def("__copy__", &deep_copy, "a deep copy (a World shares nothing)")
      .def(
          "__deepcopy__", [](WorldHandle& h, const py::object&) { return deep_copy(h); },
          py::arg("memo"))
      .def(py::pickle([](WorldHandle& h) { return py::bytes(save_world(WorldHandle::Use(h))); },
                      [](const py::bytes& b) { return load_world(std::string_view(b)); }));
}

}  // namespace pivot::python
