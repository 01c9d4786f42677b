// One entry of "joints" (docs/scene-format.md, "Joints"), and the body pair joints and springs
// share.
#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/section_readers.hpp"

namespace pivot::detail {

// ---- joints ----

/// body_a (a body) and body_b (a body or "world", default "world") of a joint or spring
void read_body_pair(const Context& ctx, const Object& o, const Scene& scene, std::string& a,
                    std::string& b, int& ia, int& ib) {
  a = o.required_string("body_a");
  if (a == "world")
    ctx.fail(o.pointer("body_a"), "body_a must be a body (the world may only be body_b)");
  ia = scene.find_body(a);
  if (ia < 0) ctx.fail(o.pointer("body_a"), fmt::format("no body named {}", pivot::quoted(a)));
  b = o.string("body_b", "world");
  if (b == "world") {
    ib = kWorldBody;
  } else {
    ib = scene.find_body(b);
    if (ib < 0)
      ctx.fail(o.pointer("body_b"),
               fmt::format("no body named {} (or \"world\")", pivot::quoted(b)));
  }
  if (ia == ib) ctx.fail(o.pointer("body_b"), "body_b must differ from body_a");
}

std::optional<JointLimits> read_limits(const Context& ctx, const Object& o, bool angular) {
  const bool rad = o.has("limits"), deg = angular && o.has("limits_deg");
  if (rad && deg)
    ctx.fail(o.pointer("limits"), "give either \"limits\" or \"limits_deg\", not both");
  if (!rad && !deg) return std::nullopt;
  const char* key = rad ? "limits" : "limits_deg";
  const json& v = o.required_array(key);
  if (v.size() != 2)
    ctx.fail(o.pointer(key), fmt::format("expected [lower, upper] (got an array of {})", v.size()));
  const double scale = deg ? kDegree : 1.0;
  JointLimits l;
  l.lower = number(ctx, v[0], o.pointer(key) + "/0", Range::any) * scale;
  l.upper = number(ctx, v[1], o.pointer(key) + "/1", Range::any) * scale;
  if (l.lower > l.upper)
    ctx.fail(o.pointer(key),
             fmt::format("expected lower <= upper (got [{}, {}])", v[0].dump(), v[1].dump()));
  return l;
}

std::optional<JointMotor> read_motor(const Context& ctx, const Object& o, bool angular) {
  if (!o.has("motor")) return std::nullopt;
  std::vector<std::string> keys = {"target_velocity", "max_impulse"};
  if (angular) keys.emplace_back("target_velocity_deg");
  const Object m(ctx, o.required("motor"), o.pointer("motor"), keys);
  JointMotor motor;
  if (m.has("target_velocity") && m.has("target_velocity_deg"))
    ctx.fail(o.pointer("motor"),
             "give either \"target_velocity\" or \"target_velocity_deg\", not both");
  if (m.has("target_velocity_deg"))
    motor.target_velocity = m.required_number("target_velocity_deg", Range::any) * (kDegree);
  else
    motor.target_velocity = m.number("target_velocity", 0.0, Range::any);
  motor.max_impulse = m.required_number("max_impulse", Range::non_negative);
  return motor;
}

namespace {
/// "damping" and "friction" of a hinge or slider (default 0: none)
JointDynamics read_dynamics(const Object& o) {
  return {.damping = o.number("damping", 0.0, Range::non_negative),
          .friction = o.number("friction", 0.0, Range::non_negative)};
}
}  // namespace

SceneJoint read_joint(const Context& ctx, const json& j, const std::string& ptr,
                      const Scene& scene) {
  const Object probe(ctx, j, ptr, {}, /*check_keys=*/false);
  const std::string type = probe.required_string("type");
  std::vector<std::string> keys = {"type", "name", "body_a", "body_b", "anchor", "collide"};
  if (type == "hinge")
    keys.insert(keys.end(), {"axis", "limits", "limits_deg", "motor", "effort_limit",
                             "velocity_limit", "damping", "friction"});
  else if (type == "slider")
    keys.insert(keys.end(), {"axis", "limits", "motor", "effort_limit", "velocity_limit", "damping",
                             "friction"});
  else if (type == "universal")
    keys.insert(keys.end(), {"axis_a", "axis_b"});
  else if (type == "planar")
    keys.emplace_back("normal");
  else if (type != "ball" && type != "fixed")
    ctx.fail(probe.pointer("type"),
             fmt::format("unknown joint type {} (expected one of: ball, hinge, universal, "
                         "slider, fixed, planar)",
                         pivot::quoted(type)));
  const Object o(ctx, j, ptr, keys);
  SceneJoint out;
  read_body_pair(ctx, o, scene, out.body_a, out.body_b, out.body_a_index, out.body_b_index);
  const std::string name = o.string("name", "");
  out.collide = o.boolean("collide", false);
  // kept for actuators (docs/scene-format.md "Joints")
  if (o.has("effort_limit"))
    out.effort_limit = o.required_number("effort_limit", Range::non_negative);
  if (o.has("velocity_limit"))
    out.velocity_limit = o.required_number("velocity_limit", Range::non_negative);
  if (type == "ball") {
    out.settings = BallJointSettings{name, o.required_vec3("anchor", Range::any)};
  } else if (type == "hinge") {
    HingeJointSettings s;
    s.name = name;
    s.anchor_W = o.required_vec3("anchor", Range::any);
    s.axis_W = o.unit_vec3("axis", Vec3::UnitZ());
    s.limits = read_limits(ctx, o, true);
    s.motor = read_motor(ctx, o, true);
    s.dynamics = read_dynamics(o);
    out.settings = s;
  } else if (type == "slider") {
    SliderJointSettings s;
    s.name = name;
    s.anchor_W = o.required_vec3("anchor", Range::any);
    s.axis_W = o.unit_vec3("axis", Vec3::UnitX());
    s.limits = read_limits(ctx, o, false);
    s.motor = read_motor(ctx, o, false);
    s.dynamics = read_dynamics(o);
    out.settings = s;
  } else if (type == "universal") {
    UniversalJointSettings s;
    s.name = name;
    s.anchor_W = o.required_vec3("anchor", Range::any);
    s.axis_a_W = o.unit_vec3("axis_a", Vec3::UnitX());
    s.axis_b_W = o.unit_vec3("axis_b", Vec3::UnitY());
    out.settings = s;
  } else if (type == "planar") {
    PlanarJointSettings s;
    s.name = name;
    s.anchor_W = o.required_vec3("anchor", Range::any);
    s.normal_W = o.unit_vec3("normal", Vec3::UnitZ());
    out.settings = s;
  } else {
    // any point serves a weld; by default the midpoint of the two bodies (body_a's position
    // when joined to the world) keeps the rows well scaled
    const Vec3 pa = scene.bodies[out.body_a_index].settings.p_WS;
    const Vec3 fallback = out.body_b_index == kWorldBody
                              ? pa
                              : Vec3(0.5 * (pa + scene.bodies[out.body_b_index].settings.p_WS));
    out.settings = FixedJointSettings{name, o.vec3("anchor", fallback, Range::any)};
  }
  return out;
}

}  // namespace pivot::detail
