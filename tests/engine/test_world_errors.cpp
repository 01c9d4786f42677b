// Bad input throws pivot::Error naming the offender; the state never takes a NaN.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <utility>

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

TEST_CASE("a body whose state overflows in a step gets its start-of-step state back", "[world]") {
  // x⁺ = x + h v with v = 1e308 m/s and h = 4 s is 4e308: beyond the largest double
  World world({.time_step = 4.0, .gravity = Vec3::Zero()});
  const int fast = world.add_body({.name = "fast"});
  const int calm = world.add_body({.name = "calm", .p_WS = Vec3(5, 0, 0)});
  Vec6 twist = Vec6::Zero();
  twist(3) = 1e308;
  world.set_state(fast, Pose{Vec3(1, 2, 3), Quat::Identity()}, twist);
  world.set_state(calm, Pose{Vec3(5, 0, 0), Quat::Identity()}, Vec6::Unit(3));
  const StepReport& r = world.step();
  CHECK(r.failures == 1);
  REQUIRE(r.warning_count(StepWarning::nonfinite_state) == 1);
  CHECK(r.warnings.back().subject == fast);
  CHECK_THAT(r.warnings.back().message, Contains("\"fast\"") && Contains("not finite"));
  CHECK(world.pose(fast).p_WB == Vec3(1, 2, 3));
  CHECK(world.twist(fast) == twist);
  // the other body took its step: 5 + 4 · 1
  CHECK(world.pose(calm).p_WB.x() == 9.0);
  CHECK(world.totals().failures == 1);
}

namespace {
// zero gravity, Baumgarte stabilization with α = 200 1/s: the cap min(α, 1/h) acts for h > 5 ms
World baumgarte_world(double h) {
  return World({.time_step = h,
                .gravity = Vec3::Zero(),
                .stabilization = Stabilization::baumgarte,
                .baumgarte_alpha = 200.0});
}
// (h, the factor 1 − h·min(α, 1/h) one step applies to a linear error): 1 − 0.2 at 1 ms, and 0
// at 50 ms where the plain α would give 1 − 10 = −9
constexpr std::pair<double, double> kBaumgarteSteps[] = {{1e-3, 0.8}, {0.05, 0.0}};
}  // namespace

TEST_CASE("Baumgarte's rate is capped at 1/h: a joint error is removed, not overshot", "[world]") {
  // a ball joint at the body's centre: g = p − anchor is linear in p and J = [0 I], so
  // J v⁺ = −a g gives g⁺ = g + h v⁺ = (1 − h a) g exactly, with a = min(α, 1/h)
  for (const auto& [h, factor] : kBaumgarteSteps) {
    CAPTURE(h);
    World world = baumgarte_world(h);
    const int b = world.add_body({.name = "b"});
    world.add_joint(BallJointSettings{.name = "pin", .anchor_W = Vec3::Zero()}, b, kWorldBody);
    world.set_state(b, Pose{Vec3(1e-3, 0, 0), Quat::Identity()}, Vec6::Zero());
    world.step();
    CHECK(world.pose(b).p_WB.x() == Approx(factor * 1e-3).margin(1e-12));
    CHECK(baumgarte_rate(world.settings()) == Approx(h == 0.05 ? 20.0 : 200.0));
  }
}

TEST_CASE("Baumgarte's capped rate also pushes a penetrating contact out in one step", "[world]") {
  // a sphere 1 mm into the ground, no gravity: the contact row asks v_n ≥ −a·gap with
  // a = min(α, 1/h), so the step ends at gap⁺ = (1 − h a) gap: 0 at h = 50 ms (α = 200 would
  // throw it 9 mm clear), 0.8 mm deep at h = 1 ms
  for (const auto& [h, factor] : kBaumgarteSteps) {
    CAPTURE(h);
    World world = baumgarte_world(h);
    world.add_body({.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0)});
    const int ball =
        world.add_body({.name = "ball", .shape = make_sphere(0.1), .p_WS = Vec3(0, 0, 0.1 - 1e-3)});
    world.step();
    const double gap = world.pose(ball).p_WB.z() - 0.1;
    CHECK(gap == Approx(factor * -1e-3).margin(1e-12));
  }
}

TEST_CASE("set_state(-1, ...) names the index and the bodies there are", "[world][errors]") {
  // -1 is kWorldBody: the message used to say only "the world has no state"
  World world;
  world.add_body({.name = "a"});
  world.add_body({.name = "b"});
  CHECK_THROWS_WITH(world.set_state(-1, Pose{Vec3::Zero(), Quat::Identity()}, Vec6::Zero()),
                    Catch::Contains("set_state: body index -1 is the world (kWorldBody), which "
                                    "has no state; bodies are 0 … 1"));
}
