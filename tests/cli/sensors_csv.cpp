// `pivot run` on a scene with sensors (tests/cli/sensors/sensors_scene.json): sensors.csv read
// back equals the readings of a separate library run (build_world, build_sensors, observe after
// each step) bit for bit, the IMU at rest reads -g through the file, the replay builds with it,
// and a scene without sensors writes no sensors.csv. Arguments: the pivot executable, a folder.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "pivot/core/csv_line.hpp"
#include "pivot/core/number_text.hpp"
#include "pivot/scenes/scene.hpp"
#include "support/test_data.hpp"

using namespace pivot;
namespace fs = std::filesystem;

namespace {

fs::path env_path(const char* name) {
  const char* v = std::getenv(name);
  REQUIRE(v != nullptr);
  return v;
}

int run_pivot(const std::string& args) {
  const std::string command = "\"" + env_path("PIVOT_CLI").string() + "\" " + args;
  return std::system(command.c_str());
}

struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;
};

Csv read_csv(const fs::path& file) {
  std::ifstream in(file);
  REQUIRE(in);
  Csv csv;
  std::string line;
  std::getline(in, line);
  REQUIRE(split_csv_line(line, csv.header));
  std::vector<std::string> cells;
  while (std::getline(in, line)) {
    REQUIRE(split_csv_line(line, cells));
    REQUIRE(cells.size() == csv.header.size());
    csv.rows.push_back(cells);
  }
  return csv;
}

}  // namespace

TEST_CASE("pivot run: sensors.csv equals a library run's readings; the replay shows it",
          "[cli][sensors]") {
  const fs::path scene_file = pivot::test::source_scenes_dir().parent_path() / "tests" / "cli" /
                              "sensors" / "sensors_scene.json";
  const fs::path out = env_path("PIVOT_OUT") / "sensors_run";
  REQUIRE(run_pivot("run \"" + scene_file.string() + "\" --quiet --html --out \"" + out.string() +
                    "\"") == 0);
  REQUIRE(fs::exists(out / "replay.html"));
  const Csv csv = read_csv(out / "sensors.csv");

  // the library run
  const Scene scene = load_scene(scene_file);
  World world = build_world(scene);
  SensorSet sensors = build_sensors(scene);
  std::vector<std::string> header = {"t"};
  for (int i = 0; i < sensors.size(); ++i)
    for (const std::string& f : sensors.fields(i)) header.push_back(sensors.name(i) + "." + f);
  CHECK(csv.header == header);
  const long steps = std::lround(scene.settings.duration / scene.settings.world.time_step);
  std::size_t row = 0;
  double max_time_error = 0.0;
  const auto compare = [&](bool sampled) {
    if (!sampled) return;
    REQUIRE(row < csv.rows.size());
    const std::vector<std::string>& cells = csv.rows[row];
    max_time_error = std::max(max_time_error, std::abs(*read_number(cells[0]) - world.time()));
    std::size_t c = 1;
    for (int i = 0; i < sensors.size(); ++i) {
      for (std::size_t k = 0; k < sensors.fields(i).size(); ++k, ++c) {
        if (!sensors.sampled(i)) {
          CHECK(cells[c].empty());
          continue;
        }
        const std::optional<double> v = read_finite_number(cells[c]);
        REQUIRE(v);
        CHECK(*v == sensors.latest(i).values[k]);  // the same double, read back whole
      }
    }
    ++row;
  };
  compare(sensors.observe(world));
  for (long k = 0; k < steps; ++k) {
    world.step();
    compare(sensors.observe(world));
  }
  CHECK(row == csv.rows.size());
  CHECK(max_time_error < 1e-12);

  // the IMU (a quarter turn about z on the resting box) reads +g along its z, through the file
  const std::size_t az = static_cast<std::size_t>(
      std::find(csv.header.begin(), csv.header.end(), "imu.az") - csv.header.begin());
  const std::vector<std::string>& last_imu = csv.rows[csv.rows.size() - 1];
  REQUIRE(!last_imu[az].empty());  // t = 0.5 is a multiple of the IMU's 0.01 s
  CHECK(*read_number(last_imu[az]) == Approx(9.81).epsilon(1e-9));

  // summary.json lists it
  std::ifstream summary(out / "summary.json");
  const nlohmann::json s = nlohmann::json::parse(summary);
  const auto& outputs = s["outputs"];
  CHECK(std::find(outputs.begin(), outputs.end(), "sensors.csv") != outputs.end());
  // the replay holds a chart's data per sensor
  std::ifstream html(out / "replay.html");
  const std::string text((std::istreambuf_iterator<char>(html)), std::istreambuf_iterator<char>());
  CHECK(text.find(R"("sensors":[{"name":"imu")") != std::string::npos);
  CHECK(text.find(R"({"name":"servo","rows":501)") != std::string::npos);
  // pivot replay on the folder builds it again
  CHECK(run_pivot("replay \"" + out.string() + "\" --quiet --out \"" +
                  (out.parent_path() / "sensors_again.html").string() + "\"") == 0);

  // pivot plot draws a plot per sensor (the range finder's distance varies by an ulp or two
  // about 0.5, an axis range below the spacing of doubles)
  CHECK(run_pivot("plot \"" + out.string() + "\" > /dev/null") == 0);
  for (const char* name : {"imu", "floor", "down", "swing", "servo"})
    CHECK(fs::exists(out / "plots" / (std::string("sensor-") + name + ".svg")));

  // a scene without sensors: no sensors.csv, and a rerun into the folder removes the old one
  const fs::path pendulum = pivot::test::source_scenes_dir() / "pendulum.json";
  REQUIRE(run_pivot("run \"" + pendulum.string() + "\" --quiet --duration 0.05 --out \"" +
                    out.string() + "\"") == 0);
  CHECK(!fs::exists(out / "sensors.csv"));
}
