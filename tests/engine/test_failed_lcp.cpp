// WorldSettings::on_failed_lcp (engine/failed_lcp.hpp): called with each island LCP that
// fails, before the fallback; the step still ends with a finite state. An LCP is made to fail
// honestly by a pivot budget too small for it: a box landing on the ground with four corner
// contacts needs more than one pivot from the standard start.
#include <catch2/catch.hpp>

#include <vector>

#include "pivot/collision/shape.hpp"
#include "pivot/engine/island_solver.hpp"
#include "pivot/engine/world.hpp"

using namespace pivot;

namespace {

/// a 0.2 m box whose bottom is 1 mm above a fixed ground plane, falling at 2 m/s (it reaches the
/// ground within the first 1 ms step)
void add_box_on_ground(World& world) {
  world.add_body({.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0)});
  world.add_body({.name = "box",
                  .mass = 1.0,
                  .shape = make_box(Vec3(0.1, 0.1, 0.1)),
                  .p_WS = Vec3(0.0, 0.0, 0.101),
                  .v_WB = Vec3(0.0, 0.0, -2.0)});
}

}  // namespace

TEST_CASE("on_failed_lcp receives the failed island LCP before the fallback", "[world][lcp]") {
  std::vector<lcp::LcpStatus> statuses;
  std::vector<int> sizes;
  WorldSettings settings{.time_step = 1e-3};
  settings.lemke.max_pivots = 1;
  settings.on_failed_lcp = [&](const FailedLcp& failed) {
    statuses.push_back(failed.result.lcp.status);
    sizes.push_back(static_cast<int>(failed.problem.S.rows()));
    // the problem handed over is the island's: square blocks of matching sizes
    CHECK(failed.problem.P.rows() == failed.problem.P.cols());
    CHECK(failed.problem.Q.rows() == failed.problem.P.rows());
    CHECK(failed.problem.K.cols() == failed.problem.P.cols());
    CHECK(failed.problem.u.size() == failed.problem.P.rows());
    CHECK(failed.problem.v.size() == failed.problem.S.rows());
  };
  World world(settings);
  add_box_on_ground(world);
  const StepReport& report = world.step();
  REQUIRE_FALSE(statuses.empty());
  for (const lcp::LcpStatus s : statuses) CHECK(s != lcp::LcpStatus::solved);
  // 4 corners, each with a normal row, 4 friction directions and a cone row: m = 24
  CHECK(sizes.front() == 24);
  CHECK(world.pose(1).p_WB.allFinite());
  CHECK(world.twist(1).allFinite());
  (void)report;
}

TEST_CASE("without a callback and with a normal budget nothing is reported", "[world][lcp]") {
  int calls = 0;
  WorldSettings settings{.time_step = 1e-3};
  settings.on_failed_lcp = [&](const FailedLcp&) { ++calls; };
  World world(settings);
  add_box_on_ground(world);
  for (int i = 0; i < 50; ++i) world.step();
  CHECK(calls == 0);
  CHECK(world.pose(1).p_WB.z() > 0.09);
}
