// Scene → JSON, fully resolved: every default written out, canonical keys only (radians,
// normalized quaternions and axes, absolute mesh paths). Used by `pivot check`; the output
// loads back to the same scene.
#include <nlohmann/json.hpp>

#include "pivot/collision/planar_shape.hpp"
#include "pivot/scenes/scene.hpp"

#include <type_traits>

#include "pivot/engine/world_settings_table.hpp"

namespace pivot {
namespace {

using ojson = nlohmann::ordered_json;

ojson vec(const Vec3& v) {
  return ojson::array({v.x(), v.y(), v.z()});
}

/// [w, x, y, z]: named accessors, never coeffs() (which is x, y, z, w)
ojson wxyz(const Quat& q) {
  return ojson::array({q.w(), q.x(), q.y(), q.z()});
}

void limits_motor(ojson& j, const std::optional<JointLimits>& limits,
                  const std::optional<JointMotor>& motor) {
  if (limits) j["limits"] = ojson::array({limits->lower, limits->upper});
  if (motor)
    j["motor"] = {{"target_velocity", motor->target_velocity}, {"max_impulse", motor->max_impulse}};
}

// ---- a planar scene's entries in their 2-D form (docs/planar.md) ----

/// (x, z) of a point or direction of the plane y = 0
ojson xz(const Vec3& v) {
  return ojson::array({v.x(), v.z()});
}
ojson xz(const Vec2& v) {
  return ojson::array({v.x(), v.y()});
}

ojson planar_shape_json(const PlanarShape& s) {
  ojson j;
  switch (s.type) {
    case PlanarShapeType::circle:
      j["type"] = "circle";
      j["radius"] = s.radius;
      break;
    case PlanarShapeType::box:
      j["type"] = "box";
      j["half_extents"] = xz(s.half_extents);
      break;
    case PlanarShapeType::capsule:
      j["type"] = "capsule";
      j["radius"] = s.radius;
      j["half_length"] = s.half_length;
      break;
    case PlanarShapeType::polygon: {
      j["type"] = "polygon";
      ojson points = ojson::array();
      for (const Vec2& p : s.points) points.push_back(xz(p));
      j["points"] = points;
      break;
    }
    case PlanarShapeType::half_plane:
      j["type"] = "half_plane";
      j["normal"] = xz(s.normal);
      j["offset"] = s.offset;
      break;
  }
  return j;
}

ojson planar_body_json(const SceneBody& b) {
  const BodySettings& s = b.settings;
  ojson j;
  j["name"] = s.name;
  j["fixed"] = s.fixed;
  if (b.shape) j["shape"] = planar_shape_json(*b.shape->planar);
  if (!s.fixed) {
    if (b.has_density)
      j["density"] = s.density;
    else
      j["mass"] = s.mass;
    if (s.inertia_diag) j["inertia"] = s.inertia_diag->y();
    if (s.centre_of_mass) j["centre_of_mass"] = xz(*s.centre_of_mass);
  }
  j["position"] = xz(s.p_WS);
  j["angle"] = b.planar_angle;
  if (!s.fixed) {
    j["velocity"] = xz(s.v_WB);
    j["angular_velocity"] = s.w_WB.y();
  }
  j["friction"] = s.friction;
  j["restitution"] = s.restitution;
  return j;
}

ojson planar_joint_json(const SceneJoint& jt) {
  ojson j;
  j["type"] = jt.type() == JointType::hinge    ? "revolute"
              : jt.type() == JointType::slider ? "prismatic"
                                               : "fixed";
  j["name"] = jt.name();
  j["body_a"] = jt.body_a;
  j["body_b"] = jt.body_b;
  std::visit(
      [&j](const auto& s) {
        using T = std::decay_t<decltype(s)>;
        j["anchor"] = xz(s.anchor_W);
        if constexpr (std::is_same_v<T, SliderJointSettings>) j["axis"] = xz(s.axis_W);
        if constexpr (std::is_same_v<T, HingeJointSettings> ||
                      std::is_same_v<T, SliderJointSettings>) {
          limits_motor(j, s.limits, s.motor);
          if (s.dynamics.damping != 0.0) j["damping"] = s.dynamics.damping;
          if (s.dynamics.friction != 0.0) j["friction"] = s.dynamics.friction;
        }
      },
      jt.settings);
  j["collide"] = jt.collide;
  return j;
}

ojson shape_json(const SceneShape& s) {
  ojson j;
  j["type"] = to_string(s.type);
  switch (s.type) {
    case ShapeType::sphere:
      j["radius"] = s.radius;
      break;
    case ShapeType::box:
      j["half_extents"] = vec(s.half_extents);
      break;
    case ShapeType::capsule:
    case ShapeType::cylinder:
      j["radius"] = s.radius;
      j["half_length"] = s.half_length;
      break;
    case ShapeType::ellipsoid:
      j["radii"] = vec(s.radii);
      break;
    case ShapeType::convex: {
      if (s.surface_samples > 0) {
        j["surface_samples"] = s.surface_samples;
        break;
      }
      ojson points = ojson::array();
      for (const Vec3& p : s.points) points.push_back(vec(p));
      j["points"] = points;
      break;
    }
    case ShapeType::plane:
      j["normal"] = vec(s.normal);
      j["offset"] = s.offset;
      break;
    case ShapeType::mesh:
      j["file"] = s.obj_path.string();
      if (s.scale != Vec3::Ones()) j["scale"] = vec(s.scale);
      if (s.collision) j["collision"] = to_string(*s.collision);
      if (s.sdf.voxel > 0.0) j["voxel"] = s.sdf.voxel;
      if (s.sdf.points > 0) j["points"] = s.sdf.points;
      if (s.sdf.node_budget > 0) j["node_budget"] = s.sdf.node_budget;
      break;
    case ShapeType::sdf:
      j["file"] = s.obj_path.string();
      if (s.scale != Vec3::Ones()) j["scale"] = vec(s.scale);
      if (s.sdf.voxel > 0.0) j["voxel"] = s.sdf.voxel;
      if (s.sdf.points > 0) j["points"] = s.sdf.points;
      if (s.sdf.node_budget > 0) j["node_budget"] = s.sdf.node_budget;
      break;
    case ShapeType::planar:  // a planar scene's shapes: planar_shape_json
      break;
    case ShapeType::compound: {
      ojson children = ojson::array();
      for (const SceneCompoundChild& c : s.children)
        children.push_back({{"shape", shape_json(c.shape.front())},
                            {"position", vec(c.position)},
                            {"quat_wxyz", wxyz(c.orientation)}});
      j["children"] = children;
      break;
    }
  }
  return j;
}

ojson smooth_surface_json(const SceneSmoothSurface& s) {
  ojson j;
  j["type"] = to_string(s.type);
  switch (s.type) {
    case SceneSurfaceType::bezier: {
      ojson patches = ojson::array();
      for (const BezierPatch& P : s.patches) {
        ojson points = ojson::array();
        for (const Vec3& p : P) points.push_back(vec(p));
        patches.push_back(points);
      }
      j["patches"] = patches;
      j["scale"] = vec(s.scale);
      break;
    }
    case SceneSurfaceType::torus:
      j["major_radius"] = s.major_radius;
      j["minor_radius"] = s.minor_radius;
      break;
    case SceneSurfaceType::paraboloid:
      j["curvature_radii"] = ojson::array({s.curvature_radii.x(), s.curvature_radii.y()});
      j["half_extents"] = ojson::array({s.half_extents.x(), s.half_extents.y()});
      break;
    case SceneSurfaceType::ellipsoid:
      j["radii"] = vec(s.radii);
      break;
    case SceneSurfaceType::sphere:
      j["radius"] = s.radius;
      break;
    case SceneSurfaceType::plane:
      j["normal"] = vec(s.normal);
      j["offset"] = s.offset;
      break;
    case SceneSurfaceType::loop:
      j["file"] = s.obj_path.string();
      if (s.scale != Vec3::Ones()) j["scale"] = vec(s.scale);
      break;
  }
  j["position"] = vec(s.position);
  j["quat_wxyz"] = wxyz(s.orientation);
  return j;
}

ojson settings_json(const SceneSettings& s) {
  ojson j = ojson::object();
  // the settings table's (world_settings_table.hpp), in its order, and the run's own two
  visit_settings(s.world, [&](const auto& value, const SettingInfo& info) {
    using T = std::decay_t<decltype(value)>;
    if (info.scope == SettingScope::api) return;
    const std::string key(info.key);
    if constexpr (std::is_same_v<T, Vec3>)
      j[key] = vec(value);
    else if constexpr (std::is_same_v<T, Stabilization>)
      j[key] = to_string(value);
    else if constexpr (std::is_same_v<T, double>)
      j[key] = info.range.null_below_zero && value < 0.0 ? ojson(nullptr) : ojson(value);
    else
      j[key] = value;
    if (key == "dt") j["duration"] = s.duration;
    if (key == "hybrid") j["output_rate_hz"] = s.output_rate_hz;
  });
  return j;
}

ojson visuals_json(const std::vector<SceneVisual>& visuals) {
  ojson out = ojson::array();
  for (const SceneVisual& v : visuals) {
    ojson shape = {{"type", to_string(v.type)}};
    if (v.type == ShapeType::box) shape["half_extents"] = vec(v.half_extents);
    if (v.type == ShapeType::sphere || v.type == ShapeType::cylinder) shape["radius"] = v.radius;
    if (v.type == ShapeType::cylinder) shape["half_length"] = v.half_length;
    if (v.type == ShapeType::mesh) {
      shape["file"] = v.file_path.string();
      shape["scale"] = vec(v.scale);
    }
    ojson e = {{"shape", shape}, {"position", vec(v.position)}, {"quat_wxyz", wxyz(v.orientation)}};
    if (v.colour) e["colour"] = *v.colour;
    out.push_back(std::move(e));
  }
  return out;
}

ojson body_json(const SceneBody& b) {
  const BodySettings& s = b.settings;
  ojson j;
  j["name"] = s.name;
  j["fixed"] = s.fixed;
  if (b.shape) j["shape"] = shape_json(*b.shape);
  if (b.smooth_surface) j["smooth_surface"] = smooth_surface_json(*b.smooth_surface);
  if (!s.fixed) {
    if (b.has_density)
      j["density"] = s.density;
    else
      j["mass"] = s.mass;
    if (s.inertia_diag) j["inertia_diag"] = vec(*s.inertia_diag);
    if (s.centre_of_mass) j["centre_of_mass"] = vec(*s.centre_of_mass);
  }
  if (b.kinematic) {
    // the pose and velocity are the key frames'
    ojson frames = ojson::array();
    for (const KeyFrame& k : b.kinematic->keyframes)
      frames.push_back({{"t", k.t}, {"position", vec(k.p_WS)}, {"quat_wxyz", wxyz(k.q_WB)}});
    j["kinematic"] = {
        {"keyframes", frames},
        {"interpolation",
         b.kinematic->interpolation == TrackInterpolation::cubic ? "cubic" : "linear"}};
  } else {
    j["position"] = vec(s.p_WS);
    j["quat_wxyz"] = wxyz(s.q_WB);
    if (!s.fixed) {
      j["velocity"] = vec(s.v_WB);
      j["angular_velocity"] = vec(s.w_WB);
    }
  }
  j["friction"] = s.friction;
  j["restitution"] = s.restitution;
  if (!b.visuals.empty()) j["visual"] = visuals_json(b.visuals);
  if (b.animator) {
    const AnimatorBodySettings& a = *b.animator;
    ojson overrides = ojson::array();
    for (const AnimatorOverride& o : a.overrides) {
      ojson w = {{"from", o.from}, {"to", o.to}};
      if (o.rigidity) w["rigidity"] = *o.rigidity;
      if (o.translate) w["translate"] = *o.translate;
      if (o.rotate) w["rotate"] = *o.rotate;
      overrides.push_back(w);
    }
    j["animator"] = {{"rigidity", a.rigidity},     {"translate", a.translate},
                     {"rotate", a.rotate},         {"persist", a.persist},
                     {"relax_rate", a.relax_rate}, {"overrides", overrides}};
  }
  return j;
}

ojson joint_json(const SceneJoint& jt) {
  ojson j;
  j["type"] = to_string(jt.type());
  j["name"] = jt.name();
  j["body_a"] = jt.body_a;
  j["body_b"] = jt.body_b;
  std::visit(
      [&j](const auto& s) {
        using T = std::decay_t<decltype(s)>;
        j["anchor"] = vec(s.anchor_W);
        if constexpr (std::is_same_v<T, HingeJointSettings> ||
                      std::is_same_v<T, SliderJointSettings>) {
          j["axis"] = vec(s.axis_W);
          limits_motor(j, s.limits, s.motor);
          if (s.dynamics.damping != 0.0) j["damping"] = s.dynamics.damping;
          if (s.dynamics.friction != 0.0) j["friction"] = s.dynamics.friction;
        } else if constexpr (std::is_same_v<T, UniversalJointSettings>) {
          j["axis_a"] = vec(s.axis_a_W);
          j["axis_b"] = vec(s.axis_b_W);
        } else if constexpr (std::is_same_v<T, PlanarJointSettings>) {
          j["normal"] = vec(s.normal_W);
        }
      },
      jt.settings);
  j["collide"] = jt.collide;
  if (jt.effort_limit) j["effort_limit"] = *jt.effort_limit;
  if (jt.velocity_limit) j["velocity_limit"] = *jt.velocity_limit;
  return j;
}

ojson spring_json(const SceneSpring& sp) {
  const SpringSettings& s = sp.settings;
  return {{"body_a", sp.body_a},         {"point_a", vec(s.p_APa)},  {"body_b", sp.body_b},
          {"point_b", vec(s.p_BPb)},     {"stiffness", s.stiffness}, {"damping", s.damping},
          {"rest_length", s.rest_length}};
}

// the target as its keys (a CSV target's rows included: the written scene needs no other file);
// one key at t = 0 is the constant it came from
ojson actuator_json(const SceneActuator& a) {
  const ActuatorSettings& s = a.settings;
  ojson j = {{"name", s.name}, {"joint", a.joint}, {"type", to_string(s.type)}};
  if (s.type != ActuatorType::effort) {
    if (s.type == ActuatorType::position) j["kp"] = s.kp;
    j["kd"] = s.kd;
  }
  j["effort_limit"] = s.effort_limit;
  if (s.keys.size() == 1 && s.keys[0].first == 0.0) {
    j["target"] = s.keys[0].second;
  } else {
    ojson keys = ojson::array();
    for (const auto& [t, v] : s.keys) keys.push_back({t, v});
    j["target"] = {{"keys", keys}};
  }
  return j;
}

// a sensor with its body, joint and actuator names and every default written out
ojson sensor_json(const Scene& scene, const SensorSettings& settings) {
  const auto body = [&](int b) {
    return scene.bodies.at(static_cast<std::size_t>(b)).settings.name;
  };
  return std::visit(
      [&](const auto& s) {
        using T = std::decay_t<decltype(s)>;
        ojson j = {{"name", s.name}};
        if constexpr (std::is_same_v<T, JointSensorSettings>) {
          j["type"] = "joint";
          j["joint"] = scene.joints.at(static_cast<std::size_t>(s.joint)).name();
        } else if constexpr (std::is_same_v<T, ContactSensorSettings>) {
          j["type"] = "contact";
          j["body"] = body(s.body);
          if (s.other >= 0) j["other"] = body(s.other);
        } else if constexpr (std::is_same_v<T, ImuSensorSettings>) {
          j["type"] = "imu";
          j["body"] = body(s.body);
          j["position"] = vec(s.p_BS);
          j["quat_wxyz"] = wxyz(s.q_BS);
        } else if constexpr (std::is_same_v<T, RangeSensorSettings>) {
          j["type"] = "range";
          j["body"] = body(s.body);
          j["position"] = vec(s.origin_B);
          j["direction"] = vec(s.direction_B);
          j["max_range"] = s.max_range;
        } else {
          j["type"] = "actuator";
          j["actuator"] = scene.actuators.at(static_cast<std::size_t>(s.actuator)).settings.name;
        }
        j["period"] = s.period;
        return j;
      },
      settings);
}

ojson manipulandum_json(const SceneManipulandum& m) {
  return {{"body", m.body},
          {"trajectory", m.trajectory_path.string()},
          {"point", vec(m.point)},
          {"stiffness", m.stiffness},
          {"damping", m.damping},
          {"rotational_stiffness", m.rotational_stiffness},
          {"rotational_damping", m.rotational_damping}};
}

bool is_scalar_array(const ojson& j) {
  if (!j.is_array()) return false;
  for (const ojson& e : j)
    if (e.is_structured()) return false;
  return true;
}

/// pretty JSON with 2-space indent, but arrays of scalars ([x, y, z], quaternions) on one line
void dump_compact(const ojson& j, int indent, std::string& out) {
  const std::string pad(static_cast<std::size_t>(indent), ' ');
  if (j.is_object() && !j.empty()) {
    out += "{\n";
    bool first = true;
    for (const auto& item : j.items()) {
      if (!first) out += ",\n";
      first = false;
      out += pad + "  " + ojson(item.key()).dump() + ": ";
      dump_compact(item.value(), indent + 2, out);
    }
    out += "\n" + pad + "}";
  } else if (j.is_array() && !j.empty() && !is_scalar_array(j)) {
    out += "[\n";
    for (std::size_t i = 0; i < j.size(); ++i) {
      out += pad + "  ";
      dump_compact(j[i], indent + 2, out);
      out += i + 1 < j.size() ? ",\n" : "\n";
    }
    out += pad + "]";
  } else if (j.is_array()) {
    out += "[";
    for (std::size_t i = 0; i < j.size(); ++i) out += (i ? ", " : "") + j[i].dump();
    out += "]";
  } else {
    out += j.dump();
  }
}

}  // namespace

namespace {

// one event of "interactions" with the keys of its type only
ojson interaction_json(const SceneInteraction& e) {
  ojson j;
  j["step"] = e.step;
  j["type"] = to_string(e.type);
  switch (e.type) {
    case InteractionType::pull:
      j["body"] = e.body;
      j["point"] = vec(e.point);
      j["target"] = vec(e.target);
      j["stiffness"] = e.stiffness;
      j["damping"] = e.damping;
      break;
    case InteractionType::move:
      j["target"] = vec(e.target);
      break;
    case InteractionType::throw_ball:
      j["origin"] = vec(e.origin);
      j["direction"] = vec(e.direction);
      j["speed"] = e.speed;
      j["radius"] = e.radius;
      j["density"] = e.density;
      break;
    case InteractionType::set_dt:
      j["dt"] = e.dt;
      break;
    case InteractionType::hybrid:
      j["on"] = e.on;
      break;
    case InteractionType::set_target:
      j["actuator"] = e.actuator;
      j["value"] = e.value;
      break;
    case InteractionType::release:
    case InteractionType::end:
      break;
  }
  return j;
}

}  // namespace

std::string resolved_scene_json(const Scene& scene) {
  ojson j;
  j["pivot_scene"] = kSceneFormatVersion;
  j["name"] = scene.name;
  j["description"] = scene.description;
  j["settings"] = settings_json(scene.settings);
  if (scene.settings.animator) j["settings"]["mode"] = "animator";
  if (scene.dimension == 2) {
    // a planar scene: "dimension" 2 and its entries in their 2-D form
    j["dimension"] = 2;
    j["settings"]["gravity"] = xz(scene.settings.world.gravity);
    j["bodies"] = ojson::array();
    for (const SceneBody& b : scene.bodies) j["bodies"].push_back(planar_body_json(b));
    j["joints"] = ojson::array();
    for (const SceneJoint& jt : scene.joints) j["joints"].push_back(planar_joint_json(jt));
    std::string out;
    dump_compact(j, 0, out);
    return out;
  }
  j["bodies"] = ojson::array();
  for (const SceneBody& b : scene.bodies) j["bodies"].push_back(body_json(b));
  j["joints"] = ojson::array();
  for (const SceneJoint& jt : scene.joints) j["joints"].push_back(joint_json(jt));
  j["springs"] = ojson::array();
  for (const SceneSpring& s : scene.springs) j["springs"].push_back(spring_json(s));
  if (!scene.actuators.empty()) {
    j["actuators"] = ojson::array();
    for (const SceneActuator& a : scene.actuators) j["actuators"].push_back(actuator_json(a));
  }
  if (!scene.sensors.empty()) {
    j["sensors"] = ojson::array();
    for (const SensorSettings& s : scene.sensors) j["sensors"].push_back(sensor_json(scene, s));
  }
  if (!scene.manipulanda.empty()) {
    j["manipulanda"] = ojson::array();
    for (const SceneManipulandum& m : scene.manipulanda)
      j["manipulanda"].push_back(manipulandum_json(m));
  }
  if (scene.character) {
    const SceneCharacter& c = *scene.character;
    j["character"] = {{"name", c.settings.name},
                      {"bvh", c.bvh_path.string()},
                      {"scale", c.mapping.scale},
                      {"up", c.mapping.y_up ? "y" : "z"},
                      {"origin", vec(c.mapping.origin)},
                      {"density", c.settings.density},
                      {"thickness", c.settings.thickness},
                      {"gains",
                       {{"stiffness", c.settings.gains.stiffness},
                        {"damping", c.settings.gains.damping},
                        {"min_torque", c.settings.gains.min_torque}}},
                      {"friction", c.settings.friction},
                      {"restitution", c.settings.restitution}};
  }
  // written only when there are some, so scenes without them read as before
  if (!scene.interactions.empty()) {
    j["interactions"] = ojson::array();
    for (const SceneInteraction& e : scene.interactions)
      j["interactions"].push_back(interaction_json(e));
  }
  std::string out;
  dump_compact(j, 0, out);
  return out;
}

}  // namespace pivot
