// Sensors in scenes (docs/sensors.md "In a scene"): each type read with its names resolved and
// its frame, the errors naming the entry, the round trip through the writer, and a run's
// sensors: sampled by Simulation as by a SensorSet of one's own, never changing the run.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/simulation.hpp"
#include "support/test_data.hpp"

using namespace pivot;
namespace fs = std::filesystem;

namespace {

const fs::path kScene = pivot::test::source_scenes_dir().parent_path() / "tests" / "cli" /
                        "sensors" / "sensors_scene.json";

// the sensor scene with its "sensors" section replaced by `sensors`
std::string with_sensors(const std::string& sensors) {
  return R"({"pivot_scene": 1, "name": "s", "settings": {"dt": 0.001, "duration": 0.1},
    "bodies": [{"name": "ground", "fixed": true, "shape": {"type": "plane"}},
               {"name": "box", "shape": {"type": "box", "half_extents": [0.1, 0.1, 0.05]},
                "mass": 2, "position": [0, 0, 0.05]}],
    "joints": [{"type": "hinge", "name": "h", "body_a": "box", "anchor": [0, 0, 1],
                "axis": [0, 1, 0]}],
    "actuators": [{"name": "m", "joint": "h", "type": "effort", "effort_limit": 1}],
    "sensors": )" +
         sensors + "}";
}

Scene parse(const std::string& text) {
  return parse_scene(text, fs::current_path(), "s.json");
}

/// records the sensors' samples a run hands its sink
struct SensorRecorder : RunSink {
  std::vector<std::pair<double, std::vector<std::vector<double>>>> rows;
  void frame(const World&, double) override {}
  void sensors(const SensorSet& s, double t) override {
    std::vector<std::vector<double>> row;
    for (int i = 0; i < s.size(); ++i)
      row.push_back(s.sampled(i) ? s.latest(i).values : std::vector<double>{});
    rows.emplace_back(t, row);
  }
};

}  // namespace

TEST_CASE("scene sensors: every type, names resolved, frames in the scene's conventions",
          "[scenes][sensors]") {
  const Scene scene = load_scene(kScene);
  REQUIRE(scene.sensors.size() == 5);
  const auto& imu = std::get<ImuSensorSettings>(scene.sensors[0]);
  CHECK(imu.name == "imu");
  CHECK(imu.body == 1);
  CHECK(imu.p_BS == Vec3(0.05, 0, 0.05));
  CHECK(imu.period == 0.01);
  // intrinsic zyx (90°, 0, 0): a quarter turn about z, (cos 45°, 0, 0, sin 45°)
  CHECK(imu.q_BS.w() == Approx(std::sqrt(0.5)).epsilon(1e-15));
  CHECK(imu.q_BS.z() == Approx(std::sqrt(0.5)).epsilon(1e-15));
  const auto& contact = std::get<ContactSensorSettings>(scene.sensors[1]);
  CHECK(contact.body == 1);
  CHECK(contact.other == 0);
  const auto& range = std::get<RangeSensorSettings>(scene.sensors[2]);
  CHECK(range.body == 2);
  CHECK(range.direction_B == Vec3(0, 0, -1));  // normalized
  CHECK(range.max_range == 5.0);
  CHECK(std::get<JointSensorSettings>(scene.sensors[3]).joint == 0);
  CHECK(std::get<ActuatorSensorSettings>(scene.sensors[4]).actuator == 0);
  CHECK(std::get<ActuatorSensorSettings>(scene.sensors[4]).period == 0.0);
  // "other" left out: every contact of the body
  const Scene any = parse(with_sensors(R"([{"name": "c", "type": "contact", "body": "box"}])"));
  CHECK(std::get<ContactSensorSettings>(any.sensors[0]).other == -1);
}

TEST_CASE("scene sensors: bad definitions are errors naming the entry", "[scenes][sensors]") {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {R"({"name": "a", "type": "sonar", "body": "box"})",
       "s.json: /sensors/1/type: unknown sensor type \"sonar\""},
      {R"({"name": "a", "type": "imu", "body": "lid"})", "s.json: /sensors/1/body: no body named"},
      {R"({"name": "a", "type": "contact", "body": "box", "other": "lid"})",
       "s.json: /sensors/1/other: no body named \"lid\""},
      {R"({"name": "a", "type": "contact", "body": "box", "other": "box"})",
       "s.json: /sensors/1/other: expected a body other than"},
      {R"({"name": "a", "type": "joint", "joint": "knee"})",
       "s.json: /sensors/1/joint: no joint named \"knee\""},
      {R"({"name": "a", "type": "actuator", "actuator": "elbow"})",
       "s.json: /sensors/1/actuator: no actuator named \"elbow\""},
      {R"({"name": "ok", "type": "joint", "joint": "h"})",
       "s.json: /sensors/1/name: duplicate sensor name \"ok\" (also /sensors/0/name)"},
      {R"({"name": "a", "type": "joint", "joint": "h", "period": -0.1})",
       "s.json: /sensors/1/period: expected a number >= 0"},
      {R"({"name": "a", "type": "range", "body": "box", "max_range": 0})",
       "s.json: /sensors/1/max_range: expected a positive number"},
      {R"({"name": "a", "type": "range", "body": "box", "direction": [0, 0, 0]})",
       "s.json: /sensors/1/direction: expected a non-zero direction"},
      {R"({"name": "a", "type": "joint", "joint": "h", "body": "box"})",
       "s.json: /sensors/1/body: unknown key \"body\""},
      {R"({"name": "a,b", "type": "joint", "joint": "h"})",
       "s.json: /sensors/1/name: the name \"a,b\" holds a comma"},
      {R"({"type": "joint", "joint": "h"})", "s.json: /sensors/1/name: missing"},
      {R"({"name": "a", "type": "imu", "body": "box", "quat_wxyz": [2, 0, 0, 0]})",
       "s.json: /sensors/1/quat_wxyz: expected a unit quaternion"},
  };
  for (const auto& [entry, message] : cases) {
    INFO(entry);
    CHECK_THROWS_WITH(
        parse(with_sensors(R"([{"name": "ok", "type": "joint", "joint": "h"}, )" + entry + "]")),
        Catch::Contains(message));
  }
  CHECK_THROWS_WITH(parse(with_sensors("{}")),
                    Catch::Contains("s.json: /sensors: expected an array"));
}

TEST_CASE("scene sensors: written back and read again unchanged", "[scenes][sensors]") {
  const Scene scene = load_scene(kScene);
  const std::string written = resolved_scene_json(scene);
  CHECK(written.find("\"sensors\"") != std::string::npos);
  const Scene again = parse_scene(written, kScene.parent_path(), "again.json");
  REQUIRE(again.sensors.size() == scene.sensors.size());
  CHECK(resolved_scene_json(again) == written);
  SensorSet a = build_sensors(scene), b = build_sensors(again);
  for (int i = 0; i < a.size(); ++i) {
    CHECK(a.name(i) == b.name(i));
    CHECK(a.fields(i) == b.fields(i));
  }
  const auto& x = std::get<ImuSensorSettings>(scene.sensors[0]);
  const auto& y = std::get<ImuSensorSettings>(again.sensors[0]);
  CHECK(x.p_BS == y.p_BS);
  CHECK(x.q_BS.coeffs() == y.q_BS.coeffs());
}

TEST_CASE(
    "a run's sensors: the sink gets what a SensorSet of one's own reads, and the run "
    "steps as one without sensors or with an idle controller",
    "[scenes][sensors][controller]") {
  const Scene scene = load_scene(kScene);
  Simulation sim(scene);
  SensorRecorder recorder;
  const RunSummary& s = sim.run(&recorder);
  REQUIRE(s.status == RunStatus::finished);

  // a separate library run: build_world, build_sensors, observe before the first step and after
  World world = build_world(scene);
  SensorSet sensors = build_sensors(scene);
  std::size_t row = 0;
  const auto compare = [&](bool sampled) {
    if (!sampled) return;
    REQUIRE(row < recorder.rows.size());
    CHECK(recorder.rows[row].first == Approx(world.time()).margin(1e-12));
    for (int i = 0; i < sensors.size(); ++i)
      CHECK(recorder.rows[row].second[i] ==
            (sensors.sampled(i) ? sensors.latest(i).values : std::vector<double>{}));
    ++row;
  };
  compare(sensors.observe(world));
  for (long k = 0; k < sim.total_steps(); ++k) {
    world.step();
    compare(sensors.observe(world));
  }
  CHECK(row == recorder.rows.size());
  CHECK(row == 501);  // the joint and actuator sensors sample after every step, and at t = 0
  CHECK(state_hash(world) == s.final_state_hash);

  // the IMU at rest reads −g in its frame: +9.81 up, the sensor's z (a turn about z only)
  const std::vector<double>& imu = sim.sensors().latest(0).values;
  CHECK(imu[2] == Approx(9.81).epsilon(1e-9));
  // the range finder from the post's centre at z = 0.6 (its own body left out) down to the
  // box's top at z = 0.1
  CHECK(sim.sensors().latest(2).values[0] == Approx(0.5).epsilon(1e-9));

  // no sensors, and an idle controller: the same final state bit for bit
  Scene bare = scene;
  bare.sensors.clear();
  Simulation plain(bare);
  CHECK(plain.run(nullptr).final_state_hash == s.final_state_hash);
  Simulation idle(scene);
  int calls = 0;
  idle.set_controller([&](ControlContext&) { ++calls; });
  CHECK(idle.run(nullptr).final_state_hash == s.final_state_hash);
  CHECK(calls == 500);
}

TEST_CASE("a scene run's controller reads its sensors and commands its actuators",
          "[scenes][controller]") {
  // the hinge pendulum of the sensor scene's own kind, on an effort actuator: the bob at
  // ψ0 from the downward vertical (A = bob, B = world: ψ = ψ0 + θ), held by u = m g l sin(ψ0 + θ)
  const double m = 1.0, l = 0.5, psi0 = 0.4, g = 9.81;
  const std::string text = R"({"pivot_scene": 1, "name": "hold",
    "settings": {"dt": 0.001, "duration": 1.0, "gravity": [0, 0, -9.81]},
    "bodies": [{"name": "bob", "mass": 1, "inertia_diag": [1e-3, 1e-3, 1e-3],
                "position": [)" +
                           std::to_string(l * std::sin(psi0)) + ", 0, " +
                           std::to_string(-l * std::cos(psi0)) + R"(]}],
    "joints": [{"type": "hinge", "name": "h", "body_a": "bob", "anchor": [0, 0, 0],
                "axis": [0, 1, 0]}],
    "actuators": [{"name": "m", "joint": "h", "type": "effort", "effort_limit": 100}],
    "sensors": [{"name": "h", "type": "joint", "joint": "h"}]})";
  const Scene scene = parse(text);
  const Vec3 p0 = scene.bodies[0].settings.p_WS;
  const double l0 = p0.norm(), psi = std::atan2(p0.x(), -p0.z());  // as written (6 digits)
  Simulation sim(scene);
  sim.set_controller([&](ControlContext& c) {
    c.set_target("m", m * g * l0 * std::sin(psi + c.value("h", "q")));
  });
  double worst = 0.0;
  for (long k = 0; k < sim.total_steps(); ++k) {
    sim.step();
    const Vec3 r = sim.world().pose(0).p_WB;
    worst = std::max(worst, std::abs(std::atan2(r.x(), -r.z()) - psi));
  }
  CHECK(worst <= 1e-9);
  CHECK(sim.sensors().latest(0).time == Approx(1.0));
}
