#pragma once
// The pivot.World bindings' arguments as the engine's settings (docs/python.md): what
// bind_world.cpp does with the values a Python caller passes, without pybind11, so that the
// fuzz target tests/fuzz/fuzz_python_args.cpp runs the same conversions and calls on
// arbitrary values (NaN, infinities, huge and negative numbers, any index) without an
// interpreter. A bad value is the engine's pivot::Error (pivot.Error in Python).

#include <optional>
#include <string>
#include <utility>

#include "pivot/collision/shape.hpp"
#include "pivot/core/error.hpp"
#include "pivot/engine/world.hpp"
#include "pivot/engine/world_settings_table.hpp"

namespace pivot::python {

inline Quat quat_from_wxyz(const Eigen::Vector4d& q) {
  return Quat(q(0), q(1), q(2), q(3));
}

inline Stabilization stabilization_from(const std::string& name) {
  Stabilization s{};
  if (stabilization_from_string(name, s)) return s;
  throw Error("stabilization: expected \"post\", \"baumgarte\" or \"none\" (got \"" + name + "\")");
}

/// World.add_body's keywords (the scene format's body keys) as BodySettings
inline BodySettings body_settings(const std::string& name, double mass, ShapePtr shape,
                                  const Vec3& position, const Eigen::Vector4d& quat_wxyz,
                                  const Vec3& velocity, const Vec3& angular_velocity, bool fixed,
                                  double density, std::optional<Vec3> inertia_diag, double friction,
                                  double restitution) {
  BodySettings s;
  s.name = name;
  s.mass = mass;
  s.shape = std::move(shape);
  s.p_WS = position;
  s.q_WB = quat_from_wxyz(quat_wxyz);
  s.v_WB = velocity;
  s.w_WB = angular_velocity;
  s.fixed = fixed;
  s.density = density;
  s.inertia_diag = inertia_diag;
  s.friction = friction;
  s.restitution = restitution;
  return s;
}

/// limits = (lower, upper), motor = (target velocity, max impulse) of a hinge or slider
inline std::optional<JointLimits> limits_from(const std::optional<std::pair<double, double>>& l) {
  if (!l) return std::nullopt;
  return JointLimits{l->first, l->second};
}
inline std::optional<JointMotor> motor_from(const std::optional<std::pair<double, double>>& m) {
  if (!m) return std::nullopt;
  return JointMotor{m->first, m->second};
}

/// a hinge's or slider's settings from add_hinge_joint's or add_slider_joint's arguments
template <class Settings>
Settings axis_joint(const Vec3& anchor, const Vec3& axis,
                    const std::optional<std::pair<double, double>>& limits,
                    const std::optional<std::pair<double, double>>& motor,
                    const std::string& name) {
  return Settings{.name = name,
                  .anchor_W = anchor,
                  .axis_W = axis,
                  .limits = limits_from(limits),
                  .motor = motor_from(motor)};
}

}  // namespace pivot::python
