// A planar scene's bodies, shapes and joints ("dimension": 2; docs/scene-format.md "Planar
// scenes", docs/planar.md). Each is read in its 2-D form — positions [x, z], one angle about y,
// 2-D shapes, revolute and prismatic joints — into the same SceneBody and SceneJoint a 3-D scene
// gives, lifted to the plane y = 0: (x, z) → (x, 0, z), an angle θ → the rotation by θ about +y,
// an angular velocity ω → (0, ω, 0).
#include <cmath>
#include <limits>

#include "pivot/collision/planar_shape.hpp"
#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/section_readers.hpp"

namespace pivot::detail {

namespace {

Vec3 lift(const Vec2& v) {
  return Vec3(v.x(), 0.0, v.y());
}

/// a 2-vector [x, z] of the file, bounded by `limit`
Vec2 bounded_vec2(const Context& ctx, const Object& o, const char* key, const Vec2& fallback,
                  double limit, const char* unit) {
  if (!o.has(key)) return fallback;
  const Vec2 v = vec2(ctx, o.required(key), o.pointer(key), Range::any);
  (void)within(ctx, o.pointer(key), lift(v), limit, unit);
  return v;
}

/// a number given in radians (`key`) or degrees (`key`_deg), not both; `fallback` when neither
double angle(const Context& ctx, const Object& o, const std::string& key, double fallback,
             double limit, const char* unit) {
  const std::string deg = key + "_deg";
  if (o.has(key) && o.has(deg))
    ctx.fail(o.pointer(key), fmt::format("give either \"{}\" or \"{}\", not both", key, deg));
  if (o.has(deg))
    return within(ctx, o.pointer(deg), o.required_number(deg, Range::any), limit / kDegree, unit) *
           kDegree;
  if (o.has(key))
    return within(ctx, o.pointer(key), o.required_number(key, Range::any), limit, unit);
  return fallback;
}

/// a joint axis [x, z] made unit; `fallback` when absent
Vec2 unit_vec2(const Context& ctx, const Object& o, const char* key, const Vec2& fallback) {
  if (!o.has(key)) return fallback;
  const Vec2 v = vec2(ctx, o.required(key), o.pointer(key), Range::any);
  const double n = v.norm();
  if (!(n > 1e-12)) ctx.fail(o.pointer(key), "expected a non-zero direction [x, z]");
  return unit_to_rounding(v);  // kept as is when already unit, so the resolved form reads back
}

/// the shape's factory call, its errors (pivot::Error) reported at the shape's pointer
template <typename F>
std::shared_ptr<const PlanarShape> build_shape(const Context& ctx, const std::string& ptr, F make) {
  try {
    return std::make_shared<const PlanarShape>(make());
  } catch (const Error& e) {
    ctx.fail(ptr, e.what());
  }
}

constexpr const char* kPlanarShapeTypes = "circle, box, capsule, polygon, half_plane";

}  // namespace

SceneShape read_planar_shape(const Context& ctx, const json& j, const std::string& ptr) {
  const Object probe(ctx, j, ptr, {}, /*check_keys=*/false);
  const std::string type = probe.required_string("type");
  std::vector<std::string> keys = {"type"};
  if (type == "circle")
    keys.emplace_back("radius");
  else if (type == "box")
    keys.emplace_back("half_extents");
  else if (type == "capsule")
    keys.insert(keys.end(), {"radius", "half_length"});
  else if (type == "polygon")
    keys.emplace_back("points");
  else if (type == "half_plane")
    keys.insert(keys.end(), {"normal", "offset"});
  else
    ctx.fail(probe.pointer("type"),
             fmt::format("unknown shape type {} in a planar scene (expected one of: {})",
                         pivot::quoted(type), kPlanarShapeTypes));
  const Object o(ctx, j, ptr, keys);
  const auto length = [&](const char* key) {
    return within(ctx, o.pointer(key), o.required_number(key, Range::positive), kMaxLength, "m");
  };
  SceneShape s;
  s.type = ShapeType::planar;
  std::shared_ptr<const PlanarShape> shape;
  if (type == "circle") {
    const double r = length("radius");
    shape = build_shape(ctx, ptr, [&] { return make_planar_circle(r); });
  } else if (type == "box") {
    const Vec2 h =
        vec2(ctx, o.required("half_extents"), o.pointer("half_extents"), Range::positive);
    (void)within(ctx, o.pointer("half_extents"), lift(h), kMaxLength, "m");
    shape = build_shape(ctx, ptr, [&] { return make_planar_box(h.x(), h.y()); });
  } else if (type == "capsule") {
    const double r = length("radius"), l = length("half_length");
    shape = build_shape(ctx, ptr, [&] { return make_planar_capsule(r, l); });
  } else if (type == "polygon") {
    const json& points = o.required_array("points");
    std::vector<Vec2> p;
    for (std::size_t i = 0; i < points.size(); ++i) {
      const std::string at = o.pointer("points") + "/" + std::to_string(i);
      p.push_back(vec2(ctx, points[i], at, Range::any));
      (void)within(ctx, at, lift(p.back()), kMaxLength, "m");
    }
    shape = build_shape(ctx, o.pointer("points"), [&] { return make_planar_polygon(p); });
  } else {
    (void)o.required("normal");  // "missing" names the key
    const Vec2 n = unit_vec2(ctx, o, "normal", Vec2::UnitY());
    const double d =
        within(ctx, o.pointer("offset"), o.number("offset", 0.0, Range::any), kMaxLength, "m");
    shape = build_shape(ctx, ptr, [&] { return make_planar_half_plane(n, d); });
  }
  s.planar = shape;
  s.built = make_planar(shape);
  return s;
}

SceneBody read_planar_body(const Context& ctx, const json& j, const std::string& ptr) {
  const Object o(ctx, j, ptr,
                 {"name", "fixed", "shape", "mass", "density", "inertia", "centre_of_mass",
                  "position", "angle", "angle_deg", "velocity", "angular_velocity",
                  "angular_velocity_deg", "friction", "restitution"});
  SceneBody b;
  BodySettings& s = b.settings;
  s.name = o.required_string("name");
  if (s.name.empty()) ctx.fail(o.pointer("name"), "expected a non-empty name");
  if (s.name == "world")
    ctx.fail(o.pointer("name"), "\"world\" is reserved for the world in joints and springs");
  s.fixed = o.boolean("fixed", false);
  if (o.has("shape")) {
    b.shape = read_planar_shape(ctx, o.required("shape"), o.pointer("shape"));
    s.shape = b.shape->built;
    if (!s.fixed && b.shape->planar->type == PlanarShapeType::half_plane)
      ctx.fail(o.pointer("shape"), "a half_plane shape needs a fixed body (\"fixed\": true)");
  }
  read_mass(ctx, o, ptr, b, "inertia", "kg/m²");
  if (!s.fixed) {
    if (o.has("inertia")) {
      // the moment about y (the plane's normal); a lamina's I_xx + I_zz = I_yy, split evenly
      const double I =
          between(ctx, o.pointer("inertia"), o.required_number("inertia", Range::positive),
                  kMinInertia, kMaxInertia, "kg m²");
      s.inertia_diag = Vec3(0.5 * I, I, 0.5 * I);
    }
    if (o.has("centre_of_mass")) {
      if (!b.shape)
        ctx.fail(o.pointer("centre_of_mass"),
                 "\"centre_of_mass\" is in the shape's frame: it "
                 "needs a shape");
      s.centre_of_mass =
          lift(bounded_vec2(ctx, o, "centre_of_mass", Vec2::Zero(), kMaxLength, "m"));
    }
    s.v_WB = lift(bounded_vec2(ctx, o, "velocity", Vec2::Zero(), kMaxSpeed, "m/s"));
    s.w_WB = Vec3(0.0, angle(ctx, o, "angular_velocity", 0.0, kMaxSpeed, "rad/s"), 0.0);
  }
  s.p_WS = lift(bounded_vec2(ctx, o, "position", Vec2::Zero(), kMaxLength, "m"));
  b.planar_angle = angle(ctx, o, "angle", 0.0, kMaxLength, "rad");
  s.q_WB = Quat(Eigen::AngleAxisd(b.planar_angle, Vec3::UnitY()));
  s.friction = o.number("friction", 0.5, Range::non_negative);
  s.restitution = o.number("restitution", 0.0, Range::unit_interval);
  return b;
}

SceneJoint read_planar_joint(const Context& ctx, const json& j, const std::string& ptr,
                             const Scene& scene) {
  const Object probe(ctx, j, ptr, {}, /*check_keys=*/false);
  const std::string type = probe.required_string("type");
  std::vector<std::string> keys = {"type", "name", "body_a", "body_b", "anchor", "collide"};
  if (type == "revolute")
    keys.insert(keys.end(), {"limits", "limits_deg", "motor"});
  else if (type == "prismatic")
    keys.insert(keys.end(), {"axis", "limits", "motor"});
  else if (type != "fixed")
    ctx.fail(probe.pointer("type"),
             fmt::format("unknown joint type {} in a planar scene (expected one of: revolute, "
                         "prismatic, fixed)",
                         pivot::quoted(type)));
  const Object o(ctx, j, ptr, keys);
  SceneJoint out;
  read_body_pair(ctx, o, scene, out.body_a, out.body_b, out.body_a_index, out.body_b_index);
  const std::string name = o.string("name", "");
  out.collide = o.boolean("collide", false);
  const Vec3 pa = scene.bodies[out.body_a_index].settings.p_WS;
  if (type == "revolute") {
    HingeJointSettings s;
    s.name = name;
    s.anchor_W = lift(vec2(ctx, o.required("anchor"), o.pointer("anchor"), Range::any));
    s.axis_W = Vec3::UnitY();
    s.limits = read_limits(ctx, o, true);
    s.motor = read_motor(ctx, o, true);
    out.settings = s;
  } else if (type == "prismatic") {
    SliderJointSettings s;
    s.name = name;
    s.anchor_W = o.has("anchor")
                     ? lift(vec2(ctx, o.required("anchor"), o.pointer("anchor"), Range::any))
                     : pa;
    s.axis_W = lift(unit_vec2(ctx, o, "axis", Vec2::UnitX()));
    s.limits = read_limits(ctx, o, false);
    s.motor = read_motor(ctx, o, false);
    out.settings = s;
  } else {
    // as a 3-D weld: by default the midpoint of the two bodies (body_a's position with the world)
    const Vec3 fallback = out.body_b_index == kWorldBody
                              ? pa
                              : Vec3(0.5 * (pa + scene.bodies[out.body_b_index].settings.p_WS));
    out.settings = FixedJointSettings{
        name, o.has("anchor")
                  ? lift(vec2(ctx, o.required("anchor"), o.pointer("anchor"), Range::any))
                  : fallback};
  }
  return out;
}

}  // namespace pivot::detail
