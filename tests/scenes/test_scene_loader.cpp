// Scene files (scenes/format/scene.hpp, docs/scene-format.md): defaults, every error class with its
// JSON pointer, the [w, x, y, z] order, the built World, determinism of the state hash.
// Scenes are inline raw-string JSON so that each test reads alone.
#include <catch2/catch.hpp>

#include <unistd.h>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>

#include "pivot/scenes/scene.hpp"
#include "support/temp_dir.hpp"
#include "support/test_data.hpp"

using namespace pivot;
namespace fs = std::filesystem;

namespace {

Scene parse(std::string_view text) {
  return parse_scene(text, fs::current_path(), "inline.json");
}

/// the Error message of parsing and building `text`, or "" when it is valid
std::string error_of(std::string_view text, const fs::path& base_dir = fs::current_path()) {
  try {
    const Scene scene = parse_scene(text, base_dir, "inline.json");
    (void)build_world(scene);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

using pivot::test::TempDir;

/// scenes/ of the source tree, found from this file's path
fs::path scenes_dir() {
  return pivot::test::source_scenes_dir();
}

}  // namespace

TEST_CASE("a minimal scene gets every documented default", "[scene]") {
  const Scene scene = parse(R"({"pivot_scene": 1, "bodies": [{"name": "b", "mass": 2}]})");
  CHECK(scene.name == "unnamed");
  CHECK(scene.description.empty());
  CHECK(scene.source == "inline.json");
  const SceneSettings& s = scene.settings;
  CHECK(s.duration == 1.0);
  CHECK(s.output_rate_hz == 100.0);
  CHECK_FALSE(s.world.hybrid);
  CHECK(s.world.time_step == 1e-3);
  CHECK(s.world.gravity == Vec3(0, 0, -9.81));
  CHECK(s.world.stabilization == Stabilization::post);
  CHECK(s.world.friction_directions == 4);
  CHECK(s.world.baumgarte_alpha == 200.0);
  CHECK(s.world.implicit_forces);
  CHECK(s.world.contact_margin == 0.01);
  CHECK(s.world.restitution_threshold == 0.1);
  CHECK(s.world.post_step_cap == 0.0);
  REQUIRE(scene.bodies.size() == 1);
  const BodySettings& b = scene.bodies[0].settings;
  CHECK(b.name == "b");
  CHECK_FALSE(b.fixed);
  CHECK(b.mass == 2.0);
  CHECK_FALSE(scene.bodies[0].shape);
  CHECK_FALSE(b.inertia_diag);
  CHECK(b.p_WS == Vec3::Zero());
  CHECK(b.q_WB.coeffs() == Quat::Identity().coeffs());
  CHECK(b.v_WB == Vec3::Zero());
  CHECK(b.w_WB == Vec3::Zero());
  CHECK(b.friction == 0.5);
  CHECK(b.restitution == 0.0);
  CHECK(scene.joints.empty());
  CHECK(scene.springs.empty());
}

TEST_CASE("settings keys map onto WorldSettings", "[scene]") {
  const Scene scene = parse(R"({
    "pivot_scene": 1, "name": "s",
    "settings": {"dt": 0.002, "duration": 3.5, "gravity": [0, -1, 0], "friction_directions": 8,
                 "stabilization": "baumgarte", "hybrid": true, "output_rate_hz": 0,
                 "baumgarte_alpha": 50, "implicit_forces": false, "contact_margin": 0.002,
                 "restitution_threshold": 0.5, "post_step_cap": 0.01, "max_post_steps": 2,
                 "limit_margin": 0.1}
  })");
  const SceneSettings& s = scene.settings;
  CHECK(s.world.time_step == 0.002);
  CHECK(s.duration == 3.5);
  CHECK(s.world.gravity == Vec3(0, -1, 0));
  CHECK(s.world.friction_directions == 8);
  CHECK(s.world.stabilization == Stabilization::baumgarte);
  CHECK(s.world.hybrid);
  CHECK(s.output_rate_hz == 0.0);
  CHECK(s.world.baumgarte_alpha == 50.0);
  CHECK_FALSE(s.world.implicit_forces);
  CHECK(s.world.contact_margin == 0.002);
  CHECK(s.world.restitution_threshold == 0.5);
  CHECK(s.world.post_step_cap == 0.01);
  CHECK(s.world.max_post_steps == 2);
  CHECK(s.world.limit_margin == 0.1);
}

TEST_CASE("quat_wxyz is w, x, y, z: 90 degrees about z turns x into y", "[scene]") {
  const Scene scene = parse(R"({"pivot_scene": 1, "bodies": [
    {"name": "b", "mass": 1, "quat_wxyz": [0.7071067811865476, 0, 0, 0.7071067811865476]}]})");
  const Quat& q = scene.bodies[0].settings.q_WB;
  CHECK((q * Vec3::UnitX() - Vec3::UnitY()).norm() < 1e-12);
  const World world = build_world(scene);
  CHECK((world.pose(0).q_WB * Vec3::UnitX() - Vec3::UnitY()).norm() < 1e-12);
  // and the resolved output writes it back in the same order
  const std::string resolved = resolved_scene_json(scene);
  const Scene again = parse(resolved);
  CHECK((again.bodies[0].settings.q_WB * Vec3::UnitX() - Vec3::UnitY()).norm() < 1e-12);
}

TEST_CASE("quaternions close to unit length are normalized", "[scene]") {
  const Scene scene = parse(
      R"({"pivot_scene": 1,
          "bodies": [{"name": "b", "mass": 1, "quat_wxyz": [1.0008, 0, 0, 0]}]})");
  CHECK(scene.bodies[0].settings.q_WB.norm() == Approx(1.0).epsilon(1e-15));
}

TEST_CASE("keys ending in _deg are degrees", "[scene]") {
  const Scene scene = parse(R"({"pivot_scene": 1,
    "bodies": [{"name": "bar", "mass": 1, "angular_velocity_deg": [0, 180, 0]}],
    "joints": [{"type": "hinge", "body_a": "bar", "anchor": [0, 0, 0], "axis": [0, 1, 0],
                "limits_deg": [-45, 90],
                "motor": {"target_velocity_deg": 90, "max_impulse": 1}}]})");
  constexpr double pi = std::numbers::pi;
  CHECK(scene.bodies[0].settings.w_WB.y() == Approx(pi));
  const auto& hinge = std::get<HingeJointSettings>(scene.joints[0].settings);
  REQUIRE(hinge.limits);
  CHECK(hinge.limits->lower == Approx(-pi / 4));
  CHECK(hinge.limits->upper == Approx(pi / 2));
  REQUIRE(hinge.motor);
  CHECK(hinge.motor->target_velocity == Approx(pi / 2));
  CHECK(hinge.motor->max_impulse == 1.0);
  CHECK(scene.joints[0].body_b == "world");
  CHECK(scene.joints[0].body_b_index == kWorldBody);
}

TEST_CASE("the built World matches the scene", "[scene]") {
  const Scene scene = parse(R"({
    "pivot_scene": 1, "name": "build",
    "bodies": [
      {"name": "ground", "fixed": true,
       "shape": {"type": "plane", "normal": [0, 0, 2], "offset": 0}},
      {"name": "a", "shape": {"type": "box", "half_extents": [0.1, 0.2, 0.3]}, "density": 1000,
       "position": [0, 0, 1]},
      {"name": "b", "shape": {"type": "sphere", "radius": 0.1}, "mass": 3, "position": [1, 0, 1],
       "velocity": [0, 1, 0]},
      {"name": "c", "mass": 0.5, "inertia_diag": [1, 2, 2.5], "position": [2, 0, 1]}
    ],
    "joints": [
      {"type": "ball", "body_a": "a", "body_b": "world", "anchor": [0, 0, 2]},
      {"type": "hinge", "name": "h", "body_a": "b", "body_b": "a", "anchor": [0.5, 0, 1],
       "axis": [0, 0, 1], "limits": [-1, 1], "motor": {"target_velocity": 1, "max_impulse": 0.1}},
      {"type": "universal", "body_a": "c", "body_b": "b", "anchor": [1.5, 0, 1],
       "axis_a": [1, 0, 0], "axis_b": [0, 1, 0], "collide": true},
      {"type": "slider", "body_a": "c", "body_b": "world", "anchor": [2, 0, 1], "axis": [1, 0, 0]},
      {"type": "fixed", "body_a": "a", "body_b": "ground"}
    ],
    "springs": [{"body_a": "b", "point_a": [0, 0, 0.1], "body_b": "world", "point_b": [1, 0, 3],
                 "stiffness": 100, "damping": 1, "rest_length": 1.5}]
  })");
  CHECK(scene.bodies[0].shape->normal == Vec3(0, 0, 1));  // normalized
  CHECK(std::get<FixedJointSettings>(scene.joints[4].settings).anchor_W ==
        Vec3(0, 0, 0.5));  // midpoint
  CHECK(scene.springs[0].settings.body_a == 2);
  CHECK(scene.springs[0].settings.body_b == kWorldBody);
  const World world = build_world(scene);
  REQUIRE(world.body_count() == 4);
  CHECK(world.joint_count() == 5);
  CHECK(world.bodies().body(0).fixed);
  CHECK(world.bodies().body(1).mass == Approx(1000.0 * 0.2 * 0.4 * 0.6));
  CHECK(world.bodies().body(2).mass == 3.0);
  CHECK(world.bodies().body(3).mass == 0.5);
  CHECK(world.bodies().body(3).inertia_B.diagonal() == Vec3(1, 2, 2.5));
  CHECK(world.twist(2).v() == Vec3(0, 1, 0));
  CHECK(world.joint(1).name() == "h");
  CHECK(world.joint(1).type() == JointType::hinge);
  CHECK(world.joint(2).type() == JointType::universal);
  CHECK(world.joint(4).body_b() == 0);
  // resolved JSON loads back to the same resolved JSON
  const std::string resolved = resolved_scene_json(scene);
  CHECK(resolved_scene_json(parse(resolved)) == resolved);
}

TEST_CASE("a relative mesh path is read from the scene's folder", "[scene]") {
  TempDir dir("scenes");
  dir.write("tetra.obj",
            "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n");
  dir.write("mesh.json", R"({"pivot_scene": 1, "bodies": [
    {"name": "rock", "fixed": true, "shape": {"type": "mesh", "obj": "tetra.obj"}}]})");
  const Scene scene = load_scene(dir.path / "mesh.json");
  CHECK(scene.name == "mesh");  // the file's stem
  REQUIRE(scene.bodies[0].shape);
  CHECK(scene.bodies[0].shape->obj_path.filename() == "tetra.obj");
  CHECK(scene.bodies[0].settings.shape->type == ShapeType::mesh);
}

TEST_CASE("bad scenes throw Error naming the JSON pointer", "[scene][errors]") {
  struct Case {
    const char* what;
    const char* json;
    const char* expected;  // a substring of the message
  };
  const Case cases[] = {
      {"non-positive mass",
       R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1}, {"name": "b", "mass": -1}]})",
       "/bodies/1/mass: expected a positive number (got -1)"},
      {"zero mass", R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 0}]})",
       "/bodies/0/mass"},
      {"unknown key", R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1, "colour": 3}]})",
       "/bodies/0/colour: unknown key"},
      {"unknown top-level key", R"({"pivot_scene": 1, "bodys": []})", "/bodys: unknown key"},
      {"unknown settings key", R"({"pivot_scene": 1, "settings": {"timestep": 0.1}})",
       "/settings/timestep"},
      {"wrong type", R"({"pivot_scene": 1, "settings": {"dt": "0.001"}})",
       "/settings/dt: expected a number"},
      {"wrong type of bool", R"({"pivot_scene": 1, "settings": {"hybrid": 1}})",
       "/settings/hybrid: expected true or false"},
      {"wrong array length",
       R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1, "position": [1, 2]}]})",
       "/bodies/0/position"},
      {"non-finite number",
       R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1, "position": [0, 0, 1e999]}]})",
       "/bodies/0/position/2: expected a finite number"},
      {"zero radius",
       R"({"pivot_scene": 1, "bodies": [{"name": "a", "shape": {"type": "sphere", "radius": 0}}]})",
       "/bodies/0/shape/radius"},
      {"negative half extent",
       R"({"pivot_scene": 1, "bodies": [{"name": "a",
           "shape": {"type": "box", "half_extents": [1, -1, 1]}}]})",
       "/bodies/0/shape/half_extents/1"},
      {"unknown shape type",
       R"({"pivot_scene": 1, "bodies": [{"name": "a", "shape": {"type": "torus"}}]})",
       "/bodies/0/shape/type: unknown shape type"},
      {"key of another shape type",
       R"({"pivot_scene": 1, "bodies": [{"name": "a",
           "shape": {"type": "sphere", "radius": 1, "half_length": 1}}]})",
       "/bodies/0/shape/half_length: unknown key"},
      {"quaternion far from unit",
       R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1, "quat_wxyz": [1, 0, 0, 0.1]}]})",
       "/bodies/0/quat_wxyz: expected a unit quaternion"},
      {"missing body", R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1}],
         "joints": [{"type": "ball", "body_a": "a", "body_b": "b", "anchor": [0, 0, 0]}]})",
       "/joints/0/body_b: no body named \"b\""},
      {"missing body in a spring", R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1}],
         "springs": [{"body_a": "x", "stiffness": 1}]})",
       "/springs/0/body_a"},
      {"duplicate body name",
       R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1}, {"name": "a", "mass": 1}]})",
       "/bodies/1/name: duplicate body name"},
      {"duplicate joint name", R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1}],
         "joints": [{"type": "ball", "name": "j", "body_a": "a", "anchor": [0, 0, 0]},
                    {"type": "ball", "name": "j", "body_a": "a", "anchor": [0, 0, 1]}]})",
       "/joints/1/name: duplicate joint name"},
      {"duplicate key", R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1, "mass": 2}]})",
       "/bodies/0/mass: duplicate key"},
      {"unreadable mesh", R"({"pivot_scene": 1, "bodies": [{"name": "a", "fixed": true,
         "shape": {"type": "mesh", "obj": "no/such/file.obj"}}]})",
       "/bodies/0/shape/obj: cannot read the mesh file"},
      {"plane on a moving body", R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1,
         "shape": {"type": "plane"}}]})",
       "/bodies/0/shape: a plane shape needs a fixed body"},
      {"mass and density", R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1,
         "density": 10, "shape": {"type": "sphere", "radius": 1}}]})",
       "/bodies/0: give either \"mass\" or \"density\""},
      {"shapeless body without mass", R"({"pivot_scene": 1, "bodies": [{"name": "a"}]})",
       "/bodies/0: a body without a shape needs \"mass\""},
      {"limits lo > hi", R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1}],
         "joints": [{"type": "slider", "body_a": "a", "anchor": [0, 0, 0], "limits": [1, -1]}]})",
       "/joints/0/limits: expected lower <= upper"},
      {"unknown joint type", R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1}],
         "joints": [{"type": "hinged", "body_a": "a", "anchor": [0, 0, 0]}]})",
       "/joints/0/type: unknown joint type"},
      {"axis on a ball joint", R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1}],
         "joints": [{"type": "ball", "body_a": "a", "anchor": [0, 0, 0], "axis": [0, 0, 1]}]})",
       "/joints/0/axis: unknown key"},
      {"zero axis", R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1}],
         "joints": [{"type": "hinge", "body_a": "a", "anchor": [0, 0, 0], "axis": [0, 0, 0]}]})",
       "/joints/0/axis: expected a non-zero direction"},
      {"missing version", R"({"name": "x"})", "/pivot_scene: missing"},
      {"wrong version", R"({"pivot_scene": 2})",
       "/pivot_scene: unsupported scene format version 2"},
      {"not an object", R"([1, 2])", "(document): expected an object"},
      {"bad stabilization", R"({"pivot_scene": 1, "settings": {"stabilization": "pre"}})",
       "/settings/stabilization"},
      {"odd friction directions", R"({"pivot_scene": 1, "settings": {"friction_directions": 3}})",
       "/settings/friction_directions"},
      // errors of the engine get the pointer of the entry
      {"engine: inertia violating the triangle inequality",
       R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1, "inertia_diag": [1, 1, 5]}]})",
       "/bodies/0: body \"a\": inertia_diag"},
      {"engine: parallel universal axes",
       R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": 1}],
         "joints": [{"type": "universal", "body_a": "a", "anchor": [0, 0, 0],
                     "axis_a": [1, 0, 0], "axis_b": [1, 0, 0]}]})",
       "inline.json: /joints/0: "},
      {"engine: joint between fixed bodies",
       R"({"pivot_scene": 1, "bodies": [{"name": "a", "fixed": true}],
         "joints": [{"type": "ball", "body_a": "a", "anchor": [0, 0, 0]}]})",
       "/joints/0: joint \"\": both bodies are fixed"},
  };
  for (const Case& c : cases) {
    INFO(c.what);
    const std::string message = error_of(c.json);
    INFO(message);
    CHECK(message.rfind("inline.json: ", 0) == 0);
    CHECK(message.find(c.expected) != std::string::npos);
    CHECK(message.find('\n') == std::string::npos);  // one line
  }
}

TEST_CASE("a syntax error names the line and column", "[scene][errors]") {
  const std::string message = error_of("{\n  \"pivot_scene\": 1,\n  \"name\" \"x\"\n}\n");
  INFO(message);
  CHECK(message.find("inline.json: line 3, column 12: syntax error") != std::string::npos);
  CHECK(message.find('\n') == std::string::npos);
  CHECK(error_of("").find("line 1, column 1") != std::string::npos);
  CHECK(error_of("{\"pivot_scene\": 1,\n\"bodies\": [\n").find("line 3") != std::string::npos);
}

TEST_CASE("load_scene names the file in its errors", "[scene][errors]") {
  TempDir dir("scenes");
  dir.write("bad.json", R"({"pivot_scene": 1, "bodies": [{"name": "a", "mass": -2}]})");
  const std::string file = (dir.path / "bad.json").string();
  CHECK_THROWS_WITH(load_scene(file), Catch::Contains(file + ": /bodies/0/mass"));
  CHECK_THROWS_AS(load_scene(dir.path / "missing.json"), Error);
  CHECK_THROWS_WITH(load_scene(dir.path / "missing.json"), Catch::Contains("cannot open"));
}

TEST_CASE("state_hash is FNV-1a 64 over the state bytes", "[scene][hash]") {
  const World empty;
  CHECK(state_hash(empty) == 0xcbf29ce484222325ULL);  // the offset basis: no bytes
  CHECK(hash_to_hex(0xcbf29ce484222325ULL) == "cbf29ce484222325");
  CHECK(hash_to_hex(1) == "0000000000000001");
}

TEST_CASE("determinism: the same scene run twice gives the same hash", "[scene][hash]") {
  const Scene scene = parse_scene(default_scene_json(), fs::current_path(), "default");
  auto run = [](const Scene& s) {
    World world = build_world(s);
    for (int k = 0; k < 200; ++k) world.step();
    return state_hash(world);
  };
  const std::uint64_t first = run(scene);
  CHECK(run(scene) == first);
  // one body starting 1e-12 m elsewhere changes the hash
  Scene moved = scene;
  moved.bodies[3].settings.p_WS.x() += 1e-12;
  CHECK(moved.bodies[3].settings.p_WS.x() != scene.bodies[3].settings.p_WS.x());
  CHECK(run(moved) != first);
}

TEST_CASE("the built-in default scene is scenes/default.json", "[scene][shipped]") {
  const fs::path file = scenes_dir() / "default.json";
  if (!fs::exists(file)) {
    WARN("scenes/default.json not found beside the tests");
    return;
  }
  const Scene builtin = parse_scene(default_scene_json(), fs::current_path(), "builtin");
  CHECK(builtin.name == "default");
  CHECK(resolved_scene_json(load_scene(file)) == resolved_scene_json(builtin));
}

TEST_CASE("every shipped scene loads, builds and resolves back to itself", "[scene][shipped]") {
  if (!fs::is_directory(scenes_dir())) {
    WARN("scenes/ not found beside the tests");
    return;
  }
  int count = 0;
  for (const auto& entry : fs::directory_iterator(scenes_dir())) {
    if (entry.path().extension() != ".json") continue;
    INFO(entry.path().string());
    const Scene scene = load_scene(entry.path());
    const World world = build_world(scene);
    // a character's bodies and joints come after the scene's own (docs/character.md)
    const int character_joints =
        scene.character ? static_cast<int>(scene.character->motion->clip().joints.size()) : 0;
    CHECK(world.body_count() == static_cast<int>(scene.bodies.size()) + character_joints);
    CHECK(world.joint_count() ==
          static_cast<int>(scene.joints.size()) + std::max(0, character_joints - 1));
    const std::string resolved = resolved_scene_json(scene);
    CHECK(resolved_scene_json(parse_scene(resolved, scenes_dir(), "resolved")) == resolved);
    ++count;
  }
  CHECK(count >= 7);
  // and a scene with every kind of sensor (the CLI tests' sensors.csv scene)
  const Scene sensors =
      load_scene(scenes_dir().parent_path() / "tests" / "cli" / "sensors" / "sensors_scene.json");
  CHECK(sensors.sensors.size() == 5);
  const std::string resolved = resolved_scene_json(sensors);
  CHECK(resolved_scene_json(parse_scene(resolved, scenes_dir(), "resolved")) == resolved);
}
