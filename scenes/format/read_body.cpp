// One entry of "bodies" (docs/scene-format.md, "Bodies").
#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/section_readers.hpp"

namespace pivot::detail {

// ---- bodies ----

void read_mass(const Context& ctx, const Object& o, const std::string& ptr, SceneBody& b,
               const char* inertia_key, const char* density_unit) {
  BodySettings& s = b.settings;
  if (s.fixed) {
    for (const char* key : {"mass", "density", inertia_key, "centre_of_mass", "velocity",
                            "angular_velocity", "angular_velocity_deg"})
      if (o.has(key))
        ctx.fail(o.pointer(key),
                 "a fixed body has no mass and does not move: remove this key "
                 "or set \"fixed\": false");
    return;
  }
  if (o.has("mass") && o.has("density"))
    ctx.fail(ptr, "give either \"mass\" or \"density\", not both");
  if (o.has("density")) {
    if (!b.shape) ctx.fail(o.pointer("density"), "\"density\" needs a shape (give \"mass\")");
    s.density = between(ctx, o.pointer("density"), o.required_number("density", Range::positive),
                        kMinMass, kMaxMass, density_unit);
    b.has_density = true;
  } else if (o.has("mass")) {
    s.mass = between(ctx, o.pointer("mass"), o.required_number("mass", Range::positive), kMinMass,
                     kMaxMass, "kg");
  } else if (!b.shape) {
    ctx.fail(ptr, "a body without a shape needs \"mass\" (kg)");
  } else {
    s.mass = 1.0;
  }
}

SceneBody read_body(const Context& ctx, const json& j, const std::string& ptr) {
  std::vector<std::string> keys = {"name",
                                   "fixed",
                                   "shape",
                                   "smooth_surface",
                                   "mass",
                                   "density",
                                   "inertia_diag",
                                   "centre_of_mass",
                                   "position",
                                   "velocity",
                                   "angular_velocity",
                                   "angular_velocity_deg",
                                   "friction",
                                   "restitution",
                                   "kinematic",
                                   "animator",
                                   "visual"};
  keys.insert(keys.end(), kOrientationKeys.begin(), kOrientationKeys.end());
  const Object o(ctx, j, ptr, keys);
  SceneBody b;
  BodySettings& s = b.settings;
  s.name = o.required_string("name");
  if (s.name.empty()) ctx.fail(o.pointer("name"), "expected a non-empty name");
  if (s.name == "world")
    ctx.fail(o.pointer("name"), "\"world\" is reserved for the world in joints and springs");
  s.fixed = o.boolean("fixed", false);
  if (o.has("smooth_surface")) {
    b.smooth_surface =
        read_smooth_surface(ctx, o.required("smooth_surface"), o.pointer("smooth_surface"));
    s.smooth_surface = b.smooth_surface->built;
  }
  if (o.has("shape")) {
    b.shape =
        read_shape(ctx, o.required("shape"), o.pointer("shape"), false, s.smooth_surface.get(),
                   s.fixed);
    s.shape = b.shape->built;
    const ShapeType t = b.shape->type;
    if (!s.fixed && t == ShapeType::plane)
      ctx.fail(o.pointer("shape"),
               fmt::format("a {} shape needs a fixed body (\"fixed\": true)", to_string(t)));
  }
  read_mass(ctx, o, ptr, b, "inertia_diag", "kg/m³");
  if (!s.fixed) {
    if (o.has("inertia_diag")) {
      s.inertia_diag = o.required_vec3("inertia_diag", Range::positive);
      for (int i = 0; i < 3; ++i)
        (void)between(ctx, o.pointer("inertia_diag") + "/" + std::to_string(i),
                      (*s.inertia_diag)[i], kMinInertia, kMaxInertia, "kg m²");
    }
    if (o.has("centre_of_mass")) {
      if (!b.shape)
        ctx.fail(o.pointer("centre_of_mass"),
                 "\"centre_of_mass\" is in the shape's frame: it "
                 "needs a shape");
      s.centre_of_mass = within(ctx, o.pointer("centre_of_mass"),
                                o.required_vec3("centre_of_mass", Range::any), kMaxLength, "m");
    }
    s.v_WB = within(ctx, o.pointer("velocity"), o.vec3("velocity", Vec3::Zero(), Range::any),
                    kMaxSpeed, "m/s");
    if (o.has("angular_velocity") && o.has("angular_velocity_deg"))
      ctx.fail(ptr, "give either \"angular_velocity\" or \"angular_velocity_deg\", not both");
    if (o.has("angular_velocity_deg"))
      s.w_WB = within(ctx, o.pointer("angular_velocity_deg"),
                      o.required_vec3("angular_velocity_deg", Range::any), kMaxSpeed / kDegree,
                      "deg/s") *
               kDegree;
    else
      s.w_WB = within(ctx, o.pointer("angular_velocity"),
                      o.vec3("angular_velocity", Vec3::Zero(), Range::any), kMaxSpeed, "rad/s");
  }
  if (o.has("kinematic")) {
    if (s.fixed)
      ctx.fail(o.pointer("kinematic"), "a fixed body has no key frames: remove \"fixed\"");
    for (const char* key : {"velocity", "angular_velocity", "angular_velocity_deg", "position",
                            "quat_wxyz", "axis_angle_deg", "euler_deg"})
      if (o.has(key))
        ctx.fail(o.pointer(key),
                 "a kinematic body's pose and velocity come from its key frames: "
                 "remove this key");
    b.kinematic = read_kinematic(ctx, o.required("kinematic"), o.pointer("kinematic"));
    s.kinematic = std::make_shared<const KinematicTrack>(*b.kinematic);
  }
  if (o.has("animator")) {
    if (s.fixed)
      ctx.fail(o.pointer("animator"), "a fixed body never moves: it has no animator controls");
    b.animator = read_animator(ctx, o.required("animator"), o.pointer("animator"));
  }
  if (o.has("visual")) b.visuals = read_visuals(ctx, o.required("visual"), o.pointer("visual"));
  s.p_WS = within(ctx, o.pointer("position"), o.vec3("position", Vec3::Zero(), Range::any),
                  kMaxLength, "m");
  s.q_WB = o.orientation();
  s.friction = o.number("friction", 0.5, Range::non_negative);
  s.restitution = o.number("restitution", 0.0, Range::unit_interval);
  return b;
}

}  // namespace pivot::detail
