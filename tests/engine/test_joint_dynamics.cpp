// A joint's damping and Coulomb friction (constraints/joint.hpp JointDynamics,
// engine/world_joint_dynamics.cpp) against closed forms: the implicit-Euler decay of a damped
// spin, a slider held by friction below its breakaway effort and sliding at (F − f)/m above
// it, the terminal speed (F − f)/d with both, a pendulum stopped by joint friction.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "pivot/constraints/hinge_joint.hpp"
#include "pivot/constraints/slider_joint.hpp"
#include "pivot/core/error.hpp"
#include "pivot/engine/world.hpp"

using namespace pivot;

namespace {
Vec6 spin_z(double w) {
  Vec6 t = Vec6::Zero();
  t(2) = w;
  return t;
}

// a 2 kg carriage on a slider along world x, no gravity, pushed by an effort actuator F on s
struct Carriage {
  World world;
  int body = 0, slider = 0;
};
Carriage make_carriage(double h, double F, JointDynamics dyn) {
  Carriage c{World({.time_step = h, .gravity = Vec3::Zero()}), 0, 0};
  c.body = c.world.add_body({.name = "carriage", .mass = 2.0, .inertia_diag = Vec3(1, 1, 1)});
  c.slider = c.world.add_joint(
      SliderJointSettings{
          .name = "rail", .anchor_W = Vec3::Zero(), .axis_W = Vec3::UnitX(), .dynamics = dyn},
      c.body, kWorldBody);
  c.world.add_actuator({.name = "push",
                        .joint = c.slider,
                        .type = ActuatorType::effort,
                        .effort_limit = 1e3,
                        .keys = {{0.0, F}}});
  return c;
}
double rate(const Carriage& c) {
  return c.world.joint(c.slider).coordinate_rate(c.world.pose(c.body), Pose{},
                                                 c.world.twist(c.body), Vec6::Zero());
}
}  // namespace

TEST_CASE("a damped hinge's spin decays as the implicit-Euler recurrence", "[joint_dynamics]") {
  // I ω̇ = −d ω, implicit Euler: I (ω_{n+1} − ω_n) = −h d ω_{n+1}, ω_{n+1} = ω_n / (1 + h d / I)
  const double h = 1e-3, I = 0.02, d = 0.5, w0 = 3.0;
  World world({.time_step = h, .gravity = Vec3::Zero()});
  const int rod = world.add_body({.name = "rod", .mass = 1.0, .inertia_diag = Vec3(I, I, I)});
  world.add_joint(HingeJointSettings{.name = "spin",
                                     .anchor_W = Vec3::Zero(),
                                     .axis_W = Vec3::UnitZ(),
                                     .dynamics = {.damping = d}},
                  rod, kWorldBody);
  world.set_state(rod, world.pose(rod), spin_z(w0));
  double w = w0;
  for (int n = 0; n < 1000; ++n) {
    world.step();
    w /= 1.0 + h * d / I;
    REQUIRE(std::abs(world.twist(rod).w().z() - w) < 1e-12);
  }
  CHECK(w < 0.01 * w0);  // decayed, not just stepped
}

TEST_CASE("a slider's Coulomb friction holds below its breakaway force and slides above it",
          "[joint_dynamics]") {
  const double h = 1e-3, m = 2.0, f = 3.0;
  SECTION("F < f: at rest, exactly") {
    Carriage c = make_carriage(h, 0.8 * f, {.friction = f});
    for (int n = 0; n < 500; ++n) {
      c.world.step();
      REQUIRE(c.world.twist(c.body).v().norm() == 0.0);
    }
    CHECK(c.world.pose(c.body).p_WB.norm() == 0.0);
  }
  SECTION("F > f: accelerates at (F − f) / m") {
    const double F = 5.0;
    Carriage c = make_carriage(h, F, {.friction = f});
    for (int n = 1; n <= 500; ++n) {
      c.world.step();
      REQUIRE(std::abs(rate(c) - n * h * (F - f) / m) < 1e-12);
    }
  }
  SECTION("damping and friction: the terminal speed (F − f) / d") {
    // m (v⁺ − v) = h (F − f − d v⁺): v_n → (F − f)/d geometrically, ratio 1 / (1 + h d / m)
    const double F = 5.0, d = 4.0;
    Carriage c = make_carriage(h, F, {.damping = d, .friction = f});
    double v = 0.0;
    for (int n = 0; n < 6000; ++n) {
      c.world.step();
      v = (m * v + h * (F - f)) / (m + h * d);
      REQUIRE(std::abs(rate(c) - v) < 1e-12);
    }
    CHECK(std::abs(v - (F - f) / d) < 1e-3);
  }
  SECTION("the rows only exist where d or f is given, and bad values are refused") {
    World world({.time_step = h});
    const int b = world.add_body({.name = "b"});
    CHECK_THROWS_AS(
        world.add_joint(SliderJointSettings{.name = "bad", .dynamics = {.friction = -1}}, b,
                        kWorldBody),
        Error);
    CHECK_THROWS_AS(
        world.add_joint(
            HingeJointSettings{.name = "bad",
                               .dynamics = {.damping = std::numeric_limits<double>::quiet_NaN()}},
            b, kWorldBody),
        Error);
  }
}

TEST_CASE("joint friction stops a pendulum where m g l sin θ ≤ f", "[joint_dynamics]") {
  // a compact bob (m = 1 kg, l = 1 m) released at 1 rad: friction f = 2 N·m dissipates the
  // swing; it sticks at the first turning point inside the band |sin θ| ≤ f / (m g l)
  const double h = 1e-3, m = 1.0, l = 1.0, g = 9.81, f = 2.0, theta0 = 1.0;
  World world({.time_step = h});
  const int bob = world.add_body({.name = "bob",
                                  .mass = m,
                                  .inertia_diag = Vec3(1e-4, 1e-4, 1e-4),
                                  .p_WS = Vec3(l * std::sin(theta0), 0.0, -l * std::cos(theta0))});
  world.add_joint(HingeJointSettings{.name = "pivot",
                                     .anchor_W = Vec3::Zero(),
                                     .axis_W = Vec3::UnitY(),
                                     .dynamics = {.friction = f}},
                  bob, kWorldBody);
  int stopped_at = -1;
  for (int n = 0; n < 5000; ++n) {
    world.step();
    const bool still = world.twist(bob).w().norm() < 1e-12 && world.twist(bob).v().norm() < 1e-12;
    if (still && stopped_at < 0) stopped_at = n;
    if (!still) stopped_at = -1;
  }
  const Vec3 x = world.pose(bob).p_WB;
  const double theta = std::atan2(x.x(), -x.z());
  INFO("stopped at step " << stopped_at << ", θ = " << theta);
  CHECK(stopped_at >= 0);
  CHECK(stopped_at < 4000);  // in finite time, and it stays stopped
  CHECK(m * g * l * std::abs(std::sin(theta)) <= f * (1.0 + 1e-9));
  CHECK(std::abs(theta) < theta0);
}
