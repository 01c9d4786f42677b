// One entry of "manipulanda" (docs/scene-format.md, "Manipulanda"): a body pulled along a
// recorded trajectory (engine/trajectory_coupling.hpp). The trajectory file is read now, so a
// bad file is an error of the scene's load.
#include <fmt/core.h>

#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/section_readers.hpp"
#include "pivot/scenes/trajectory_file.hpp"

namespace pivot::detail {

SceneManipulandum read_manipulandum(const Context& ctx, const json& j, const std::string& ptr,
                                    const Scene& scene) {
  const Object o(ctx, j, ptr,
                 {"body", "trajectory", "point", "stiffness", "damping", "rotational_stiffness",
                  "rotational_damping"});
  SceneManipulandum m;
  m.body = o.required_string("body");
  m.body_index = scene.find_body(m.body);
  if (m.body_index < 0)
    ctx.fail(o.pointer("body"), fmt::format("no body named {}", pivot::quoted(m.body)));
  const BodySettings& b = scene.bodies[static_cast<std::size_t>(m.body_index)].settings;
  if (b.fixed || b.kinematic)
    ctx.fail(o.pointer("body"),
             fmt::format("body {} is {}: a manipulandum drives a dynamic body",
                         pivot::quoted(m.body), b.fixed ? "fixed" : "kinematic"));
  m.trajectory = o.required_string("trajectory");
  if (m.trajectory.empty())
    ctx.fail(o.pointer("trajectory"), "expected the path of a trajectory file (got \"\")");
  fs::path path(m.trajectory);
  if (path.is_relative()) path = ctx.base_dir / path;
  std::error_code ec;
  const fs::path absolute = fs::absolute(path, ec);
  m.trajectory_path = (ec ? path : absolute).lexically_normal();
  m.point =
      within(ctx, o.pointer("point"), o.vec3("point", Vec3::Zero(), Range::any), kMaxLength, "m");
  m.stiffness = o.required_number("stiffness", Range::non_negative);
  m.damping = o.number("damping", 0.0, Range::non_negative);
  m.rotational_stiffness = o.number("rotational_stiffness", 0.0, Range::non_negative);
  m.rotational_damping = o.number("rotational_damping", 0.0, Range::non_negative);
  try {
    m.path = std::make_shared<const KinematicTrack>(load_trajectory(m.trajectory_path));
  } catch (const Error& e) {
    ctx.fail(o.pointer("trajectory"), e.what());
  }
  return m;
}

}  // namespace pivot::detail
