// The scene's "character" (docs/scene-format.md "Characters", docs/character.md): the BVH file
// it names is read now, so a bad clip is an error of the scene's load.
#include <fmt/core.h>

#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/section_readers.hpp"

namespace pivot::detail {

SceneCharacter read_character(const Context& ctx, const json& j, const std::string& ptr) {
  const Object o(ctx, j, ptr,
                 {"name", "bvh", "scale", "up", "origin", "density", "thickness", "gains",
                  "friction", "restitution"});
  SceneCharacter c;
  c.settings.name = o.string("name", c.settings.name);
  if (c.settings.name.empty()) ctx.fail(o.pointer("name"), "expected a non-empty name");
  c.bvh = o.required_string("bvh");
  if (c.bvh.empty()) ctx.fail(o.pointer("bvh"), "expected the path of a BVH file (got \"\")");
  fs::path path(c.bvh);
  if (path.is_relative()) path = ctx.base_dir / path;
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  c.bvh_path = (ec ? path : absolute).lexically_normal();
  c.mapping.scale = o.number("scale", c.mapping.scale, Range::positive);
  const std::string up = o.string("up", "y");
  if (up != "y" && up != "z")
    ctx.fail(o.pointer("up"), fmt::format("expected \"y\" or \"z\" (got {})", pivot::quoted(up)));
  c.mapping.y_up = up == "y";
  c.mapping.origin = o.vec3("origin", Vec3::Zero(), Range::any);
  c.settings.density = o.number("density", c.settings.density, Range::positive);
  c.settings.thickness = o.number("thickness", c.settings.thickness, Range::positive);
  c.settings.friction = o.number("friction", c.settings.friction, Range::non_negative);
  c.settings.restitution = o.number("restitution", c.settings.restitution, Range::unit_interval);
  if (o.has("gains")) {
    const Object g(ctx, o.required("gains"), o.pointer("gains"),
                   {"stiffness", "damping", "min_torque"});
    MuscleGains& gains = c.settings.gains;
    gains.stiffness = g.number("stiffness", gains.stiffness, Range::non_negative);
    gains.damping = g.number("damping", gains.damping, Range::non_negative);
    gains.min_torque = g.number("min_torque", gains.min_torque, Range::non_negative);
  }
  try {
    c.motion = std::make_shared<BvhMotion>(load_bvh(c.bvh_path), c.mapping);
  } catch (const Error& e) {
    ctx.fail(o.pointer("bvh"), e.what());
  }
  return c;
}

}  // namespace pivot::detail
