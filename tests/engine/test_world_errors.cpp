// Bad input throws pivot::Error naming the offender; the state never takes a NaN.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "pivot/engine/world.hpp"

using namespace pivot;
using Catch::Matchers::Contains;

TEST_CASE("bad settings are rejected with a message naming the thing", "[world]") {
  CHECK_THROWS_AS(World({.time_step = 0.0}), Error);
  CHECK_THROWS_AS(World({.time_step = std::nan("")}), Error);
  World world;
  CHECK_THROWS_WITH(world.add_body({.name = "neg", .mass = -1.0}),
                    Contains("\"neg\"") && Contains("mass"));
  CHECK_THROWS_WITH(world.add_body({.name = "nan", .p_WS = Vec3(0, std::nan(""), 0)}),
                    Contains("\"nan\""));
  CHECK_THROWS_WITH(world.add_body({.name = "bad inertia", .inertia_diag = Vec3(1, 1, 5)}),
                    Contains("triangle"));
  world.add_body({.name = "a"});
  CHECK_THROWS_WITH(world.add_body({.name = "a"}), Contains("already taken"));
  CHECK_THROWS_AS(world.add_joint(BallJointSettings{.name = "j"}, 0, 7), Error);
  CHECK_THROWS_WITH(world.add_joint(HingeJointSettings{.name = "zero axis", .axis_W = Vec3::Zero()},
                                    0, kWorldBody),
                    Contains("zero axis"));
  CHECK_THROWS_AS(world.add_spring({.body_a = 0, .body_b = kWorldBody, .stiffness = -1.0}), Error);
}

TEST_CASE("a force callback that returns NaN never reaches the state", "[world]") {
  World world;
  world.add_body({.name = "a"});
  world.add_force_callback([](const RigidBodySet&, double, Eigen::VectorXd& w) {
    w(3) += std::numeric_limits<double>::quiet_NaN();
  });
  const StepReport& r = world.step();
  REQUIRE(r.warnings.size() == 1);
  CHECK(r.warnings[0].kind == StepWarning::nonfinite_forces);
  CHECK(r.warnings[0].subject == -1);
  CHECK(r.warning_count(StepWarning::nonfinite_forces) == 1);
  world.step();
  CHECK(world.totals().warnings[static_cast<std::size_t>(StepWarning::nonfinite_forces)] == 2);
  CHECK(world.bodies().positions().allFinite());
  CHECK(world.bodies().velocities().allFinite());
}

TEST_CASE("the same world run twice gives bit-identical states", "[world]") {
  auto run = [] {
    World world({.time_step = 1e-3});
    int prev = kWorldBody;
    for (int i = 0; i < 4; ++i) {
      const int b = world.add_body({.name = std::string("link").append(std::to_string(i)),
                                    .mass = 0.1,
                                    .inertia_diag = Vec3(1e-5, 1e-4, 1e-4),
                                    .p_WS = Vec3(0.05 + 0.1 * i, 0, 0)});
      world.add_joint(BallJointSettings{.name = std::string("j").append(std::to_string(i)),
                                        .anchor_W = Vec3(0.1 * i, 0, 0)},
                      b, prev);
      prev = b;
    }
    for (int k = 0; k < 300; ++k) world.step();
    return std::make_pair(world.bodies().positions(), world.bodies().velocities());
  };
  const auto a = run(), b = run();
  CHECK(a.first == b.first);
  CHECK(a.second == b.second);
}
