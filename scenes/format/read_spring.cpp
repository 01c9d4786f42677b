// One entry of "springs" (docs/scene-format.md, "Springs").
#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/section_readers.hpp"

namespace pivot::detail {

// ---- springs ----

SceneSpring read_spring(const Context& ctx, const json& j, const std::string& ptr,
                        const Scene& scene) {
  const Object o(ctx, j, ptr,
                 {"body_a", "point_a", "body_b", "point_b", "stiffness", "damping", "rest_length"});
  SceneSpring out;
  read_body_pair(ctx, o, scene, out.body_a, out.body_b, out.settings.body_a, out.settings.body_b);
  out.settings.p_APa = o.vec3("point_a", Vec3::Zero(), Range::any);
  out.settings.p_BPb = o.vec3("point_b", Vec3::Zero(), Range::any);
  out.settings.stiffness = o.required_number("stiffness", Range::non_negative);
  out.settings.damping = o.number("damping", 0.0, Range::non_negative);
  out.settings.rest_length = o.number("rest_length", 0.0, Range::non_negative);
  return out;
}

}  // namespace pivot::detail
