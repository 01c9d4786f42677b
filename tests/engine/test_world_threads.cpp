// Islands in parallel (WorldSettings::threads): each island's answer depends on that island
// alone, so the state after any number of steps is the same, bit for bit, for any thread count.
// The scene has many independent islands with enough rows to go to the threads: small
// pyramids, each a few boxes on a fixed ground, dropped from 1 mm so that the first steps have
// impacts, and spheres rolling on the ground; plus a pendulum chain (joints: post-step islands).
#include <catch2/catch.hpp>

#include <cstring>
#include <string>

#include "pivot/engine/world.hpp"

using namespace pivot;

namespace {

World make_world(int threads) {
  WorldSettings settings{.time_step = 5e-3};
  settings.threads = threads;
  World world(settings);
  world.add_body(
      {.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0), .friction = 0.6});
  for (int p = 0; p < 6; ++p) {
    const double x0 = 1.5 * p;
    for (int level = 0; level < 3; ++level)
      for (int i = 0; i < 3 - level; ++i) {
        std::string name = "box";
        name.append(std::to_string(p)).append("_").append(std::to_string(level)).append("_");
        name.append(std::to_string(i));
        world.add_body(
            {.name = name,
             .mass = 1.0 + 0.1 * i,
             .shape = make_box(Vec3(0.1, 0.1, 0.05)),
             .p_WS = Vec3(x0 + 0.22 * (i - 0.5 * (2 - level)), 0.0, 0.051 + 0.101 * level),
             .friction = 0.6});
      }
  }
  for (int s = 0; s < 4; ++s)
    world.add_body({.name = "ball" + std::to_string(s),
                    .mass = 1.0,
                    .shape = make_sphere(0.1),
                    .p_WS = Vec3(1.5 * s, 3.0, 0.1),
                    .v_WB = Vec3(1.0 + s, 0.0, 0.0),
                    .friction = 0.3});
  int previous = kWorldBody;
  for (int k = 0; k < 4; ++k) {
    const int link = world.add_body({.name = "link" + std::to_string(k),
                                     .mass = 0.1,
                                     .shape = make_box(Vec3(0.05, 0.005, 0.005)),
                                     .p_WS = Vec3(0.05 + 0.1 * k, -3.0, 2.0)});
    world.add_joint(BallJointSettings{.anchor_W = Vec3(0.1 * k, -3.0, 2.0)}, link, previous);
    previous = link;
  }
  return world;
}

}  // namespace

TEST_CASE("the state is the same bit for bit for any thread count", "[world][threads]") {
  World serial = make_world(1);
  World two = make_world(2);
  World four = make_world(4);
  for (int step = 0; step < 60; ++step) {
    const StepReport& r1 = serial.step();
    const StepReport& r2 = two.step();
    const StepReport& r4 = four.step();
    REQUIRE(r1.failures == 0);
    CHECK(r1.islands >= 10);  // the pyramids, the balls and the chain are separate islands
    CHECK(r1.pivots == r2.pivots);
    CHECK(r1.pivots == r4.pivots);
  }
  const Eigen::VectorXd& p1 = serial.bodies().positions();
  const Eigen::VectorXd& v1 = serial.bodies().velocities();
  for (const World* other : {&two, &four}) {
    const Eigen::VectorXd& p = other->bodies().positions();
    const Eigen::VectorXd& v = other->bodies().velocities();
    REQUIRE(p.size() == p1.size());
    REQUIRE(v.size() == v1.size());
    CHECK(std::memcmp(p.data(), p1.data(), sizeof(double) * p.size()) == 0);
    CHECK(std::memcmp(v.data(), v1.data(), sizeof(double) * v.size()) == 0);
  }
  // the pyramids moved (impacts), so the comparison is of something that was computed
  CHECK(serial.kinetic_energy() > 0.0);
}

TEST_CASE("threads must be at least 0", "[world][threads]") {
  WorldSettings settings;
  settings.threads = -1;
  CHECK_THROWS_AS(World(settings), Error);
}

TEST_CASE("threads are at most kMaxThreads (256, docs/limits.md)", "[world][threads]") {
  WorldSettings settings;
  settings.threads = 256;
  CHECK_NOTHROW(World(settings));
  settings.threads = 257;
  CHECK_THROWS_WITH(World(settings), Catch::Contains("threads must be in [0, 256] (got 257)"));
}
