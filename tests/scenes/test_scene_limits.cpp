// The scene loader's limits (docs/limits.md, issue #24): each refusal names the pointer (or the
// line) and the limit; what was wrongly refused (a capsule of half length 0) loads.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "pivot/scenes/run_length.hpp"
#include "pivot/scenes/scene.hpp"

using namespace pivot;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

/// the Error message of parsing and building `text`, or "" when it is valid
std::string error_of(const std::string& text) {
  try {
    (void)build_world(parse_scene(text, fs::current_path(), "inline.json"));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

/// a one-body scene with `body` as the body's extra keys and `settings` as the settings
std::string scene(const std::string& body, const std::string& settings = "{}") {
  return R"({"pivot_scene": 1, "settings": )" + settings +
         R"(, "bodies": [{"name": "b", "shape": {"type": "sphere", "radius": 0.1})" +
         (body.empty() ? "" : ", " + body) + "}]}";
}

}  // namespace

TEST_CASE("magnitudes beyond the first step's range are refused with the pointer and limit",
          "[scene][errors][limits]") {
  CHECK(error_of(scene("")) == "");
  CHECK_THAT(error_of(scene(R"("velocity": [1e200, 0, 0])")),
             Contains("/bodies/0/velocity/0: 1e+200 m/s is beyond the limit of 1e+09 m/s"));
  CHECK_THAT(error_of(scene(R"("position": [0, 0, 1e300])")),
             Contains("/bodies/0/position/2: 1e+300 m is beyond the limit of 1e+09 m"));
  CHECK_THAT(error_of(scene(R"("angular_velocity": [0, -1e10, 0])")),
             Contains("/bodies/0/angular_velocity/1: -1e+10 rad/s is beyond the limit"));
  // mass 1e308 used to be "inertia is not positive definite"
  CHECK_THAT(error_of(scene(R"("mass": 1e308)")),
             Contains("/bodies/0/mass: 1e+308 kg is outside the range [1e-20, 1e+20] kg"));
  CHECK_THAT(error_of(scene(R"("density": 1e300)")), Contains("/bodies/0/density: 1e+300 kg/m³"));
  CHECK_THAT(error_of(R"({"pivot_scene": 1, "bodies": [{"name": "b", "shape": {"type": "box",
               "half_extents": [1e300, 1, 1]}}]})"),
             Contains("/bodies/0/shape/half_extents/0: 1e+300 m is beyond the limit"));
  CHECK_THAT(error_of(R"({"pivot_scene": 1, "settings": {"gravity": [0, 0, -1e12]}})"),
             Contains("/settings/gravity/2: -1e+12 m/s² is beyond the limit of 1e+09"));
  // just inside the limits: loads
  CHECK(error_of(scene(R"("velocity": [1e9, 0, 0], "position": [-1e9, 0, 0], "mass": 1e20)")) ==
        "");
}

TEST_CASE("settings that would make one step run for minutes are refused",
          "[scene][errors][limits]") {
  CHECK_THAT(error_of(scene("", R"({"dt": 10000, "duration": 0.05})")),
             Contains("/settings/dt: the time step 10000 s is longer than the run's duration "
                      "0.05 s"));
  CHECK_THAT(error_of(scene("", R"({"hybrid_tolerance": 1e-300})")),
             Contains("/settings/hybrid_tolerance: 1e-300 is below 1e-14"));
  CHECK(error_of(scene("", R"({"hybrid_tolerance": 1e-14})")) == "");
  CHECK_THAT(error_of(scene("", R"({"max_post_steps": 1000000000})")),
             Contains("/settings/max_post_steps: expected an integer in [1, 100]"));
  // the same rule for --dt/--duration given after loading (run_length.hpp)
  CHECK_THROWS_WITH(steps_for_duration(0.05, 1e8), Contains("longer than the run's duration"));
  CHECK(steps_for_duration(0.05, 0.05) == 1);
}

TEST_CASE("a capsule of half length 0 loads (documented and in the schema)",
          "[scene][limits]") {
  CHECK(error_of(R"({"pivot_scene": 1, "bodies": [{"name": "c", "shape": {"type": "capsule",
                   "radius": 0.1, "half_length": 0}}]})") == "");
  CHECK_THAT(error_of(R"({"pivot_scene": 1, "bodies": [{"name": "c", "shape": {"type": "cylinder",
                   "radius": 0.1, "half_length": 0}}]})"),
             Contains("/bodies/0/shape/half_length: expected a positive number"));
}

TEST_CASE("names in messages are quoted, escaped and cut", "[scene][errors][limits]") {
  const std::string newline = error_of(
      R"({"pivot_scene": 1, "bodies": [{"name": "a\nb", "mass": 1}, {"name": "a\nb", "mass": 1}]})");
  CHECK_THAT(newline, Contains(R"(duplicate body name "a\nb")"));
  CHECK(newline.find('\n') == std::string::npos);
  const std::string big(1 << 20, 'x');
  const std::string huge = error_of(R"({"pivot_scene": 1, "bodies": [{"name": ")" + big +
                                    R"(", "mass": 1}, {"name": ")" + big + R"(", "mass": 1}]})");
  CHECK_THAT(huge, Contains("duplicate body name \"xxxx") && Contains("... (1048576 bytes)"));
  CHECK(huge.size() < 300);
  // a key: in the pointer and in the message
  const std::string key = error_of(R"({"pivot_scene": 1, "col\nour": 1})");
  CHECK_THAT(key, Contains(R"(/col\nour: unknown key "col\nour")"));
}

TEST_CASE("files: a folder, a NUL byte with garbage after the JSON, an endless file",
          "[scene][errors][limits]") {
  const fs::path dir =
      fs::temp_directory_path() / ("pivot-test-limits-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  CHECK_THROWS_WITH(load_scene(dir), Contains("is a folder"));
  const fs::path nul = dir / "nul.json";
  {
    std::ofstream out(nul, std::ios::binary);
    const std::string text = "{\"pivot_scene\": 1}\n";
    out << text;
    out.put('\0');
    out << "garbage";
  }
  CHECK_THROWS_WITH(load_scene(nul), Contains("nul.json: line 2, column 1: a NUL byte"));
  if (fs::exists("/dev/zero"))
    CHECK_THROWS_WITH(load_scene("/dev/zero"), Contains("larger than the limit of 64 MiB"));
  fs::remove_all(dir);
}
