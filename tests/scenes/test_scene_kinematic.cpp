// The scene keys "kinematic", "animator" and settings "mode" (docs/scene-format.md): read
// strictly with errors that name the JSON pointer, and written back by the resolved form.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "pivot/core/error.hpp"
#include "pivot/scenes/scene.hpp"

using namespace pivot;

namespace {

std::string body_scene(const std::string& body) {
  return R"({"pivot_scene": 1, "name": "k", "bodies": [)" + body + "]}";
}

std::string error_of(const std::string& text) {
  try {
    (void)build_world(parse_scene(text, std::filesystem::current_path(), "inline.json"));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

const char* kTrack =
    R"({"name": "plate", "shape": {"type": "sphere", "radius": 0.1},
        "kinematic": {"interpolation": "cubic", "keyframes": [
          {"t": 0, "position": [0, 0, 1]},
          {"t": 1, "position": [1, 0, 1], "axis_angle_deg": {"axis": [0, 0, 1], "angle": 90}}]},
        "animator": {"rigidity": 10, "rotate": 0, "persist": true,
                     "overrides": [{"from": 0.5, "to": 1.0, "rigidity": 1}]}})";

}  // namespace

TEST_CASE("a kinematic body's key frames and animator controls are read", "[scene]") {
  const Scene s = parse_scene(body_scene(kTrack), std::filesystem::current_path(), "inline.json");
  REQUIRE(s.bodies[0].kinematic);
  const KinematicTrack& k = *s.bodies[0].kinematic;
  CHECK(k.interpolation == TrackInterpolation::cubic);
  REQUIRE(k.keyframes.size() == 2);
  CHECK(k.keyframes[1].p_WS == Vec3(1, 0, 1));
  CHECK(k.keyframes[1].q_WB.angularDistance(Quat(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()))) <
        1e-15);
  REQUIRE(s.bodies[0].animator);
  CHECK(s.bodies[0].animator->rigidity == 10);
  CHECK(s.bodies[0].animator->rotate == 0);
  CHECK(s.bodies[0].animator->persist);
  REQUIRE(s.bodies[0].animator->overrides.size() == 1);
  // the World starts the body at its first key frame
  World w = build_world(s);
  CHECK(w.pose(0).p_WB == Vec3(0, 0, 1));
  CHECK(w.bodies().body(0).kinematic != nullptr);
  // the resolved form reads back to the same track and controls
  const Scene again =
      parse_scene(resolved_scene_json(s), std::filesystem::current_path(), "resolved.json");
  REQUIRE(again.bodies[0].kinematic);
  CHECK(again.bodies[0].kinematic->keyframes[1].p_WS == Vec3(1, 0, 1));
  CHECK(again.bodies[0].kinematic->interpolation == TrackInterpolation::cubic);
  REQUIRE(again.bodies[0].animator);
  CHECK(again.bodies[0].animator->overrides.size() == 1);
  CHECK_FALSE(again.settings.animator);
}

TEST_CASE("bad key frames and controls are errors naming the JSON pointer", "[scene]") {
  const std::string sphere = R"("name": "b", "shape": {"type": "sphere", "radius": 0.1})";
  auto with = [&](const std::string& extra) { return body_scene("{" + sphere + ", " + extra + "}"); };
  CHECK_THAT(error_of(with(R"("kinematic": {"keyframes": []})")),
             Catch::Contains("/bodies/0/kinematic/keyframes") &&
                 Catch::Contains("at least one key frame"));
  CHECK_THAT(error_of(with(R"("kinematic": {"keyframes": [{"t": 1, "position": [0,0,0]},
                                                         {"t": 1, "position": [0,0,1]}]})")),
             Catch::Contains("/bodies/0/kinematic/keyframes/1/t") &&
                 Catch::Contains("strictly increasing"));
  CHECK_THAT(error_of(with(R"("kinematic": {"keyframes": [{"t": 0, "position": [0,0,0],
                                                          "quat_wxyz": [2, 0, 0, 0]}]})")),
             Catch::Contains("/bodies/0/kinematic/keyframes/0/quat_wxyz"));
  CHECK_THAT(error_of(with(R"("kinematic": {"keyframes": [{"t": 0}]})")),
             Catch::Contains("/bodies/0/kinematic/keyframes/0/position") &&
                 Catch::Contains("missing"));
  CHECK_THAT(error_of(with(R"("kinematic": {"keyframes": [{"t": 0, "position": [0,0,0]}],
                                           "interpolation": "spline"})")),
             Catch::Contains("/bodies/0/kinematic/interpolation"));
  CHECK_THAT(error_of(with(R"("position": [0, 0, 1],
                              "kinematic": {"keyframes": [{"t": 0, "position": [0,0,0]}]})")),
             Catch::Contains("/bodies/0/position") && Catch::Contains("key frames"));
  CHECK_THAT(error_of(body_scene(R"({"name": "g", "fixed": true,
                                     "shape": {"type": "sphere", "radius": 0.1},
                                     "kinematic": {"keyframes": [{"t": 0, "position": [0,0,0]}]}})")),
             Catch::Contains("/bodies/0/kinematic") && Catch::Contains("fixed"));
  CHECK_THAT(error_of(with(R"("animator": {"rigidity": 0.5})")),
             Catch::Contains("/bodies/0/animator/rigidity") && Catch::Contains("[1, 100]"));
  CHECK_THAT(error_of(with(R"("animator": {"translate": 2})")),
             Catch::Contains("/bodies/0/animator/translate"));
  CHECK_THAT(error_of(with(R"("animator": {"overrides": [{"from": 1, "to": 0}]})")),
             Catch::Contains("/bodies/0/animator/overrides/0/to"));
  CHECK_THAT(error_of(with(R"("animator": {"stiffness": 1})")),
             Catch::Contains("/bodies/0/animator/stiffness") && Catch::Contains("unknown key"));
  CHECK_THAT(error_of(R"({"pivot_scene": 1, "name": "k", "settings": {"mode": "animate"},
                          "bodies": []})"),
             Catch::Contains("/settings/mode"));
}
