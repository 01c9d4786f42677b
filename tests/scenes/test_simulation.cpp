// Simulation (scenes/format/simulation.hpp): the frame times, the stop request, the hooks, a
// non-finite metric as a status, and summary_json's schema. The scene is one free body (no
// contacts), so every expected count follows from h, the duration and the output rate alone.

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "pivot/scenes/scene.hpp"
#include "pivot/scenes/simulation.hpp"

using namespace pivot;

namespace {

Scene falling_body(double rate_hz) {
  return parse_scene(R"({"pivot_scene": 1, "name": "fall",
    "settings": {"dt": 0.01, "duration": 1.0, "output_rate_hz": )" +
                         std::to_string(rate_hz) + R"(},
    "bodies": [{"name": "b", "mass": 1, "position": [0, 0, 1]}]})",
                     std::filesystem::current_path(), "fall.json");
}

/// records what a run hands its sink
struct Recorder : RunSink {
  std::vector<long> frame_steps;
  std::vector<double> frame_times;
  long steps = 0;
  void frame(const World& world, double t) override {
    frame_steps.push_back(world.step_count());
    frame_times.push_back(t);
  }
  void step(const World&, const StepReport&, const Energy&, double) override { ++steps; }
};

}  // namespace

TEST_CASE("a run's frames: the start, the first step at or after each j / rate, the last",
          "[scenes]") {
  SECTION("10 Hz at h = 10 ms: every 10th step, at the decimal times j / 10") {
    Simulation sim(falling_body(10));
    Recorder r;
    const RunSummary& s = sim.run(&r);
    CHECK(s.status == RunStatus::finished);
    CHECK(s.steps == 100);
    CHECK(r.steps == 100);
    REQUIRE(r.frame_steps.size() == 11);
    for (int j = 0; j <= 10; ++j) {
      CHECK(r.frame_steps[j] == 10 * j);
      CHECK(r.frame_times[j] == j / 10.0);
    }
  }
  SECTION("30 Hz: the first step at or after j / 30 s (4, 7, 10, 14, ...)") {
    Simulation sim(falling_body(30));
    Recorder r;
    sim.run(&r);
    REQUIRE(r.frame_steps.size() == 31);
    // step k is the frame of time j / 30 when k = ceil(100 j / 30)
    for (int j = 0; j <= 30; ++j) CHECK(r.frame_steps[j] == (100 * j + 29) / 30);
  }
  SECTION("rate 0: only the first and the last frame") {
    Simulation sim(falling_body(0));
    Recorder r;
    sim.run(&r);
    CHECK(r.frame_steps == std::vector<long>{0, 100});
  }
}

TEST_CASE("a stop request ends the run after the current step, with its last frame", "[scenes]") {
  Simulation sim(falling_body(10));
  Recorder r;
  std::vector<long> before, progress;
  RunHooks hooks;
  hooks.stop = [&] { return progress.size() >= 7; };
  hooks.progress = [&](long k, long total, double) {
    CHECK(total == 100);
    progress.push_back(k);
  };
  hooks.before_step = [&](long k) { before.push_back(k); };
  const RunSummary& s = sim.run(&r, hooks);
  CHECK(s.status == RunStatus::stopped);
  CHECK(s.interrupted());
  CHECK(s.steps == 7);
  CHECK(progress == std::vector<long>{1, 2, 3, 4, 5, 6, 7});
  // before every step, and once after the last with the steps taken
  CHECK(before == std::vector<long>{0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(r.frame_steps == std::vector<long>{0, 7});
  CHECK(s.simulated_time_s == 0.07);
  CHECK(nlohmann::json::parse(summary_json(s))["interrupted"] == true);
  // its frames and tallies count from the start: a second run is refused
  CHECK_THROWS_AS(sim.run(&r), Error);
}

TEST_CASE("a non-finite metric ends a run with a status, never an exception", "[scenes]") {
  Simulation sim(falling_body(10));
  // finite, but its kinetic energy m v^2 / 2 = 5e399 J overflows a double after the first step
  Vec6 twist = Vec6::Zero();
  twist(3) = 1e200;
  sim.world().set_state(0, sim.world().pose(0), twist);
  Recorder r;
  const RunSummary& s = sim.run(&r);
  CHECK(s.status == RunStatus::not_finite);
  CHECK(s.failure == "the state or its metrics became non-finite at step 1 (t = 0.01 s)");
  CHECK(s.steps == 0);
  CHECK(r.steps == 0);
  CHECK(r.frame_steps == std::vector<long>{0});
}

TEST_CASE("summary_json: summary.json's keys, the run's numbers and the outputs given",
          "[scenes]") {
  Simulation sim(falling_body(10));
  const RunSummary& s = sim.run(nullptr);
  const auto j = nlohmann::json::parse(summary_json(s, {"trajectory.csv"}));
  for (const char* key : {"pivot_version",
                          "scene",
                          "scene_file",
                          "steps",
                          "dt",
                          "simulated_time_s",
                          "wall_time_s",
                          "steps_per_second",
                          "realtime_factor",
                          "final_state_hash",
                          "final_state",
                          "energy",
                          "max_joint_error",
                          "max_penetration",
                          "contacts_per_step",
                          "lcp",
                          "hybrid",
                          "warnings",
                          "more_warnings",
                          "warning_counts",
                          "outputs",
                          "interrupted"})
    CHECK(j.contains(key));
  CHECK(j.size() == 22);
  CHECK(j["scene"] == "fall");
  CHECK(j["scene_file"] == "fall.json");
  CHECK(j["steps"] == 100);
  CHECK(j["dt"] == 0.01);
  CHECK(j["simulated_time_s"] == 1.0);
  CHECK(j["final_state_hash"] == hash_to_hex(state_hash(sim.world())));
  CHECK(j["final_state"][0]["body"] == "b");
  CHECK(j["final_state"][0]["z"] == sim.world().pose(0).p_WB.z());
  CHECK(j["lcp"]["solves"] == 0);  // one body in the air: no contact, no LCP
  CHECK(j["outputs"] == nlohmann::json::array({"trajectory.csv"}));
  CHECK(j["interrupted"] == false);
  // the initial energy is m g z = 9.81 J (z = 1 m, at rest)
  CHECK(j["energy"]["initial"]["potential"] == Approx(9.81).epsilon(1e-15));
  CHECK(j["energy"]["initial"]["kinetic"] == 0.0);
}
