// pivot.WorldSettings, pivot.World and pivot.shapes (docs/python.md). Keyword names follow the
// scene format's keys (position, quat_wxyz, velocity, ...); vectors are anything NumPy turns
// into three floats. State is read in bulk as NumPy arrays, one row per body, filled in C++.

#include <pybind11/eigen.h>
#include <pybind11/functional.h>
#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "bindings.hpp"
#include "pivot/collision/shape.hpp"
#include "pivot/core/error.hpp"
#include "pivot/engine/world.hpp"
#include "pivot/engine/world_settings_table.hpp"
#include "pivot/scenes/scene.hpp"
#include "world_args.hpp"
#include "world_control.hpp"
#include "world_handle.hpp"
#include "world_record.hpp"

namespace py = pybind11;

namespace pivot::python {
namespace {

using Array = py::array_t<double>;

/// one row per body, `cols` columns, filled by row(i, out) in C++
template <class Fill>
Array per_body(const World& w, py::ssize_t cols, Fill fill) {
  Array a({static_cast<py::ssize_t>(w.body_count()), cols});
  auto r = a.mutable_unchecked<2>();
  for (int i = 0; i < w.body_count(); ++i) fill(i, &r(i, 0));
  return a;
}

py::dict report_dict(const StepReport& r) {
  py::dict d;
  d["time"] = r.time;
  d["islands"] = r.islands;
  d["lcp_size"] = r.lcp_size;
  d["pivots"] = r.pivots;
  d["solve_seconds"] = r.solve_seconds;
  d["status"] = lcp::to_string(r.status);
  d["failures"] = r.failures;
  d["fallbacks"] = r.fallbacks;
  d["contacts"] = r.contacts;
  d["post_steps"] = r.post_steps;
  d["joint_error_before"] = r.joint_error_before;
  d["joint_error_after"] = r.joint_error_after;
  d["penetration_before"] = r.penetration_before;
  d["penetration_after"] = r.penetration_after;
  d["reduced_pairs"] = r.reduced_pairs;
  py::list warnings;
  for (const StepWarningRecord& w : r.warnings) warnings.append(w.message);
  d["warnings"] = warnings;
  return d;
}

/// the contacts of the last step as columns: k rows each
py::dict contacts_dict(const World& w) {
  const auto& cs = w.contacts();
  const auto k = static_cast<py::ssize_t>(cs.size());
  py::array_t<int> a(k), b(k);
  Array pa({k, py::ssize_t{3}}), pb({k, py::ssize_t{3}}), n({k, py::ssize_t{3}}), gap(k), ln(k),
      lt({k, py::ssize_t{3}});
  auto A = a.mutable_unchecked<1>(), B = b.mutable_unchecked<1>();
  auto PA = pa.mutable_unchecked<2>(), PB = pb.mutable_unchecked<2>(), N = n.mutable_unchecked<2>(),
       LT = lt.mutable_unchecked<2>();
  auto G = gap.mutable_unchecked<1>(), LN = ln.mutable_unchecked<1>();
  for (py::ssize_t i = 0; i < k; ++i) {
    const ContactInfo& c = cs[static_cast<std::size_t>(i)];
    A(i) = c.contact.body_a;
    B(i) = c.contact.body_b;
    G(i) = c.contact.gap;
    LN(i) = c.normal_impulse;
    for (py::ssize_t j = 0; j < 3; ++j) {
      PA(i, j) = c.contact.p_WCa(j);
      PB(i, j) = c.contact.p_WCb(j);
      N(i, j) = c.contact.n_BA_W(j);
      LT(i, j) = c.tangent_impulse(j);
    }
  }
  py::dict d;
  d["body_a"] = a;
  d["body_b"] = b;
  d["point_a"] = pa;
  d["point_b"] = pb;
  d["normal"] = n;
  d["gap"] = gap;
  d["normal_impulse"] = ln;
  d["tangent_impulse"] = lt;
  return d;
}

void bind_settings(py::module_& m) {
  py::class_<WorldSettings> settings(m, "WorldSettings",
                                     "World settings; keywords set fields, e.g. "
                                     "WorldSettings(time_step=1e-3, gravity=(0, 0, -9.81))");
  settings.def(py::init([](const py::kwargs& kw) {
    WorldSettings s;
    py::object self = py::cast(s);
    for (const auto& [key, value] : kw) {
      const auto name = py::cast<std::string>(key);
      if (!py::hasattr(self, name.c_str()) || name.starts_with("_"))
        throw Error("WorldSettings: unknown setting \"" + name + "\"");
      py::setattr(self, name.c_str(), value);
    }
    return py::cast<WorldSettings>(self);
  }));
  // every setting of the table (world_settings_table.hpp) as an attribute, by its Python name
  visit_settings(WorldSettings{}, [&](const auto& field, const SettingInfo& info) {
    using T = std::decay_t<decltype(field)>;  // (the default instance: only its type is used)
    const std::string name(python_name(info));
    // the field of `s` that the table names `name`
    auto get = [name](const WorldSettings& s) {
      T out{};
      visit_settings(s, [&](const auto& value, const SettingInfo& i) {
        if constexpr (std::is_same_v<std::decay_t<decltype(value)>, T>)
          if (python_name(i) == name) out = value;
      });
      return out;
    };
    auto set = [name](WorldSettings& s, const T& v) {
      visit_settings(s, [&](auto& value, const SettingInfo& i) {
        if constexpr (std::is_same_v<std::decay_t<decltype(value)>, T>)
          if (python_name(i) == name) value = v;
      });
    };
    const std::string doc = info.unit.empty()
                                ? std::string(info.doc)
                                : std::string(info.unit) + "; " + std::string(info.doc);
    if constexpr (std::is_same_v<T, Stabilization>)
      settings.def_property(
          name.c_str(), [get](const WorldSettings& s) { return std::string(to_string(get(s))); },
          [set](WorldSettings& s, const std::string& v) { set(s, stabilization_from(v)); },
          doc.c_str());
    else
      settings.def_property(name.c_str(), get, set, doc.c_str());
  });
}

void bind_shapes(py::module_& m) {
  // a shape is never modified (no setter is bound); it keeps the factory call that made it, so
  // that a saved World rebuilds it (world_record.hpp)
  py::class_<ShapeRecipe>(m, "Shape", "a collision shape (pivot.shapes)")
      .def_property_readonly("type", [](const ShapeRecipe& s) { return to_string(s.shape->type); })
      .def("__repr__", [](const ShapeRecipe& s) {
        return std::string("<pivot.Shape ") + to_string(s.shape->type) + ">";
      });
  py::module_ shapes = m.def_submodule("shapes", "collision shapes, in the body's shape frame");
  shapes.def("sphere", &sphere_shape, py::arg("radius"));
  shapes.def("box", &box_shape, py::arg("half_extents"));
  shapes.def("capsule", &capsule_shape, py::arg("radius"), py::arg("half_length"),
             "along the shape frame's z axis");
  shapes.def("cylinder", &cylinder_shape, py::arg("radius"), py::arg("half_length"),
             "along the shape frame's z axis");
  shapes.def("ellipsoid", &ellipsoid_shape, py::arg("radii"));
  shapes.def(
      "convex",
      [](const Eigen::Matrix<double, Eigen::Dynamic, 3>& points) {
        std::vector<Vec3> p;
        for (Eigen::Index i = 0; i < points.rows(); ++i) p.emplace_back(points.row(i).transpose());
        return convex_shape(p);
      },
      py::arg("points"), "the convex hull of the points, an (n, 3) array");
  shapes.def("plane", &plane_shape, py::arg("normal"), py::arg("offset"),
             "the half-space normal·x ≤ offset (fixed bodies only)");
  shapes.def("mesh", &mesh_shape, py::arg("obj_path"),
             "a fixed triangle mesh from a mesh file (STL, OBJ, PLY, Collada, glTF)");
}

int add_body(WorldHandle& h, const std::string& name, double mass, const ShapeRecipe* shape,
             const Vec3& position, const Eigen::Vector4d& quat_wxyz, const Vec3& velocity,
             const Vec3& angular_velocity, bool fixed, double density,
             std::optional<Vec3> inertia_diag, double friction, double restitution) {
  const BodySettings s =
      body_settings(name, mass, shape ? shape->shape : nullptr, position, quat_wxyz, velocity,
                    angular_velocity, fixed, density, inertia_diag, friction, restitution);
  return record_op(WorldHandle::Use(h), body_op(s, shape));
}

/// a joint with an axis, optional limits and an optional motor (hinge, slider)
template <class Settings>
int add_axis_joint(WorldHandle& h, int body_a, int body_b, const Vec3& anchor, const Vec3& axis,
                   const std::optional<std::pair<double, double>>& limits,
                   const std::optional<std::pair<double, double>>& motor, const std::string& name) {
  return record_op(
      WorldHandle::Use(h),
      joint_op(axis_joint<Settings>(anchor, axis, limits, motor, name), body_a, body_b));
}

void bind_joints(py::class_<WorldHandle>& c) {
  const auto a = py::arg("body_a"), b = py::arg("body_b"), anchor = py::arg("anchor");
  const auto name = py::arg("name") = "";
  c.def(
       "add_ball_joint",
       [](WorldHandle& h, int ba, int bb, const Vec3& p, const std::string& n) {
         return record_op(WorldHandle::Use(h),
                          joint_op(BallJointSettings{.name = n, .anchor_W = p}, ba, bb));
       },
       a, b, anchor, name, "a ball joint at the world point anchor; body_b = -1 is the world")
      .def("add_hinge_joint", &add_axis_joint<HingeJointSettings>, a, b, anchor, py::arg("axis"),
           py::arg("limits") = py::none(), py::arg("motor") = py::none(), name,
           "limits = (lower, upper) rad; motor = (target_velocity rad/s, max_impulse N·m·s)")
      .def("add_slider_joint", &add_axis_joint<SliderJointSettings>, a, b, anchor, py::arg("axis"),
           py::arg("limits") = py::none(), py::arg("motor") = py::none(), name,
           "limits = (lower, upper) m; motor = (target_velocity m/s, max_impulse N·s)")
      .def(
          "add_universal_joint",
          [](WorldHandle& h, int ba, int bb, const Vec3& p, const Vec3& axis_a, const Vec3& axis_b,
             const std::string& n) {
            return record_op(
                WorldHandle::Use(h),
                joint_op(
                    UniversalJointSettings{
                        .name = n, .anchor_W = p, .axis_a_W = axis_a, .axis_b_W = axis_b},
                    ba, bb));
          },
          a, b, anchor, py::arg("axis_a"), py::arg("axis_b"), name)
      .def(
          "add_fixed_joint",
          [](WorldHandle& h, int ba, int bb, const Vec3& p, const std::string& n) {
            return record_op(WorldHandle::Use(h),
                             joint_op(FixedJointSettings{.name = n, .anchor_W = p}, ba, bb));
          },
          a, b, anchor, name);
}

/// a World member function without arguments as a binding that holds the World for the call
template <auto Member>
auto guarded() {
  return [](WorldHandle& h) { return ((*WorldHandle::Use(h)).*Member)(); };
}

void bind_world_class(py::module_& m) {
  // every binding holds the World for its call (world_handle.hpp): step releases the GIL, and
  // a second thread's call on the same World is refused with RuntimeError, never raced
  py::class_<WorldHandle> c(m, "World",
                            "a simulation: bodies, joints, forces and the step (one call at a "
                            "time: a call from another thread during a step raises RuntimeError)");
  c.def(py::init(
            [](std::optional<WorldSettings> s) { return new_world(s.value_or(WorldSettings{})); }),
        py::arg("settings") = py::none())
      .def("add_body", &add_body, py::arg("name") = "", py::arg("mass") = 1.0,
           py::arg("shape") = py::none(), py::arg("position") = Vec3::Zero(),
           py::arg("quat_wxyz") = Eigen::Vector4d(1.0, 0.0, 0.0, 0.0),
           py::arg("velocity") = Vec3::Zero(), py::arg("angular_velocity") = Vec3::Zero(),
           py::arg("fixed") = false, py::arg("density") = 0.0, py::arg("inertia_diag") = py::none(),
           py::arg("friction") = 0.5, py::arg("restitution") = 0.0,
           "adds a body (keywords as the scene format's body keys); returns its index");
  bind_joints(c);
  c.def(
       "add_force",
       [](WorldHandle& h, int body, const Vec3& f, const Vec3& tau) {
         record_op(WorldHandle::Use(h),
                   force_op(ConstantForceSettings{.body = body, .force = f, .torque = tau}));
       },
       py::arg("body"), py::arg("force") = Vec3::Zero(), py::arg("torque") = Vec3::Zero(),
       "a constant force (N, world, at the COM) and torque (N·m)")
      .def(
          "add_spring",
          [](WorldHandle& h, int ba, const Vec3& pa, int bb, const Vec3& pb, double k, double c,
             double l0) {
            record_op(WorldHandle::Use(h), spring_op(SpringSettings{.body_a = ba,
                                                                    .p_APa = pa,
                                                                    .body_b = bb,
                                                                    .p_BPb = pb,
                                                                    .stiffness = k,
                                                                    .damping = c,
                                                                    .rest_length = l0}));
          },
          py::arg("body_a"), py::arg("point_a"), py::arg("body_b"), py::arg("point_b"),
          py::arg("stiffness"), py::arg("damping") = 0.0, py::arg("rest_length") = 0.0,
          "a spring-damper; points in each body's frame (world coordinates for body -1)")
      .def(
          "step",
          [](WorldHandle& h, long n) {
            if (n < 1) throw Error("step: n must be at least 1 (got " + std::to_string(n) + ")");
            // held before the GIL is released and until the report is read
            const WorldHandle::Use w(h);
            state_changed(w);
            WorldSensors& sensors = w.sensors();
            {
              py::gil_scoped_release release;
              // the sensors sample t = 0 (and store what the IMUs difference) before the first
              // step, then after each step
              if (!sensors.set.empty() && !sensors.primed) {
                sensors.set.observe(*w);
                sensors.primed = true;
              }
              for (long k = 0; k < n; ++k) {
                w->step();
                if (!sensors.set.empty()) sensors.set.observe(*w);
              }
            }
            return report_dict(w->last_report());
          },
          py::arg("n") = 1,
          "advances n steps (without the GIL; the World refuses other calls meanwhile), its "
          "sensors observed after each; returns the last step's report")
      .def_property_readonly("time", guarded<&World::time>(), "s")
      .def_property_readonly("step_count", guarded<&World::step_count>())
      .def_property_readonly("body_count", guarded<&World::body_count>())
      .def_property_readonly("joint_count", guarded<&World::joint_count>())
      .def_property_readonly(
          "settings", [](WorldHandle& h) { return WorldSettings(WorldHandle::Use(h)->settings()); },
          "a copy of the World's settings")
      .def(
          "find_body",
          [](WorldHandle& h, const std::string& name) {
            return WorldHandle::Use(h)->find_body(name);
          },
          py::arg("name"), "index of the named body, or -1")
      .def_property_readonly(
          "positions",
          [](WorldHandle& h) {
            const WorldHandle::Use w(h);
            return per_body(*w, 3,
                            [&](int i, double* r) { Eigen::Map<Vec3>{r} = w->pose(i).p_WB; });
          },
          "(n, 3): centres of mass, world, m")
      .def_property_readonly(
          "quaternions_wxyz",
          [](WorldHandle& h) {
            const WorldHandle::Use w(h);
            return per_body(*w, 4, [&](int i, double* r) {
              const Quat q = w->pose(i).q_WB;
              r[0] = q.w(), r[1] = q.x(), r[2] = q.y(), r[3] = q.z();
            });
          },
          "(n, 4): body → world rotations as w, x, y, z")
      .def_property_readonly(
          "twists",
          [](WorldHandle& h) {
            const WorldHandle::Use w(h);
            return per_body(*w, 6, [&](int i, double* r) { Eigen::Map<Vec6>{r} = w->twist(i); });
          },
          "(n, 6): (ωx, ωy, ωz, vx, vy, vz), world, at the COM")
      .def(
          "set_state",
          [](WorldHandle& h, int body, const Vec3& p, const Eigen::Vector4d& q, const Vec6& twist) {
            const WorldHandle::Use w(h);
            state_changed(w);
            w->set_state(body, Pose{p, quat_from_wxyz(q)}, twist);
          },
          py::arg("body"), py::arg("position"), py::arg("quat_wxyz"), py::arg("twist"),
          "sets a body's COM position, orientation and twist (ω; v); validated")
      .def(
          "apply_impulse",
          [](WorldHandle& h, int body, const Vec3& impulse, const Vec3& point) {
            const WorldHandle::Use w(h);
            state_changed(w);
            w->apply_impulse(body, impulse, point);
          },
          py::arg("body"), py::arg("impulse"), py::arg("point"),
          "an impulse (N·s, world) at a world point on a dynamic body, between steps; a body in "
          "hybrid reduced mode keeps it when its contact can absorb it (World::apply_impulse)")
      .def(
          "contacts", [](WorldHandle& h) { return contacts_dict(*WorldHandle::Use(h)); },
          "the last step's contacts as arrays (k rows): body_a, body_b, point_a, point_b, "
          "normal (B → A), gap, normal_impulse, tangent_impulse")
      .def("report", [](WorldHandle& h) { return report_dict(WorldHandle::Use(h)->last_report()); })
      .def("kinetic_energy", guarded<&World::kinetic_energy>(), "J")
      .def("potential_energy", guarded<&World::potential_energy>(), "J (gravity and springs)")
      .def("max_joint_error", guarded<&World::max_joint_error>(), "m or rad")
      .def("max_penetration", guarded<&World::max_penetration>(), "m")
      .def(
          "joint_impulse",
          [](WorldHandle& h, int j) -> Eigen::VectorXd {
            return WorldHandle::Use(h)->joint_impulse(j);
          },
          py::arg("joint"), "the joint's equality-row impulses of the last step")
      .def(
          "set_hybrid",
          [](WorldHandle& h, bool on) {
            const WorldHandle::Use w(h);
            state_changed(w);
            w->set_hybrid(on);
          },
          py::arg("on"))
      .def(
          "state_hash",
          [](WorldHandle& h) { return hash_to_hex(state_hash(*WorldHandle::Use(h))); },
          "the final-state hash of `pivot run` (16 hex digits)");
  bind_world_control(m, c);
}

}  // namespace

void bind_world(py::module_& m) {
  m.attr("WORLD") = kWorldBody;
  bind_settings(m);
  bind_shapes(m);
  bind_world_class(m);
}

}  // namespace pivot::python
