// Scene interactions (scenes/format/interaction.hpp, docs/scene-format.md "Interactions"): reading
// with JSON-pointer errors, writing back, and what the InteractionDriver does to a World.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <numbers>
#include <string>

#include "pivot/scenes/scene.hpp"

using namespace pivot;

namespace {

const char* kBase = R"({"pivot_scene": 1, "settings": {"dt": 0.01, "gravity": [0, 0, 0]},
  "bodies": [{"name": "ground", "fixed": true, "shape": {"type": "plane"}},
             {"name": "box", "mass": 2, "shape": {"type": "box", "half_extents": [0.1, 0.1, 0.1]},
              "position": [0, 0, 1]}],
  "interactions": )";

Scene with(const std::string& interactions) {
  return parse_scene(std::string(kBase) + interactions + "}", std::filesystem::current_path(),
                     "inline.json");
}

std::string error_of(const std::string& interactions) {
  try {
    (void)with(interactions);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("interactions are read, and written back unchanged", "[scenes][interactions]") {
  const Scene scene = with(R"([
    {"step": 0, "type": "pull", "body": "box", "point": [0.1, 0, 0], "target": [1, 2, 3],
     "stiffness": 100, "damping": 2},
    {"step": 5, "type": "move", "target": [0.5, 0.25, 2]},
    {"step": 5, "type": "release"},
    {"step": 7, "type": "throw", "origin": [0, -1, 1], "direction": [0, 2, 0], "speed": 3,
     "radius": 0.2, "density": 500},
    {"step": 9, "type": "set_dt", "dt": 0.002},
    {"step": 9, "type": "hybrid", "on": true},
    {"step": 12, "type": "end"}])");
  REQUIRE(scene.interactions.size() == 7);
  CHECK(scene.interactions[0].type == InteractionType::pull);
  CHECK(scene.interactions[0].target == Vec3(1, 2, 3));
  CHECK(scene.interactions[3].direction == Vec3(0, 1, 0));  // normalized on reading
  CHECK(scene.interactions[6].step == 12);
  const std::string text = resolved_scene_json(scene);
  const Scene again = parse_scene(text, std::filesystem::current_path(), "again.json");
  REQUIRE(again.interactions.size() == scene.interactions.size());
  CHECK(resolved_scene_json(again) == text);
}

TEST_CASE("bad interactions are errors naming the JSON pointer", "[scenes][interactions]") {
  CHECK_THAT(error_of(R"([{"step": 3, "type": "release"}, {"step": 2, "type": "release"}])"),
             Catch::Contains("/interactions/1/step: steps must not decrease"));
  CHECK_THAT(error_of(R"([{"step": 0, "type": "teleport"}])"),
             Catch::Contains("/interactions/0/type: unknown interaction \"teleport\""));
  CHECK_THAT(error_of(R"([{"step": 0, "type": "end"}, {"step": 1, "type": "release"}])"),
             Catch::Contains("/interactions/1: nothing may follow"));
  CHECK_THAT(error_of(R"([{"step": 0, "type": "pull", "body": "box", "target": [0, 0, 1],
                           "stiffness": 1, "dt": 0.1}])"),
             Catch::Contains("/interactions/0/dt: unknown key"));
  CHECK_THAT(error_of(R"([{"step": -1, "type": "release"}])"),
             Catch::Contains("/interactions/0/step: expected an integer >= 0"));
  CHECK_THAT(error_of(R"([{"step": 0, "type": "throw", "origin": [0, 0, 1],
                           "direction": [1, 0, 0], "speed": 2000}])"),
             Catch::Contains("/interactions/0/speed"));
  CHECK_THAT(error_of(R"([{"step": 0, "type": "set_dt", "dt": 0}])"),
             Catch::Contains("/interactions/0/dt: expected a positive number"));
  CHECK_THAT(error_of(R"({"step": 0})"), Catch::Contains("/interactions: expected an array"));
}

TEST_CASE("interaction values are bounded as a scene's magnitudes", "[scenes][interactions]") {
  // docs/limits.md "Magnitudes at load": lengths within 1e9 m, densities 1e-20 ... 1e20; the
  // time step within --dt's bounds, 1e-9 ... 1e12 s; a pull's gains at most 1e30
  CHECK_THAT(error_of(R"([{"step": 0, "type": "set_dt", "dt": 1e300}])"),
             Catch::Contains("/interactions/0/dt: 1e+300 s is outside the range [1e-09, 1e+12]"));
  CHECK_THAT(error_of(R"([{"step": 0, "type": "set_dt", "dt": 1e-300}])"),
             Catch::Contains("/interactions/0/dt: 1e-300 s is outside the range"));
  CHECK_THAT(error_of(R"([{"step": 0, "type": "throw", "origin": [1e300, 0, 1],
                           "direction": [1, 0, 0], "speed": 1}])"),
             Catch::Contains("/interactions/0/origin/0: 1e+300 m is beyond the limit of 1e+09 m"));
  CHECK_THAT(error_of(R"([{"step": 0, "type": "throw", "origin": [0, 0, 1],
                           "direction": [1, 0, 0], "speed": 1, "density": 1e21}])"),
             Catch::Contains("/interactions/0/density"));
  CHECK_THAT(error_of(R"([{"step": 0, "type": "throw", "origin": [0, 0, 1],
                           "direction": [1, 0, 0], "speed": 1, "radius": 1e-5}])"),
             Catch::Contains("/interactions/0/radius: expected at least 0.0001 m"));
  CHECK_THAT(error_of(R"([{"step": 0, "type": "pull", "body": "box", "target": [0, -2e9, 1],
                           "stiffness": 1}])"),
             Catch::Contains("/interactions/0/target/1"));
  CHECK_THAT(error_of(R"([{"step": 0, "type": "pull", "body": "box", "target": [0, 0, 1],
                           "point": [0, 0, 1e10], "stiffness": 1}])"),
             Catch::Contains("/interactions/0/point/2"));
  CHECK_THAT(error_of(R"([{"step": 0, "type": "pull", "body": "box", "target": [0, 0, 1],
                           "stiffness": 1e31}])"),
             Catch::Contains("/interactions/0/stiffness"));
  CHECK_THAT(error_of(R"([{"step": 0, "type": "move", "target": [0, 0, -1e10]}])"),
             Catch::Contains("/interactions/0/target/2"));
  // the bounds themselves are accepted
  CHECK(error_of(R"([{"step": 0, "type": "set_dt", "dt": 1e12},
                     {"step": 0, "type": "set_dt", "dt": 1e-9},
                     {"step": 0, "type": "throw", "origin": [1e9, -1e9, 1],
                      "direction": [1, 0, 0], "speed": 1, "density": 1e20, "radius": 1e-4}])")
            .empty());
}

TEST_CASE("the driver throws a ball of the given size and speed", "[scenes][interactions]") {
  const Scene scene = with("[]");
  World world = build_world(scene);
  InteractionDriver driver(world);
  SceneInteraction e;
  e.type = InteractionType::throw_ball;
  e.origin = Vec3(0.5, -1, 2);
  e.direction = Vec3(3, 0, 4);
  e.speed = 10;
  e.radius = 0.2;
  e.density = 500;
  driver.apply(e);
  driver.apply(e);
  const int ball = world.find_body("thrown-1");
  REQUIRE(ball >= 0);
  CHECK(world.find_body("thrown-2") == ball + 1);
  // m = ρ 4/3 π r³; v = speed · direction / |direction|
  CHECK(world.bodies().body(ball).mass ==
        Approx(500.0 * 4.0 / 3.0 * std::numbers::pi * 0.008).epsilon(1e-12));
  CHECK(world.twist(ball).v().isApprox(Vec3(6, 0, 8), 1e-15));
  CHECK(world.pose(ball).p_WB == e.origin);

  SceneInteraction pull;
  pull.type = InteractionType::pull;
  pull.body = "ground";
  pull.stiffness = 1;
  CHECK_THROWS_WITH(driver.apply(pull), Catch::Contains("is fixed"));
  pull.body = "nobody";
  CHECK_THROWS_WITH(driver.apply(pull), Catch::Contains("no body named \"nobody\""));
  pull.body = "thrown-2";
  driver.apply(pull);
  CHECK(driver.pull().active());
}

TEST_CASE("a planar world throws a disc in its plane", "[scenes][interactions][planar]") {
  // a recorded throw in a planar scene (docs/scene-format.md "Planar scenes"): the disc leaves
  // from the origin's projection on y = 0 along the direction's x–z part, then falls freely:
  // x_N = x0 + v h N and, with the step's symplectic Euler, z_N = z0 + v_z h N − g h² N(N+1)/2
  const Scene scene = parse_scene(R"({"pivot_scene": 1, "dimension": 2,
    "settings": {"dt": 0.01, "gravity": [0, -9.81]},
    "bodies": [{"name": "ground", "fixed": true, "shape": {"type": "half_plane", "normal": [0, 1]}}],
    "interactions": [{"step": 0, "type": "throw", "origin": [0, 0.7, 2], "direction": [3, 5, 4],
                      "speed": 5, "radius": 0.1, "density": 1000}]})",
                                  std::filesystem::current_path(), "planar.json");
  World world = build_world(scene);
  InteractionDriver driver(world);
  driver.apply(scene.interactions[0]);
  const int disc = world.find_body("thrown-1");
  REQUIRE(disc >= 0);
  // ρ 2r per area over the disc's area π r²
  CHECK(world.bodies().body(disc).mass ==
        Approx(1000.0 * 0.2 * std::numbers::pi * 0.01).epsilon(1e-12));
  CHECK(world.pose(disc).p_WB == Vec3(0, 0, 2));
  CHECK(world.twist(disc).v().isApprox(Vec3(3, 0, 4), 1e-15));
  const int steps = 50;  // 0.5 s: the disc is at z = 2 + 2 − 1.25 > 0.1, still in the air
  for (int k = 0; k < steps; ++k) world.step();
  const double h = 0.01, g = 9.81;
  const Vec3 p = world.pose(disc).p_WB;
  CHECK(p.x() == Approx(3.0 * h * steps).epsilon(1e-12));
  CHECK(p.y() == 0.0);
  CHECK(p.z() ==
        Approx(2.0 + 4.0 * h * steps - g * h * h * steps * (steps + 1) / 2).epsilon(1e-12));

  // a throw across the plane has nothing to throw
  SceneInteraction across = scene.interactions[0];
  across.direction = Vec3(0, 1, 0);
  CHECK_THROWS_WITH(driver.apply(across), Catch::Contains("needs an x or z component"));
}

TEST_CASE("a recorded pull replays to the same state", "[scenes][interactions]") {
  // the same events applied at the same steps twice: the same final hash (determinism)
  const Scene scene = with(R"([
    {"step": 2, "type": "pull", "body": "box", "point": [0.05, 0, 0.1], "target": [1, 0, 2],
     "stiffness": 400, "damping": 5},
    {"step": 20, "type": "move", "target": [-1, 0.5, 1.5]},
    {"step": 40, "type": "throw", "origin": [-2, 0, 1], "direction": [1, 0, 0], "speed": 5},
    {"step": 60, "type": "release"}, {"step": 80, "type": "end"}])");
  std::uint64_t hashes[2];
  for (auto& hash : hashes) {
    World world = build_world(scene);
    InteractionDriver driver(world);
    std::size_t next = 0;
    for (long k = 0; k <= 80; ++k) {
      if (k == 20) CHECK(world.pose(world.find_body("box")).p_WB.x() > 0.05);  // pulled to +x
      while (next < scene.interactions.size() && scene.interactions[next].step == k)
        driver.apply(scene.interactions[next++]);
      if (k < 80) world.step();
    }
    hash = state_hash(world);
  }
  CHECK(hashes[0] == hashes[1]);
}

TEST_CASE("set_target: read against the scene's actuators, written back, applied by the driver",
          "[scenes][interactions][actuator]") {
  const std::string base = R"({"pivot_scene": 1, "settings": {"dt": 0.01},
    "bodies": [{"name": "link", "mass": 1, "shape": {"type": "box", "half_extents": [0.1, 0.1, 0.1]}}],
    "joints": [{"name": "pin", "type": "hinge", "body_a": "link", "body_b": "world",
                "anchor": [0, 0, 0], "axis": [0, 1, 0]}],
    "actuators": [{"name": "servo", "joint": "pin", "type": "position", "kp": 100, "kd": 1,
                   "effort_limit": 10, "target": 0.1}],
    "interactions": )";
  const auto parse = [&](const std::string& events) {
    return parse_scene(base + events + "}", std::filesystem::current_path(), "servo.json");
  };
  const auto error = [&](const std::string& events) {
    try {
      (void)parse(events);
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string();
  };
  const Scene scene =
      parse(R"([{"step": 3, "type": "set_target", "actuator": "servo", "value": -0.4}])");
  REQUIRE(scene.interactions.size() == 1);
  CHECK(scene.interactions[0].type == InteractionType::set_target);
  CHECK(scene.interactions[0].actuator == "servo");
  CHECK(scene.interactions[0].value == -0.4);
  const std::string text = resolved_scene_json(scene);
  CHECK(resolved_scene_json(parse_scene(text, std::filesystem::current_path(), "again.json")) ==
        text);

  World world = build_world(scene);
  CHECK(world.actuator("servo").target(0.0) == 0.1);
  InteractionDriver driver(world);
  driver.apply(scene.interactions[0]);
  CHECK(world.actuator("servo").target(0.0) == -0.4);
  SceneInteraction unknown = scene.interactions[0];
  unknown.actuator = "nobody";
  CHECK_THROWS_WITH(driver.apply(unknown), Catch::Contains("nobody"));

  CHECK_THAT(error(R"([{"step": 0, "type": "set_target", "actuator": "motor", "value": 1}])"),
             Catch::Contains("/interactions/0/actuator: no actuator named \"motor\""));
  CHECK_THAT(error(R"([{"step": 0, "type": "set_target", "actuator": "servo", "value": 2e9}])"),
             Catch::Contains("/interactions/0/value: 2e+09"));
  CHECK_THAT(error(R"([{"step": 0, "type": "set_target", "actuator": "servo"}])"),
             Catch::Contains("/interactions/0/value"));
  CHECK_THAT(error(R"([{"step": 0, "type": "set_target", "value": 1}])"),
             Catch::Contains("/interactions/0/actuator"));
}
