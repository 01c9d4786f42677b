// The ops of a Python World's structural calls and the recipes of its shapes, as bytes
// (world_record.hpp).
#include <filesystem>
#include <variant>

#include "record_bytes.hpp"
#include "world_record.hpp"

namespace pivot::python {

using namespace record;

namespace {

ShapeRecipe made(ShapePtr shape, ByteWriter& w) {
  return ShapeRecipe{std::const_pointer_cast<Shape>(std::move(shape)), std::move(w.str())};
}

}  // namespace

// ---- shapes ----

ShapeRecipe sphere_shape(double radius) {
  ByteWriter w;
  w.u64(static_cast<std::uint64_t>(Recipe::sphere));
  put(w, radius);
  return made(make_sphere(radius), w);
}
ShapeRecipe box_shape(const Vec3& half_extents) {
  ByteWriter w;
  w.u64(static_cast<std::uint64_t>(Recipe::box));
  put(w, half_extents);
  return made(make_box(half_extents), w);
}
ShapeRecipe capsule_shape(double radius, double half_length) {
  ByteWriter w;
  w.u64(static_cast<std::uint64_t>(Recipe::capsule));
  put(w, radius), put(w, half_length);
  return made(make_capsule(radius, half_length), w);
}
ShapeRecipe cylinder_shape(double radius, double half_length) {
  ByteWriter w;
  w.u64(static_cast<std::uint64_t>(Recipe::cylinder));
  put(w, radius), put(w, half_length);
  return made(make_cylinder(radius, half_length), w);
}
ShapeRecipe ellipsoid_shape(const Vec3& radii) {
  ByteWriter w;
  w.u64(static_cast<std::uint64_t>(Recipe::ellipsoid));
  put(w, radii);
  return made(make_ellipsoid(radii), w);
}
ShapeRecipe convex_shape(const std::vector<Vec3>& points) {
  ByteWriter w;
  w.u64(static_cast<std::uint64_t>(Recipe::convex));
  w.u64(points.size());
  for (const Vec3& p : points) put(w, p);
  return made(make_convex(points), w);
}
ShapeRecipe plane_shape(const Vec3& normal, double offset) {
  ByteWriter w;
  w.u64(static_cast<std::uint64_t>(Recipe::plane));
  put(w, normal), put(w, offset);
  return made(make_plane(normal, offset), w);
}
ShapeRecipe mesh_shape(const std::string& path) {
  // the absolute path, so that a World loaded in another folder reads the same file
  const std::string absolute = std::filesystem::absolute(path).string();
  ByteWriter w;
  w.u64(static_cast<std::uint64_t>(Recipe::mesh));
  put(w, absolute);
  return made(load_mesh_file(absolute), w);
}

// ---- ops ----

std::string body_op(const BodySettings& s, const ShapeRecipe* shape) {
  ByteWriter w;
  put(w, Op::body);
  put(w, s.name), put(w, s.mass);
  put(w, shape != nullptr);
  if (shape != nullptr) w.bytes(shape->recipe);
  put(w, s.p_WS), put(w, s.q_WB), put(w, s.v_WB), put(w, s.w_WB), put(w, s.fixed),
      put(w, s.density);
  put(w, s.inertia_diag.has_value());
  if (s.inertia_diag) put(w, *s.inertia_diag);
  put(w, s.friction), put(w, s.restitution);
  return std::move(w.str());
}

std::string joint_op(const BallJointSettings& s, int body_a, int body_b) {
  ByteWriter w;
  put(w, Op::ball), put(w, s.name), put(w, s.anchor_W), put(w, body_a), put(w, body_b);
  return std::move(w.str());
}
std::string joint_op(const FixedJointSettings& s, int body_a, int body_b) {
  ByteWriter w;
  put(w, Op::fixed), put(w, s.name), put(w, s.anchor_W), put(w, body_a), put(w, body_b);
  return std::move(w.str());
}
std::string joint_op(const HingeJointSettings& s, int body_a, int body_b) {
  ByteWriter w;
  put(w, Op::hinge), put(w, s.name), put(w, s.anchor_W), put(w, s.axis_W);
  put_limits_motor(w, s.limits, s.motor);
  put(w, body_a), put(w, body_b);
  return std::move(w.str());
}
std::string joint_op(const SliderJointSettings& s, int body_a, int body_b) {
  ByteWriter w;
  put(w, Op::slider), put(w, s.name), put(w, s.anchor_W), put(w, s.axis_W);
  put_limits_motor(w, s.limits, s.motor);
  put(w, body_a), put(w, body_b);
  return std::move(w.str());
}
std::string joint_op(const UniversalJointSettings& s, int body_a, int body_b) {
  ByteWriter w;
  put(w, Op::universal), put(w, s.name), put(w, s.anchor_W), put(w, s.axis_a_W), put(w, s.axis_b_W),
      put(w, body_a), put(w, body_b);
  return std::move(w.str());
}
std::string force_op(const ConstantForceSettings& s) {
  ByteWriter w;
  put(w, Op::force), put(w, s.body), put(w, s.force), put(w, s.torque);
  return std::move(w.str());
}
std::string spring_op(const SpringSettings& s) {
  ByteWriter w;
  put(w, Op::spring), put(w, s.body_a), put(w, s.p_APa), put(w, s.body_b), put(w, s.p_BPb),
      put(w, s.stiffness), put(w, s.damping), put(w, s.rest_length);
  return std::move(w.str());
}
std::string actuator_op(const ActuatorSettings& s) {
  ByteWriter w;
  put(w, Op::actuator), put(w, s.name), put(w, s.joint);
  w.u64(static_cast<std::uint64_t>(s.type));
  put(w, s.kp), put(w, s.kd), put(w, s.effort_limit);
  w.u64(s.keys.size());
  for (const auto& [t, v] : s.keys) put(w, t), put(w, v);
  return std::move(w.str());
}
std::string sensor_op(const SensorSettings& settings) {
  ByteWriter w;
  put(w, Op::sensor);
  w.u64(settings.index());
  std::visit(Overloaded{[&](const JointSensorSettings& s) {
                          put(w, s.name), put(w, s.joint), put(w, s.period);
                        },
                        [&](const ContactSensorSettings& s) {
                          put(w, s.name), put(w, s.body), put(w, s.other), put(w, s.period);
                        },
                        [&](const ImuSensorSettings& s) {
                          put(w, s.name), put(w, s.body), put(w, s.p_BS), put(w, s.q_BS),
                              put(w, s.period);
                        },
                        [&](const RangeSensorSettings& s) {
                          put(w, s.name), put(w, s.body), put(w, s.origin_B), put(w, s.direction_B),
                              put(w, s.max_range), put(w, s.period);
                        },
                        [&](const ActuatorSensorSettings& s) {
                          put(w, s.name), put(w, s.actuator), put(w, s.period);
                        }},
             settings);
  return std::move(w.str());
}

}  // namespace pivot::python
