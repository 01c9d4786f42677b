// A body's "visual" (docs/scene-format.md, "Bodies"): geometry a viewer draws instead of the
// collision shape, with an optional colour. Nothing is built from it: it never collides and
// has no mass; a mesh file is checked for existence here and read by the viewer's writer.
#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/section_readers.hpp"

namespace pivot::detail {

std::vector<SceneVisual> read_visuals(const Context& ctx, const json& j, const std::string& ptr) {
  if (!j.is_array()) ctx.fail(ptr, fmt::format("expected an array (got {})", describe(j)));
  std::vector<SceneVisual> out;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const std::string vptr = ptr + "/" + std::to_string(i);
    std::vector<std::string> keys = {"shape", "position", "colour"};
    keys.insert(keys.end(), kOrientationKeys.begin(), kOrientationKeys.end());
    const Object o(ctx, j[i], vptr, keys);
    SceneVisual v;
    const std::string sptr = o.pointer("shape");
    const Object probe(ctx, o.required("shape"), sptr, {}, /*check_keys=*/false);
    const std::string type = probe.required_string("type");
    if (type == "box") {
      const Object s(ctx, o.required("shape"), sptr, {"type", "half_extents"});
      v.type = ShapeType::box;
      v.half_extents = within(ctx, s.pointer("half_extents"),
                              s.required_vec3("half_extents", Range::positive), kMaxLength, "m");
    } else if (type == "sphere" || type == "cylinder") {
      const bool cylinder = type == "cylinder";
      const Object s(ctx, o.required("shape"), sptr,
                     cylinder ? std::vector<std::string>{"type", "radius", "half_length"}
                              : std::vector<std::string>{"type", "radius"});
      v.type = cylinder ? ShapeType::cylinder : ShapeType::sphere;
      v.radius = within(ctx, s.pointer("radius"), s.required_number("radius", Range::positive),
                        kMaxLength, "m");
      if (cylinder)
        v.half_length = within(ctx, s.pointer("half_length"),
                               s.required_number("half_length", Range::positive), kMaxLength, "m");
    } else if (type == "mesh") {
      const Object s(ctx, o.required("shape"), sptr, {"type", "file", "scale"});
      v.type = ShapeType::mesh;
      read_mesh_path(ctx, s, nullptr, v.file, v.file_path);
      v.scale = read_mesh_scale(ctx, s);
    } else {
      ctx.fail(probe.pointer("type"), fmt::format("unknown visual shape type {} (expected one of: "
                                                  "box, sphere, cylinder, mesh)",
                                                  pivot::quoted(type)));
    }
    v.position = within(ctx, o.pointer("position"), o.vec3("position", Vec3::Zero(), Range::any),
                        kMaxLength, "m");
    v.orientation = o.orientation();
    if (o.has("colour")) {
      const json& c = o.required("colour");
      if (!c.is_array() || c.size() != 4)
        ctx.fail(o.pointer("colour"),
                 fmt::format("expected [red, green, blue, alpha] in [0, 1] (got {})", describe(c)));
      std::array<double, 4> rgba{};
      for (std::size_t k = 0; k < 4; ++k)
        rgba[k] =
            number(ctx, c[k], o.pointer("colour") + "/" + std::to_string(k), Range::unit_interval);
      v.colour = rgba;
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace pivot::detail
