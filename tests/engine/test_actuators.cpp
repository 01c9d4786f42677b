// Actuators: the position servo against the discrete damped oscillator the linearly implicit
// step produces, a saturating servo's effort, an effort actuator's clamp, and bad settings.
#include <Eigen/Dense>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "pivot/engine/world.hpp"
#include "support/spinner.hpp"

using namespace pivot;

namespace {
using pivot::test::make_spinner;
using pivot::test::Spinner;
double angle_of(const Spinner& s) {
  return s.world.joint(s.hinge).coordinate(s.world.pose(s.rod), Pose{});
}
}  // namespace

TEST_CASE("a position servo follows the closed form of the implicit discrete oscillator",
          "[actuator]") {
  // Per step, with λ = h u, u = kp (θ_r − θ⁺) − kd θ̇⁺, θ⁺ = θ + h θ̇⁺ and I (θ̇⁺ − θ̇) = λ:
  //   θ̇⁺ = (I θ̇ + h kp (θ_r − θ)) / (I + h² kp + h kd),   θ⁺ = θ + h θ̇⁺
  // i.e. e = θ − θ_r follows the 2x2 linear recurrence (e, θ̇)⁺ = A (e, θ̇) with
  //   d = I + h² kp + h kd,  A = [1 − h² kp/d,  h I/d;  −h kp/d,  I/d]
  // and after N steps (e, θ̇)_N = A^N (e_0, 0), computed here by Eigen's matrix power.
  const double h = 1e-3, I = 0.02, kp = 400.0, kd = 3.0, theta_r = 0.5;
  for (const double kp_scale : {1.0, 1e4}) {  // a moderate and a very stiff servo
    const double k_p = kp * kp_scale;
    Spinner s = make_spinner(h, I);
    s.world.add_actuator({.name = "servo",
                          .joint = s.hinge,
                          .type = ActuatorType::position,
                          .kp = k_p,
                          .kd = kd,
                          .effort_limit = 1e9,
                          .keys = {{0.0, theta_r}}});
    const int N = 500;
    for (int i = 0; i < N; ++i) s.world.step();
    const double d = I + h * h * k_p + h * kd;
    Eigen::Matrix2d A;
    A << 1.0 - h * h * k_p / d, h * I / d, -h * k_p / d, I / d;
    Eigen::Matrix2d An = Eigen::Matrix2d::Identity();
    for (int i = 0; i < N; ++i) An = A * An;
    const Eigen::Vector2d x = An * Eigen::Vector2d(-theta_r, 0.0);
    CHECK(std::abs(angle_of(s) - (theta_r + x(0))) < 1e-9);
    CHECK(std::abs(-s.world.twist(s.rod).w().z() - x(1)) < 1e-9);
    CHECK(std::isfinite(s.world.actuator("servo").effort()));
  }
}

TEST_CASE("a saturated servo pushes with exactly its effort limit", "[actuator]") {
  const double h = 1e-3, I = 0.02, limit = 0.75;
  Spinner s = make_spinner(h, I);
  s.world.add_actuator({.name = "weak",
                        .joint = s.hinge,
                        .type = ActuatorType::position,
                        .kp = 1e5,
                        .kd = 10.0,
                        .effort_limit = limit,
                        .keys = {{0.0, 2.0}}});
  double rate = 0.0;
  for (int i = 0; i < 20; ++i) {
    s.world.step();
    const double rate_next = -s.world.twist(s.rod).w().z();
    // the applied torque from the momentum change, I Δθ̇ / h, and the row's impulse / h
    CHECK(std::abs(I * (rate_next - rate) / h - limit) < 1e-12 * limit * 1e3);
    CHECK(std::abs(s.world.actuator("weak").effort() - limit) < 1e-12);
    rate = rate_next;
  }
}

TEST_CASE("an effort actuator applies its clamped effort equal and opposite", "[actuator]") {
  // two free bodies joined by a hinge about z: the torque +u on the θ row spins them apart with
  // I ω̇_A = −u, I ω̇_B = +u (θ̇ = a·(ω_B − ω_A)), the total angular momentum stays 0
  const double h = 1e-3, I = 0.05, limit = 2.0;
  World world({.time_step = h, .gravity = Vec3::Zero()});
  const int a = world.add_body({.name = "a", .mass = 1.0, .inertia_diag = Vec3(I, I, I)});
  const int b = world.add_body({.name = "b", .mass = 1.0, .inertia_diag = Vec3(I, I, I)});
  const int j = world.add_joint(
      HingeJointSettings{.name = "j", .anchor_W = Vec3::Zero(), .axis_W = Vec3::UnitZ()}, a, b);
  world.add_actuator({.name = "motor",
                      .joint = j,
                      .type = ActuatorType::effort,
                      .effort_limit = limit,
                      .keys = {{0.0, 5.0}}});
  const int N = 10;
  for (int i = 0; i < N; ++i) world.step();
  CHECK(world.actuator(0).effort() == limit);
  CHECK(world.twist(b).w().z() == Approx(N * h * limit / I).epsilon(1e-12));
  CHECK(world.twist(a).w().z() == Approx(-N * h * limit / I).epsilon(1e-12));
  world.set_actuator_target("motor", -1.0);
  world.step();
  CHECK(world.actuator("motor").effort() == -1.0);
}

TEST_CASE("bad actuators are refused naming them", "[actuator]") {
  World world({.gravity = Vec3::Zero()});
  const int body = world.add_body({.name = "b"});
  const int ball = world.add_joint(BallJointSettings{.name = "ball"}, body, kWorldBody);
  CHECK_THROWS_WITH(world.add_actuator({.name = "x", .joint = ball, .effort_limit = 1.0}),
                    Catch::Contains("\"x\"") && Catch::Contains("ball"));
  CHECK_THROWS_WITH(world.add_actuator({.name = "x", .joint = 7, .effort_limit = 1.0}),
                    Catch::Contains("out of range"));
  const int hinge = world.add_joint(HingeJointSettings{.name = "h"}, body, kWorldBody);
  CHECK_THROWS_WITH(world.add_actuator({.name = "x",
                                        .joint = hinge,
                                        .type = ActuatorType::position,
                                        .kp = -1.0,
                                        .effort_limit = 1.0}),
                    Catch::Contains("kp"));
  CHECK_THROWS_WITH(
      world.add_actuator({.name = "x", .joint = hinge, .type = ActuatorType::velocity}),
      Catch::Contains("effort_limit"));
  CHECK_THROWS_WITH(world.actuator("nope"), Catch::Contains("nope"));
}

TEST_CASE("a velocity servo without effort limit (+inf) acts, as the implicit damper it is",
          "[actuator]") {
  // regression: an infinite bound made the island LCP fail and the step keep the old velocities
  // silently (the Python binding's default effort_limit is +inf). Target 0, gain kd: the spin
  // follows ω_{n+1} = ω_n / (1 + h kd / I)
  const double h = 1e-3, I = 0.02, kd = 0.5;
  Spinner s = make_spinner(h, I);
  s.world.add_actuator({.name = "brake",
                        .joint = s.hinge,
                        .type = ActuatorType::velocity,
                        .kd = kd,
                        .effort_limit = std::numeric_limits<double>::infinity(),
                        .keys = {{0.0, 0.0}}});
  Vec6 t = Vec6::Zero();
  t(2) = 3.0;
  s.world.set_state(s.rod, s.world.pose(s.rod), t);
  double w = 3.0;
  for (int n = 0; n < 100; ++n) {
    s.world.step();
    w /= 1.0 + h * kd / I;
    REQUIRE(std::abs(s.world.twist(s.rod).w().z() - w) < 1e-12);
  }
  CHECK(std::isfinite(s.world.actuator("brake").effort()));
}
