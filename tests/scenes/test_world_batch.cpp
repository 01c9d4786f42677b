// WorldBatch (scenes/format/world_batch.hpp): n copies of a scene stepped on the thread pool equal
// n Worlds of the scene stepped one by one with their own sensors, bit for bit, observations and
// final-state hashes alike; the scene's sensors follow the actuated joints' (q, q̇).
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <vector>

#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/world_batch.hpp"
#include "support/test_data.hpp"

using namespace pivot;

TEST_CASE("world batch: 4 copies with sensors equal 4 separate runs", "[scenes][batch]") {
  Scene scene = load_scene(pivot::test::source_scenes_dir() / "cart_pole.json");
  scene.sensors.emplace_back(JointSensorSettings{.name = "pole", .joint = 1});
  scene.sensors.emplace_back(ImuSensorSettings{.name = "imu", .body = 0, .period = 0.004});
  const int n = 4, steps = 3, rounds = 50;
  WorldBatch batch(scene, n, 2);
  REQUIRE(batch.size() == n);
  REQUIRE(batch.action_size() == 1);

  std::vector<World> worlds;
  std::vector<SensorSet> sensors(n);
  for (int i = 0; i < n; ++i) {
    worlds.push_back(build_world(scene));
    for (const SensorSettings& s : scene.sensors) sensors[i].add(s);
    sensors[i].observe(worlds[i]);
  }
  // m: the slider's (q, q̇), then the joint sensor's and the IMU's fields
  const int m = 2 + static_cast<int>(sensors[0].fields(0).size() + sensors[0].fields(1).size());
  REQUIRE(batch.observation_size() == m);

  std::vector<double> actions(n), got(static_cast<std::size_t>(n * m)), expected(m);
  for (int r = 0; r < rounds; ++r) {
    for (int i = 0; i < n; ++i) actions[i] = 8.0 * std::sin(0.3 * r + i);
    batch.step(actions.data(), steps, got.data());
    for (int i = 0; i < n; ++i) {
      worlds[i].set_actuator_target(0, actions[i]);
      for (int k = 0; k < steps; ++k) {
        worlds[i].step();
        sensors[i].observe(worlds[i]);
      }
      observe(worlds[i], sensors[i], expected.data());
      for (int j = 0; j < m; ++j) REQUIRE(got[static_cast<std::size_t>(i * m + j)] == expected[j]);
      // the slider's q and the sensor's q agree on the cart's x; the hinge's on the angle
      REQUIRE(got[static_cast<std::size_t>(i * m)] == worlds[i].pose(0).p_WB.x());
    }
  }
  for (int i = 0; i < n; ++i) CHECK(state_hash(batch.world(i)) == state_hash(worlds[i]));
  CHECK(state_hash(batch.world(0)) != state_hash(batch.world(1)));

  // reset: the scene's initial state
  batch.reset(got.data());
  const World fresh = build_world(scene);
  for (int i = 0; i < n; ++i) CHECK(state_hash(batch.world(i)) == state_hash(fresh));
  CHECK(got[0] == 0.0);
}

TEST_CASE("world batch: bad input is refused before any copy steps", "[scenes][batch]") {
  const Scene scene = load_scene(pivot::test::source_scenes_dir() / "cart_pole.json");
  CHECK_THROWS_WITH(WorldBatch(scene, 0), Catch::Contains("at least one world"));
  CHECK_THROWS_WITH(WorldBatch(scene, 2, -1), Catch::Contains("threads"));
  CHECK_THROWS_WITH(WorldBatch(scene, 2, kMaxThreads + 1), Catch::Contains("threads"));
  WorldBatch batch(scene, 3, 1);
  std::vector<double> actions{1.0, std::numeric_limits<double>::quiet_NaN(), 2.0};
  CHECK_THROWS_WITH(batch.step(actions.data(), 1, nullptr),
                    Catch::Contains("copy 1") && Catch::Contains("\"push\""));
  for (int i = 0; i < 3; ++i) CHECK(batch.world(i).step_count() == 0);
  actions[1] = 0.0;
  CHECK_THROWS_WITH(batch.step(actions.data(), 0, nullptr), Catch::Contains("steps"));
}
