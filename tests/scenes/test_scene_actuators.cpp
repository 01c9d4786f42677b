// Actuators in scenes (docs/control.md): read against an imported URDF model's joints (its
// effort limit inherited), written back and read again unchanged, and a position servo on the
// model holding its target under gravity within the static error bound of a PD law.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "pivot/scenes/scene.hpp"
#include "support/test_data.hpp"

using namespace pivot;

namespace {

const std::string kArm = R"({
  "pivot_scene": 1,
  "settings": {"duration": 2.0, "dt": 0.002},
  "bodies": [{"name": "floor", "fixed": true, "shape": {"type": "plane"}}],
  "models": [{"urdf": "robots/two_link_arm.urdf", "name": "arm", "fixed_base": true}],
  "actuators": [
    {"name": "shoulder", "joint": "arm/shoulder", "type": "position", "kp": 1e5, "kd": 400,
     "target": 0.3},
    {"joint": "arm/elbow", "type": "position", "kp": 1e5, "kd": 200,
     "target": {"keys": [[0, 0], [0.5, -0.4]]}}
  ]
})";

Scene parse(const std::string& text) {
  return parse_scene(text, pivot::test::source_scenes_dir(), "arm_servo.json");
}

}  // namespace

TEST_CASE("scene actuators: URDF joints by prefixed name, limits inherited, round trip",
          "[scenes][actuator]") {
  const Scene scene = parse(kArm);
  REQUIRE(scene.actuators.size() == 2);
  // two_link_arm.urdf: <limit effort="40"> on the shoulder, "20" on the elbow
  CHECK(scene.actuators[0].settings.effort_limit == 40.0);
  CHECK(scene.actuators[1].settings.effort_limit == 20.0);
  CHECK(scene.actuators[1].settings.name == "arm/elbow");  // the joint's name by default
  CHECK(scene.actuators[1].settings.keys.size() == 2);

  const std::string written = resolved_scene_json(scene);
  const Scene again = parse_scene(written, pivot::test::source_scenes_dir(), "again.json");
  REQUIRE(again.actuators.size() == 2);
  for (std::size_t a = 0; a < 2; ++a) {
    const ActuatorSettings& x = scene.actuators[a].settings;
    const ActuatorSettings& y = again.actuators[a].settings;
    CHECK(x.name == y.name);
    CHECK(x.joint == y.joint);
    CHECK(x.type == y.type);
    CHECK(x.kp == y.kp);
    CHECK(x.kd == y.kd);
    CHECK(x.effort_limit == y.effort_limit);
    CHECK(x.keys == y.keys);
  }
  CHECK(resolved_scene_json(again) == written);
}

TEST_CASE("scene actuators: position servos hold a URDF arm at their targets under gravity",
          "[scenes][actuator]") {
  // A PD servo at rest holds u = kp (q_ref − q) against the gravity torque τ_g on its joint, so
  // |q − q_ref| = |τ_g| / kp ≤ effort_limit / kp = 40 / 1e5 = 4e-4 rad while it does not
  // saturate (it holds, so it does not).
  const Scene scene = parse(kArm);
  World world = build_world(scene);
  const int steps = static_cast<int>(std::lround(2.0 / 0.002));
  for (int k = 0; k < steps; ++k) {
    world.step();
    for (int a = 0; a < world.actuator_count(); ++a)
      REQUIRE(std::abs(world.actuator(a).effort()) <=
              world.actuator(a).settings().effort_limit * (1.0 + 1e-12));
  }
  const auto q = [&](int a) {
    const Joint& j = world.joint(world.actuator(a).joint());
    const Pose A = world.pose(j.body_a());
    const Pose B = j.body_b() == kWorldBody ? Pose{} : world.pose(j.body_b());
    return j.coordinate(A, B);
  };
  CHECK(std::abs(q(0) - 0.3) < 4e-4 + 1e-6);
  CHECK(std::abs(q(1) + 0.4) < 2e-4 + 1e-6);
}
