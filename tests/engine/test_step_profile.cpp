// WorldSettings::profile: the stage times of a step (engine/step_profile.hpp). What can be
// checked without timing anything against a clock: which stages ran, that the stages are laps of
// one step (their sum does not exceed the step's wall time on one thread), the run's totals are
// the sums of the steps', and nothing is measured without the setting.
#include <catch2/catch.hpp>

#include "pivot/engine/world.hpp"

using namespace pivot;

namespace {

World box_on_ground(bool profile) {
  WorldSettings settings{.time_step = 1e-3};
  settings.profile = profile;
  World world(settings);
  world.add_body({.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0)});
  world.add_body({.name = "box",
                  .mass = 1.0,
                  .shape = make_box(Vec3(0.1, 0.1, 0.1)),
                  .p_WS = Vec3(0.0, 0.0, 0.1005),
                  .v_WB = Vec3(0.0, 0.0, -1.0)});
  return world;
}

bool ran(const StepReport& r, StepStage s) {
  return r.stages.ran[static_cast<std::size_t>(s)];
}

}  // namespace

TEST_CASE("a profiled step times its stages", "[world][profile]") {
  World world = box_on_ground(true);
  std::array<double, kStepStages> sum{};
  double step_sum = 0.0;
  for (int k = 0; k < 20; ++k) {
    const StepReport& r = world.step();
    for (StepStage s :
         {StepStage::forces, StepStage::broad_phase, StepStage::narrow_phase, StepStage::assembly,
          StepStage::lemke, StepStage::verification, StepStage::integration})
      CHECK(ran(r, s));
    CHECK_FALSE(ran(r, StepStage::hybrid));  // hybrid mode is off
    double stages = 0.0;
    for (std::size_t i = 0; i < kStepStages; ++i) {
      CHECK(r.stages.seconds[i] >= 0.0);
      stages += r.stages.seconds[i];
      sum[i] += r.stages.seconds[i];
    }
    CHECK(r.step_seconds > 0.0);
    CHECK(stages <= r.step_seconds);
    step_sum += r.step_seconds;
  }
  const RunTotals& t = world.totals();
  CHECK(t.step_seconds == Approx(step_sum).epsilon(1e-12));
  for (std::size_t i = 0; i < kStepStages; ++i)
    CHECK(t.stage_seconds[i] == Approx(sum[i]).epsilon(1e-12));
  CHECK(t.stage_steps[static_cast<std::size_t>(StepStage::forces)] == 20);
  CHECK(t.stage_steps[static_cast<std::size_t>(StepStage::hybrid)] == 0);
}

TEST_CASE("without profile nothing is timed", "[world][profile]") {
  World world = box_on_ground(false);
  const StepReport& r = world.step();
  for (std::size_t i = 0; i < kStepStages; ++i) {
    CHECK(r.stages.seconds[i] == 0.0);
    CHECK_FALSE(r.stages.ran[i]);
  }
  CHECK(r.step_seconds == 0.0);
  CHECK(world.totals().step_seconds == 0.0);
}
