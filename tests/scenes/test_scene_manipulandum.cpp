// Trajectory files (scenes/format/trajectory_file.hpp) and the scene key "manipulanda"
// (docs/scene-format.md "Manipulanda"): read strictly, errors naming the line or the JSON
// pointer, written back by the resolved form, built into a coupling the World steps.
#include <unistd.h>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "pivot/core/error.hpp"
#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/trajectory_file.hpp"
#include "support/test_data.hpp"

using namespace pivot;
namespace fs = std::filesystem;

namespace {

std::string trajectory_error(const std::string& text) {
  try {
    (void)parse_trajectory(text, "path.csv");
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// a folder with a trajectory file and a scene that names it
struct TempScene {
  fs::path dir;
  TempScene() {
    dir = fs::temp_directory_path() / ("pivot_manipulandum_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "path.csv") << "# t, x, y, z, qw, qx, qy, qz\n"
                                       "0, 0, 0, 1, 1, 0, 0, 0\n"
                                       "1, 1, 0, 1, 1, 0, 0, 0\n";
  }
  ~TempScene() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  [[nodiscard]] std::string error_of(const std::string& manipulandum, bool fixed = false) const {
    try {
      (void)build_world(parse_scene(scene(manipulandum, fixed), dir, "inline.json"));
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
  static std::string scene(const std::string& manipulandum, bool fixed = false) {
    return std::string(R"({"pivot_scene": 1, "name": "m", "settings": {"gravity": [0, 0, 0]},
        "bodies": [
        {"name": "b", "fixed": )") +
           (fixed ? "true" : "false") +
           R"(, "shape": {"type": "box", "half_extents": [0.1, 0.1, 0.1]},
         "position": [0, 0, 1])" +
           (fixed ? "" : R"(, "centre_of_mass": [0.05, 0, 0])") + R"(}],
        "manipulanda": [)" +
           manipulandum + "]}";
  }
};

}  // namespace

TEST_CASE("a trajectory file is read: comments, blank lines, spaces, normalized quaternions",
          "[scene][manipulandum]") {
  const KinematicTrack k = parse_trajectory(
      "# header\n\n 0.0, 1, 2, 3, 1, 0, 0, 0\r\n0.5,\t1.5, 2, 3, 0, 0, 0, 1.0005\n"
      "# between\n1,2,2,3,-0.7071067811865476,0,0,-0.7071067811865476",
      "path.csv");
  REQUIRE(k.keyframes.size() == 3);
  CHECK(k.interpolation == TrackInterpolation::linear);
  CHECK(k.keyframes[1].t == 0.5);
  CHECK(k.keyframes[1].p_WS == Vec3(1.5, 2, 3));
  CHECK(std::abs(k.keyframes[1].q_WB.norm() - 1.0) < 1e-15);
  // the third row (−45° about −z, i.e. 90° about z written as its negative) is put in the
  // hemisphere of the second: the same rotation
  CHECK(k.keyframes[2].q_WB.angularDistance(Quat(Eigen::AngleAxisd(M_PI / 2, Vec3::UnitZ()))) <
        1e-12);
}

TEST_CASE("bad trajectory files are errors naming the line", "[scene][manipulandum]") {
  CHECK_THAT(trajectory_error("0,0,0,0,1,0,0,0\n1,0,0,0,1,0,0\n"),
             Catch::Contains("path.csv: line 2: expected 8 comma-separated numbers"));
  CHECK_THAT(trajectory_error("0,0,0,0,1,0,0,0,9\n"), Catch::Contains("line 1: expected 8"));
  CHECK_THAT(trajectory_error("0,0,0,0,1,0,0,x\n"), Catch::Contains("line 1: expected 8"));
  CHECK_THAT(trajectory_error("0,0,0,0,1,0,0,\n"), Catch::Contains("line 1: expected 8"));
  CHECK_THAT(trajectory_error("0,nan,0,0,1,0,0,0\n"), Catch::Contains("line 1: expected finite"));
  // beyond a double's range: named as such, not as a malformed row
  CHECK_THAT(trajectory_error("0,1e400,0,0,1,0,0,0\n"),
             Catch::Contains("line 1: 1e400 is out of a double's range (not finite"));
  CHECK_THAT(trajectory_error("0,0,-1e400,0,1,0,0,0\n"),
             Catch::Contains("line 1: -1e400 is out of a double's range"));
  CHECK_THAT(trajectory_error("0,0,1e-400,0,1,0,0,0\n"),
             Catch::Contains("line 1: 1e-400 is out of a double's range"));
  // one '+' is allowed, not before another sign
  CHECK_THAT(trajectory_error("0,+-1,0,0,1,0,0,0\n"), Catch::Contains("line 1: expected 8"));
  CHECK_THAT(trajectory_error("0,++1,0,0,1,0,0,0\n"), Catch::Contains("line 1: expected 8"));
  CHECK_THAT(trajectory_error("0,+,0,0,1,0,0,0\n"), Catch::Contains("line 1: expected 8"));
  CHECK(parse_trajectory("+0, +1, -2, +3e-1, +1, 0, 0, 0\n", "p").keyframes[0].p_WS ==
        Vec3(1, -2, 0.3));
  CHECK_THAT(trajectory_error("# a\n0,0,0,0,1,0,0,0\n0,1,0,0,1,0,0,0\n"),
             Catch::Contains("line 3: times must be strictly increasing"));
  CHECK_THAT(trajectory_error("0,0,0,0,0.9,0,0,0\n"), Catch::Contains("quaternion's length"));
  CHECK_THAT(trajectory_error("0,2e9,0,0,1,0,0,0\n"), Catch::Contains("beyond 1e9 m"));
  CHECK_THAT(trajectory_error("# only comments\n\n"), Catch::Contains("no poses"));
  // segment speeds: 0.1 m in 1e-12 s is 1e11 m/s (> 1e9, the scene's velocity limit); a
  // half turn (π rad) in 1e-12 s is 3.1e12 rad/s; 1e-12 s with neither is fine, and so is
  // 1e9 m/s exactly (1 m in 1e-9 s)
  CHECK_THAT(trajectory_error("0,0,0,0,1,0,0,0\n1e-12,0.1,0,0,1,0,0,0\n"),
             Catch::Contains("path.csv: line 2: the segment from the previous line moves 0.1 m "
                             "in 1e-12 s: 1e+11 m/s, beyond the limit of 1e+09 m/s"));
  CHECK_THAT(trajectory_error("0,0,0,0,1,0,0,0\n# c\n1e-12,0,0,0,0,0,0,1\n"),
             Catch::Contains("line 3: the segment from the previous line turns 3.14159 rad in "
                             "1e-12 s: 3.14159e+12 rad/s, beyond the limit of 1e+09 rad/s"));
  CHECK_THAT(trajectory_error("0,0,0,0,1,0,0,0\n1,1e9,0,0,1,0,0,0\n1.5,-1e9,0,0,1,0,0,0\n"),
             Catch::Contains("line 3: the segment from the previous line moves 2e+09 m in 0.5 s: "
                             "4e+09 m/s"));
  CHECK(parse_trajectory("0,0,0,0,1,0,0,0\n1e-12,0,0,0,1,0,0,0\n2e-12,0,0,0,1,0,0,0\n", "p")
            .keyframes.size() == 3);
  CHECK(parse_trajectory("0,0,0,0,1,0,0,0\n0.25,0.25e9,0,0,1,0,0,0\n", "p").keyframes.size() == 2);
  CHECK_THROWS_AS(load_trajectory("/nonexistent/path.csv"), Error);
}

TEST_CASE("the manipulanda key is read, built and written back", "[scene][manipulandum]") {
  const TempScene t;
  const Scene s =
      parse_scene(TempScene::scene(R"({"body": "b", "trajectory": "path.csv", "point": [0, 0.1, 0],
          "stiffness": 100, "damping": 2, "rotational_stiffness": 3, "rotational_damping": 0.5})"),
                  t.dir, "inline.json");
  REQUIRE(s.manipulanda.size() == 1);
  const SceneManipulandum& m = s.manipulanda[0];
  CHECK(m.body_index == 0);
  CHECK(m.point == Vec3(0, 0.1, 0));
  CHECK(m.stiffness == 100);
  CHECK(m.rotational_damping == 0.5);
  REQUIRE(m.path);
  CHECK(m.path->keyframes.size() == 2);
  CHECK(m.trajectory_path.is_absolute());
  // the World holds the coupling with lead h and G = the shape frame's point: with no gravity
  // its energy is ½ k |p_T(h) − p_G|², the target at t + h = 1 ms being (0.001, 0, 1) (1 m/s
  // along x) and G at (0, 0.1, 1) (the point in the shape frame, whose origin is the position
  // whatever the centre of mass): ½ 100 (0.001² + 0.1²) = 0.50005 J
  const World w = build_world(s);
  CHECK(w.potential_energy() == Approx(0.50005).epsilon(1e-12));
  // the resolved form reads back to the same coupling
  const Scene again = parse_scene(resolved_scene_json(s), t.dir, "resolved.json");
  REQUIRE(again.manipulanda.size() == 1);
  CHECK(again.manipulanda[0].trajectory_path == m.trajectory_path);
  CHECK(again.manipulanda[0].point == m.point);
  CHECK(again.manipulanda[0].rotational_stiffness == 3);
  CHECK(again.manipulanda[0].damping == 2);
}

TEST_CASE("bad manipulanda are errors naming the pointer", "[scene][manipulandum]") {
  const TempScene t;
  CHECK_THAT(t.error_of(R"({"body": "x", "trajectory": "path.csv", "stiffness": 1})"),
             Catch::Contains("/manipulanda/0/body: no body named \"x\""));
  CHECK_THAT(t.error_of(R"({"body": "b", "trajectory": "path.csv", "stiffness": 1})", true),
             Catch::Contains("/manipulanda/0/body: body \"b\" is fixed"));
  CHECK_THAT(t.error_of(R"({"body": "b", "trajectory": "none.csv", "stiffness": 1})"),
             Catch::Contains("/manipulanda/0/trajectory"));
  CHECK_THAT(t.error_of(R"({"body": "b", "trajectory": "path.csv", "stiffness": -1})"),
             Catch::Contains("/manipulanda/0/stiffness: expected a number >= 0"));
  CHECK_THAT(t.error_of(R"({"body": "b", "trajectory": "path.csv"})"),
             Catch::Contains("inline.json: /manipulanda/0/stiffness: missing (expected a number)"));
  CHECK_THAT(t.error_of(R"({"body": "b", "trajectory": "path.csv", "stiffness": 1, "k": 2})"),
             Catch::Contains("inline.json: /manipulanda/0/k: unknown key \"k\" (expected one of: "
                             "body, trajectory, point, stiffness, damping, rotational_stiffness,"));
  CHECK_THAT(t.error_of(R"({"body": "b", "trajectory": "", "stiffness": 1})"),
             Catch::Contains("/manipulanda/0/trajectory"));
  CHECK_THAT(t.error_of(R"({"body": "b", "trajectory": ".", "stiffness": 1})"),
             Catch::Contains("/manipulanda/0/trajectory"));
}

// the shipped scene: deterministic, and while pushing the pusher hangs mg/k below its target
// (frictionless contact with the crate: no vertical force but the spring's and gravity)
TEST_CASE("the shipped manipulandum scene runs deterministically", "[scene][manipulandum]") {
  const Scene scene = load_scene(pivot::test::source_scenes_dir() / "manipulandum_push.json");
  std::uint64_t hashes[2];
  for (auto& hash : hashes) {
    World w = build_world(scene);
    for (int i = 0; i < 300; ++i) w.step();
    hash = state_hash(w);
  }
  CHECK(hashes[0] == hashes[1]);
}
