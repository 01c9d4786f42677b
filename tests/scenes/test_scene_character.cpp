// The scene key "character" (docs/scene-format.md "Characters"): read strictly, errors name the
// JSON pointer (and the BVH file's line), the resolved form loads back, the World gets the
// character's bodies after the scene's own.
#include <catch2/catch.hpp>
#include <fstream>
#include <string>

#include "pivot/core/error.hpp"
#include "pivot/scenes/scene.hpp"
#include "support/test_data.hpp"

using namespace pivot;

namespace {

std::string scene_with(const std::string& character) {
  return R"({"pivot_scene": 1, "name": "c", "settings": {"duration": 0.01},
             "bodies": [{"name": "ball", "shape": {"type": "sphere", "radius": 0.1}}],
             "character": )" + character + "}";
}

std::string error_of(const std::string& text) {
  try {
    (void)build_world(parse_scene(text, pivot::test::source_scenes_dir(), "inline.json"));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("scene character: the key builds the character after the scene's bodies") {
  const Scene scene = parse_scene(
      scene_with(R"({"bvh": "mocap/walk.bvh", "gains": {"stiffness": 50}})"),
      pivot::test::source_scenes_dir(), "inline.json");
  REQUIRE(scene.character);
  CHECK(scene.character->settings.gains.stiffness == 50);
  CHECK(scene.character->settings.gains.damping == 10);  // the default
  CHECK(scene.character->mapping.scale == 0.01);
  World world = build_world(scene);
  CHECK(world.body_count() == 1 + 21);  // the ball, then one body per BVH joint
  CHECK(world.find_body("character/Hips") == 1);
  CHECK(world.joint_count() == 20);
  CHECK(character_tracking_error(world, *scene.character) < 1e-12);
  world.step();
  CHECK(character_tracking_error(world, *scene.character) > 0.0);
  // the resolved form loads back to the same character
  const Scene back = parse_scene(resolved_scene_json(scene), "/", "resolved.json");
  REQUIRE(back.character);
  CHECK(back.character->bvh_path == scene.character->bvh_path);
  CHECK(back.character->settings.gains.stiffness == 50);
  CHECK(resolved_scene_json(back) == resolved_scene_json(scene));
}

TEST_CASE("scene character: bad values name the pointer") {
  CHECK(error_of(scene_with(R"({"bvh": "mocap/walk.bvh", "color": 1})")).rfind(
            "inline.json: /character/color: unknown key \"color\"", 0) == 0);
  CHECK(error_of(scene_with(R"({"scale": 1})")) ==
        "inline.json: /character/bvh: missing (expected a string)");
  CHECK(error_of(scene_with(R"({"bvh": "mocap/walk.bvh", "up": "x"})")) ==
        "inline.json: /character/up: expected \"y\" or \"z\" (got \"x\")");
  CHECK(error_of(scene_with(R"({"bvh": "mocap/walk.bvh", "gains": {"stiffness": -1}})"))
            .rfind("inline.json: /character/gains/stiffness: ", 0) == 0);
  CHECK(error_of(scene_with(R"({"bvh": "mocap/walk.bvh", "density": 0})"))
            .rfind("inline.json: /character/density: ", 0) == 0);
  CHECK(error_of(scene_with(R"({"bvh": "mocap/none.bvh"})"))
            .rfind("inline.json: /character/bvh: ", 0) == 0);
}

TEST_CASE("scene character: a bad BVH file is named with its line") {
  const auto dir = std::filesystem::temp_directory_path() / "pivot_scene_character";
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "bad.bvh") << "HIERARCHY\nROOT Hips\n{\n  OFFSET 0 0 zero\n";
  const std::string e = error_of(scene_with("{\"bvh\": \"" + (dir / "bad.bvh").string() + "\"}"));
  CHECK(e.find("/character/bvh: ") != std::string::npos);
  CHECK(e.find("bad.bvh: line 4: expected an OFFSET coordinate, a finite number (got \"zero\")") !=
        std::string::npos);
  std::filesystem::remove_all(dir);
}
