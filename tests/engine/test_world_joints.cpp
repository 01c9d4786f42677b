// Joints in the world: pendulum period, limits, motors, redundant joints.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "pivot/engine/world.hpp"

using namespace pivot;

namespace {
// a compact bob on a massless rod: hinge about world y at the origin, bob at distance l
struct Pendulum {
  World world;
  int bob = 0;
  int hinge = 0;
};
Pendulum make_pendulum(double l, double theta0, Stabilization stab,
                       std::optional<JointLimits> limits = std::nullopt) {
  Pendulum p{World({.time_step = 1e-3, .stabilization = stab}), 0, 0};
  const Vec3 x0(l * std::sin(theta0), 0.0, -l * std::cos(theta0));
  p.bob = p.world.add_body(
      {.name = "bob", .mass = 1.0, .inertia_diag = Vec3(1e-4, 1e-4, 1e-4), .p_WS = x0});
  p.hinge = p.world.add_joint(
      HingeJointSettings{
          .name = "pivot", .anchor_W = Vec3::Zero(), .axis_W = Vec3::UnitY(), .limits = limits},
      p.bob, kWorldBody);
  return p;
}
double swing_angle(const World& w, int bob) {
  const Vec3 x = w.pose(bob).p_WB;
  return std::atan2(x.x(), -x.z());
}
}  // namespace

TEST_CASE("small-amplitude pendulum period matches the compound-pendulum formula", "[world]") {
  // T = 2π √((I + m l²) / (m g l)); with I = 1e-4 and l = 1 this is 2π√(l/g) · (1 + 5e-5)
  const double l = 1.0, g = 9.81, I = 1e-4;
  const double T_expected = 2.0 * EIGEN_PI * std::sqrt((I + l * l) / (g * l));
  for (Stabilization stab : {Stabilization::post, Stabilization::baumgarte}) {
    Pendulum p = make_pendulum(l, 0.05, stab);
    std::vector<double> crossings;  // upward zero crossings of the angle, interpolated
    double prev = swing_angle(p.world, p.bob), prev_t = 0.0;
    while (p.world.time() < 10.0) {
      p.world.step();
      const double a = swing_angle(p.world, p.bob), t = p.world.time();
      if (prev < 0.0 && a >= 0.0) crossings.push_back(prev_t + (t - prev_t) * (-prev) / (a - prev));
      prev = a;
      prev_t = t;
    }
    REQUIRE(crossings.size() >= 4);
    const double T = (crossings.back() - crossings.front()) / (crossings.size() - 1);
    INFO("stabilization " << to_string(stab) << ": T = " << T << " s, expected " << T_expected);
    CHECK(std::abs(T - T_expected) / T_expected < 0.005);
    CHECK(p.world.max_joint_error() < 1e-6);
  }
}

TEST_CASE("a hinge limit stops the swing at the limit", "[world]") {
  // released at 0.5 rad, the bob swings towards −0.5; the limit at θ ≥ −0.2 rad (hinge angle
  // about +y; the swing angle above is measured the same way) stops it there
  Pendulum p = make_pendulum(1.0, 0.5, Stabilization::post, JointLimits{-0.2, 1.0});
  double min_angle = 1.0;
  for (int k = 0; k < 3000; ++k) {
    p.world.step();
    min_angle = std::min(min_angle, p.world.joint(p.hinge).coordinate(p.world.pose(p.bob), Pose{}));
  }
  INFO("smallest hinge angle " << min_angle);
  CHECK(min_angle > -0.2 - 1e-6);
  CHECK(min_angle < -0.2 + 1e-3);  // it did reach the limit
}

TEST_CASE("a slider limit stops a falling body, a motor reaches its target speed", "[world]") {
  SECTION("limit") {
    World world({.time_step = 1e-3});
    const int b = world.add_body({.name = "carriage", .mass = 2.0});
    // vertical slider; displacement of B (world) relative to A along +z: the body falls, so the
    // world rises relative to it: coordinate grows. Limit it to 0.1 m.
    world.add_joint(SliderJointSettings{.name = "rail",
                                        .anchor_W = Vec3::Zero(),
                                        .axis_W = Vec3::UnitZ(),
                                        .limits = JointLimits{-1.0, 0.1}},
                    b, kWorldBody);
    for (int k = 0; k < 2000; ++k) world.step();
    INFO("final height " << world.pose(b).p_WB.z());
    CHECK(world.pose(b).p_WB.z() == Approx(-0.1).margin(1e-6));
    CHECK(std::abs(world.twist(b).v().z()) < 1e-6);
    // the limit carries the weight: impulse per step m g h
    CHECK(world.joint_limit_impulse(0) == Approx(2.0 * 9.81 * 1e-3).epsilon(1e-6));
  }
  SECTION("motor") {
    World world({.time_step = 1e-3, .gravity = Vec3::Zero()});
    const int wheel =
        world.add_body({.name = "wheel", .mass = 1.0, .inertia_diag = Vec3(0.5, 0.5, 0.2)});
    // motor on θ̇ = a·(ω_B − ω_A) with B = world: drives ω_A,z towards −target
    world.add_joint(
        HingeJointSettings{.name = "axle", .axis_W = Vec3::UnitZ(), .motor = JointMotor{3.0, 0.01}},
        wheel, kWorldBody);
    // with max impulse 0.01 N·m·s per step and I = 0.2, the speed grows 0.05 rad/s a step
    world.step();
    CHECK(std::abs(world.twist(wheel).w().z()) == Approx(0.05).epsilon(1e-9));
    for (int k = 0; k < 200; ++k) world.step();
    CHECK(std::abs(world.twist(wheel).w().z()) == Approx(3.0).epsilon(1e-9));
    CHECK(std::abs(world.joint_motor_impulse(0)) < 1e-9);  // at speed, no torque needed
  }
}

TEST_CASE("redundant joints are reported by name and the step stays finite", "[world]") {
  World world({.time_step = 1e-3});
  const int b = world.add_body({.name = "box", .mass = 1.0, .p_WS = Vec3(0.5, 0, 0)});
  world.add_joint(BallJointSettings{.name = "first", .anchor_W = Vec3::Zero()}, b, kWorldBody);
  world.add_joint(BallJointSettings{.name = "second", .anchor_W = Vec3::Zero()}, b, kWorldBody);
  const StepReport& r = world.step();
  REQUIRE_FALSE(r.warnings.empty());
  bool named = false;
  for (const auto& w : r.warnings) {
    CHECK(w.kind == StepWarning::redundant_joint);
    // the joint it concerns, by index and by name
    CHECK((w.subject == 0 || w.subject == 1));
    const std::string name = w.subject == 0 ? "\"first\"" : "\"second\"";
    named |= w.message.find(name) != std::string::npos;
  }
  CHECK(named);
  CHECK(r.warning_count(StepWarning::redundant_joint) == static_cast<int>(r.warnings.size()));
  CHECK(r.warning_count(StepWarning::island_lcp_failed) == 0);
  for (int k = 0; k < 500; ++k) world.step();
  CHECK(world.bodies().positions().allFinite());
  CHECK(world.bodies().velocities().allFinite());
  CHECK(world.max_joint_error() < 1e-6);
}

// More joint rows on a body pair than its coordinates (6 with the world or a fixed body, 12
// between two bodies) are dropped and reported, also when the pair's joints are not listed one
// after the other and when the pair's second body is one of several fixed bodies (the step
// skips the search when every pair's rows come in one run of at most 6: these are the cases
// where that shortcut must not apply)
TEST_CASE("joint rows beyond a pair's coordinates are dropped wherever the pair's joints are",
          "[world]") {
  auto dropped = [](const StepReport& r) {
    int n = 0;
    for (const auto& w : r.warnings)
      n += w.kind == StepWarning::redundant_joint &&
                   w.message.find("dependent ones") != std::string::npos
               ? 1
               : 0;
    return n;
  };
  SECTION("three hinges between two bodies, ball joints to other bodies between them") {
    World world({.time_step = 1e-3, .gravity = Vec3::Zero()});
    const int a = world.add_body({.name = "a", .mass = 1.0, .p_WS = Vec3(0, 0, 0)});
    const int b = world.add_body({.name = "b", .mass = 1.0, .p_WS = Vec3(1, 0, 0)});
    const int c = world.add_body({.name = "c", .mass = 1.0, .p_WS = Vec3(2, 0, 0)});
    const int d = world.add_body({.name = "d", .mass = 1.0, .p_WS = Vec3(3, 0, 0)});
    const HingeJointSettings hinge{.anchor_W = Vec3(0.5, 0, 0), .axis_W = Vec3::UnitZ()};
    world.add_joint(hinge, a, b);
    world.add_joint(BallJointSettings{.anchor_W = Vec3(1.5, 0, 0)}, b, c);
    world.add_joint(hinge, a, b);
    world.add_joint(BallJointSettings{.anchor_W = Vec3(2.5, 0, 0)}, c, d);
    world.add_joint(hinge, a, b);
    // 15 rows on the 12 coordinates of (a, b)
    CHECK(dropped(world.step()) == 1);
    // and at every step after it, whose islands are the first step's kept ones
    for (int k = 0; k < 3; ++k) CHECK(dropped(world.step()) == 1);
  }
  SECTION("two hinges of one body to two fixed bodies") {
    World world({.time_step = 1e-3, .gravity = Vec3::Zero()});
    const int f1 = world.add_body({.name = "f1", .fixed = true, .p_WS = Vec3(-1, 0, 0)});
    const int a = world.add_body({.name = "a", .mass = 1.0, .p_WS = Vec3(0, 0, 0)});
    const int f2 = world.add_body({.name = "f2", .fixed = true, .p_WS = Vec3(1, 0, 0)});
    world.add_joint(HingeJointSettings{.anchor_W = Vec3(-0.5, 0, 0)}, a, f1);
    world.add_joint(HingeJointSettings{.anchor_W = Vec3(0.5, 0, 0)}, a, f2);
    // 10 rows on the 6 coordinates of a (the fixed bodies count as the world)
    CHECK(dropped(world.step()) == 1);
    for (int k = 0; k < 3; ++k) CHECK(dropped(world.step()) == 1);
  }
}
