// Sweep files (scenes/format/sweep.hpp, docs/sweeps.md): the grid's order, ranges against their
// closed forms, random draws against std::mt19937_64 and the documented mapping computed here,
// the pointer rules, every validation error with its JSON pointer, a variant's run against the
// same scene edited by hand and stepped here, and the resume rules of results.csv.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <string>

#include "pivot/scenes/run_length.hpp"
#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/sweep.hpp"
#include "pivot/scenes/sweep_pointer.hpp"

using namespace pivot;
namespace fs = std::filesystem;

namespace {

/// a free-falling ball over a plane, 0.05 s (50 steps of 1 ms)
constexpr std::string_view kScene = R"({
  "pivot_scene": 1,
  "settings": {"dt": 0.001, "duration": 0.05},
  "bodies": [
    {"name": "ground", "fixed": true, "shape": {"type": "plane", "normal": [0, 0, 1]}},
    {"name": "ball", "mass": 1.0, "position": [0, 0, 0.2],
     "shape": {"type": "sphere", "radius": 0.1}}
  ]
})";

/// a folder with base.json (kScene) and the sweep files the test writes, removed at the end
struct SweepDir {
  fs::path path;
  SweepDir() {
    path = fs::temp_directory_path() / ("pivot-test-sweep-" + std::to_string(::getpid()));
    fs::remove_all(path);
    fs::create_directories(path);
    write("base.json", kScene);
  }
  ~SweepDir() { fs::remove_all(path); }
  SweepDir(const SweepDir&) = delete;
  SweepDir& operator=(const SweepDir&) = delete;
  fs::path write(const std::string& name, std::string_view text) const {
    std::ofstream(path / name) << text;
    return path / name;
  }
  Sweep load(std::string_view text) const { return load_sweep(write("sweep.json", text)); }
  /// the place of the error loading `text`, or "" when it loads
  std::string error_place(std::string_view text) const {
    try {
      (void)load(text);
    } catch (const Error& e) {
      return e.place();
    }
    return "";
  }
  std::string error_message(std::string_view text) const {
    try {
      (void)load(text);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
};

std::string with_parameters(const std::string& parameters, const std::string& rest = "") {
  return R"({"scene": "base.json", "parameters": )" + parameters + rest + "}";
}

}  // namespace

TEST_CASE("a grid's variants: every combination, the last parameter fastest") {
  const SweepDir dir;
  const Sweep sweep = dir.load(
      with_parameters(R"({"/bodies/1/mass": [1, 2], "/bodies/1/friction": [0.1, 0.2, 0.3]})"));
  REQUIRE(sweep_size(sweep) == 6);
  const std::vector<SweepVariant> variants = expand_sweep(sweep);
  const std::vector<std::string> mass = {"1", "2"}, friction = {"0.1", "0.2", "0.3"};
  long index = 0;
  for (const std::string& m : mass)
    for (const std::string& f : friction) {
      CHECK(variants[static_cast<std::size_t>(index)].index == index);
      CHECK(variants[static_cast<std::size_t>(index)].values == std::vector<std::string>{m, f});
      ++index;
    }
  CHECK(sweep_columns(sweep) == std::vector<std::string>{"index", "/bodies/1/mass",
                                                         "/bodies/1/friction", "status", "error",
                                                         "final_state_hash"});
}

TEST_CASE("ranges: count and step give their closed-form values") {
  const SweepDir dir;
  SECTION("count: from + (to - from) k / (count - 1), the last exactly to") {
    const Sweep s =
        dir.load(with_parameters(R"({"/bodies/1/friction": {"from": 0, "to": 1, "count": 5}})"));
    CHECK(s.parameters[0].values == std::vector<std::string>{"0.0", "0.25", "0.5", "0.75", "1.0"});
  }
  SECTION(
      "count: decimal ranges read as their decimals (0.6 / 3 is 0.2, not 0.19999999999999998)") {
    const Sweep s = dir.load(
        with_parameters(R"({"/bodies/1/friction": {"from": 0.0, "to": 0.6, "count": 4}})"));
    CHECK(s.parameters[0].values == std::vector<std::string>{"0.0", "0.2", "0.4", "0.6"});
  }
  SECTION("step: from, from + step, ... up to to (0.1 + 2 * 0.1 is 0.3)") {
    const Sweep s = dir.load(
        with_parameters(R"({"/bodies/1/friction": {"from": 0.1, "to": 0.5, "step": 0.1}})"));
    CHECK(s.parameters[0].values == std::vector<std::string>{"0.1", "0.2", "0.3", "0.4", "0.5"});
  }
  SECTION("integers stay integers") {
    const Sweep s = dir.load(
        with_parameters(R"({"/settings/friction_directions": {"from": 2, "to": 8, "step": 2}})"));
    CHECK(s.parameters[0].values == std::vector<std::string>{"2", "4", "6", "8"});
  }
}

TEST_CASE("random variants: seeded std::mt19937_64, u = (x >> 11) 2^-53, reproducible, in bounds") {
  const SweepDir dir;
  const std::string text = with_parameters(
      R"({"/bodies/1/friction": {"from": 0.2, "to": 0.8}, "/bodies/1/mass": [1, 2, 3]})",
      R"(, "mode": "random", "samples": 200, "seed": 42)");
  const Sweep sweep = dir.load(text);
  const std::vector<SweepVariant> a = expand_sweep(sweep);
  const std::vector<SweepVariant> b = expand_sweep(dir.load(text));
  REQUIRE(a.size() == 200);
  int seen[3] = {0, 0, 0};
  for (std::size_t i = 0; i < a.size(); ++i) {
    CHECK(a[i].values == b[i].values);
    // the documented draw, computed here: variant i's generator is seeded with seed + i
    std::mt19937_64 g(42 + i);
    const double u_friction = static_cast<double>(g() >> 11) * 0x1.0p-53;
    const double u_mass = static_cast<double>(g() >> 11) * 0x1.0p-53;
    const double friction = std::stod(a[i].values[0]);
    CHECK(friction == 0.2 + u_friction * (0.8 - 0.2));
    CHECK(friction >= 0.2);
    CHECK(friction <= 0.8);
    const int mass = std::stoi(a[i].values[1]);
    CHECK(mass == 1 + static_cast<int>(u_mass * 3));
    ++seen[mass - 1];
  }
  // 200 draws of 3 equally likely values: each is seen (P(one missing) < 3 (2/3)^200)
  CHECK((seen[0] > 0 && seen[1] > 0 && seen[2] > 0));
  const Sweep other = dir.load(with_parameters(
      R"({"/bodies/1/friction": {"from": 0.2, "to": 0.8}, "/bodies/1/mass": [1, 2, 3]})",
      R"(, "mode": "random", "samples": 200, "seed": 43)"));
  CHECK(sweep_variant(other, 0).values != a[0].values);
}

TEST_CASE("a parameter replaces a value or adds a key to an object that exists") {
  const SweepDir dir;
  const Sweep sweep = dir.load(with_parameters(
      R"({"/bodies/1/mass": [2.5], "/bodies/1/friction": [0.7], "/settings/gravity": [[0, 0, -1.62]]})"));
  const Scene scene =
      parse_scene(variant_scene_json(sweep, sweep_variant(sweep, 0)), dir.path, "v");
  CHECK(scene.bodies[1].settings.mass == 2.5);
  CHECK(scene.bodies[1].settings.friction == 0.7);
  CHECK(scene.settings.world.gravity.z() == -1.62);
}

TEST_CASE("sweep file errors name the JSON pointer") {
  const SweepDir dir;
  // a pointer into a missing array element, and under a missing object
  CHECK(dir.error_place(with_parameters(R"({"/bodies/5/mass": [1]})")) ==
        "/parameters/~1bodies~15~1mass");
  CHECK_THAT(dir.error_message(with_parameters(R"({"/bodies/5/mass": [1]})")),
             Catch::Contains("the scene has no /bodies/5 (/bodies is an array of 2 elements)"));
  CHECK_THAT(dir.error_message(with_parameters(R"({"/settings/solver/tolerance": [1]})")),
             Catch::Contains(
                 "/parameters/~1settings~1solver~1tolerance: the scene has no /settings/solver"));
  CHECK(dir.error_place(with_parameters(R"({"bodies": [1]})")) == "/parameters/bodies");
  CHECK(dir.error_place(with_parameters(R"({"/bodies/1/mass": []})")) ==
        "/parameters/~1bodies~11~1mass");
  CHECK(dir.error_place(with_parameters(R"({"/bodies/1/mass": [null]})")) ==
        "/parameters/~1bodies~11~1mass/0");
  CHECK(dir.error_place(with_parameters(R"({"/bodies/1/mass": 3})")) ==
        "/parameters/~1bodies~11~1mass");
  CHECK(dir.error_place(with_parameters("{}")) == "/parameters");
  CHECK(dir.error_place(with_parameters(R"({"/bodies/1/mass": [1]})", R"(, "mode": "lattice")")) ==
        "/mode");
  CHECK(dir.error_place(with_parameters(R"({"/bodies/1/mass": [1]})", R"(, "samples": 3)")) ==
        "/samples");
  CHECK(dir.error_place(with_parameters(R"({"/bodies/1/mass": [1]})",
                                        R"(, "mode": "random", "seed": 1)")) == "/samples");
  CHECK(dir.error_place(with_parameters(R"({"/bodies/1/mass": [1]})",
                                        R"(, "mode": "random", "samples": 2, "seed": -1)")) ==
        "/seed");
  CHECK(dir.error_place(with_parameters(R"({"/bodies/1/mass": {"from": 1, "to": 2}})")) ==
        "/parameters/~1bodies~11~1mass");
  CHECK(
      dir.error_place(with_parameters(R"({"/bodies/1/mass": {"from": 1, "to": 2, "count": 0}})")) ==
      "/parameters/~1bodies~11~1mass/count");
  CHECK(dir.error_place(with_parameters(R"({"/bodies/1/mass": [1]})",
                                        R"(, "keep": {"summary": ["steps", "speed"]})")) ==
        "/keep/summary/1");
  CHECK(dir.error_place(with_parameters(R"({"/bodies/1/mass": [1]})", R"(, "colour": 1)")) ==
        "/colour");
  CHECK(dir.error_place(R"({"scene": "missing.json", "parameters": {"/a": [1]}})") == "/scene");
  CHECK(dir.error_place("{\"scene\": \"base.json\",\n  \"parameters\": }") == "line 2, column 17");
}

TEST_CASE("a variant's row: the hash of the scene edited by hand and stepped here") {
  const SweepDir dir;
  const Sweep sweep =
      dir.load(with_parameters(R"({"/bodies/1/mass": [2.0, -1.0]})",
                               R"(, "keep": {"summary": ["steps"], "final_state": true})"));
  const std::vector<std::string> row = run_sweep_variant(sweep, sweep_variant(sweep, 0));

  std::string edited(kScene);
  edited.replace(edited.find("\"mass\": 1.0"), 11, "\"mass\": 2.0");
  World world = build_world(parse_scene(edited, dir.path, "edited"));
  const long steps = steps_for_duration(0.05, 0.001);
  for (long k = 0; k < steps; ++k) world.step();
  // index, the parameter, status, error, hash, summary.steps, final.ball.x ... wz
  REQUIRE(row.size() == 6 + 13);
  CHECK(row[0] == "0");
  CHECK(row[1] == "2.0");
  CHECK(row[2] == "ok");
  CHECK(row[3].empty());
  CHECK(row[4] == hash_to_hex(state_hash(world)));
  CHECK(row[5] == "50");
  CHECK(std::stod(row[8]) == world.pose(1).p_WB.z());

  const std::vector<std::string> bad = run_sweep_variant(sweep, sweep_variant(sweep, 1));
  CHECK(bad[2] == "invalid");
  CHECK_THAT(bad[3],
             Catch::Contains("base.json (variant 1): /bodies/1/mass: expected a positive number"));
  CHECK(bad[4].empty());
  CHECK(bad.size() == row.size());
}

TEST_CASE("csv_line quotes commas and quotes") {
  CHECK(csv_line({"1", "a,b", "say \"hi\"", "two\nlines"}) ==
        "1,\"a,b\",\"say \"\"hi\"\"\",two lines\n");
}

TEST_CASE("resuming: complete rows are kept, a cut-off row and crashed rows are run again") {
  const SweepDir dir;
  const Sweep sweep = dir.load(with_parameters(R"({"/bodies/1/mass": [1, 2, 3]})"));
  const std::string header = csv_line(sweep_columns(sweep));
  const std::string row0 = csv_line(run_sweep_variant(sweep, sweep_variant(sweep, 0)));
  const std::string row2 =
      csv_line(sweep_error_row(sweep, sweep_variant(sweep, 2), kSweepCrashed, "killed, signal 9"));
  const fs::path file = dir.write("results.csv", header + row2 + row0 + "1,2,ok,,12ab");
  const std::map<long, std::string> rows = read_sweep_results(sweep, file);
  REQUIRE(rows.size() == 1);
  CHECK(rows.at(0) == row0);
  CHECK(read_sweep_results(sweep, dir.path / "none.csv").empty());

  // another sweep's table is an error naming the line
  const fs::path other = dir.write("other.csv", header + "0,7,ok,,12ab\n");
  try {
    (void)read_sweep_results(sweep, other);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(std::string(e.place()) == "line 2");
  }
  const fs::path wrong_header = dir.write("header.csv", "index,/x,status\n");
  CHECK_THROWS_AS(read_sweep_results(sweep, wrong_header), Error);
}

TEST_CASE("sweep pointers: array indices as RFC 6901 §4 writes them", "[scenes][sweep]") {
  // "0" or a digit 1-9 and digits: "01", "+1", " 1", "-1" and "1e0" are not indices
  using detail::pointer_array_index;
  CHECK(pointer_array_index("0") == std::optional<std::size_t>(0));
  CHECK(pointer_array_index("10") == std::optional<std::size_t>(10));
  for (const char* token : {"01", "00", "+1", "-1", " 1", "1 ", "1e0", "", "x"})
    CHECK_FALSE(pointer_array_index(token));
  detail::ojson doc = detail::ojson::parse(R"({"bodies": [{"mass": 1}, {"mass": 2}]})");
  CHECK(detail::pointer_target(doc, "/bodies/1/mass") == 2);
  CHECK_THROWS_WITH(detail::pointer_target(doc, "/bodies/01/mass"),
                    Catch::Contains("the scene has no /bodies/01"));
}
