// Rolling and spinning friction torques in reduced coordinates (Kry 2000 eqs. 4.27-4.30;
// engine/hybrid/reduced_contact.hpp, FrictionTorques). Ground truth: a sphere on a plane, where
// the torques about the contact point give closed forms: rolling without slip decelerates at
// v̇ = −5 μ_r g / (7 r) (angular momentum about the contact point, I + m r² = 7/5 m r²), a
// spin decays at ω̇_z = −μ_s m g / I = −5 μ_s g / (2 r²), and while sliding v̇ = −μ g (the
// rolling torque acts on the rotation only: I ω̇ = μ m g r − μ_r m g).
#include <catch2/catch.hpp>

#include <cmath>

#include "pivot/core/error.hpp"
#include "reduced_test_support.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot;
using namespace pivot::test;

namespace {

constexpr double g = 9.81, r = 0.1, mass = 2.0;

ReducedContactModel sphere_on_plane(double mu) {
  return sphere_on_ground(r, mass, mu);
}

Pose resting() {
  return resting_on_ground(r);
}

}  // namespace

TEST_CASE("rolling friction decelerates a sphere rolling without slip at 5 mu_r g / 7r",
          "[engine][reduced]") {
  ReducedContactModel m = sphere_on_plane(0.5);
  m.torques.mu_rolling = 0.002;
  Vec6 V;
  V << 0.0, 1.0 / r, 0.0, 1.0, 0.0, 0.0;  // v = 1 m/s along x, ω = v / r about y: no slip
  ReducedEntry e = enter_reduced_mode(m, resting(), V, Pose{}, Vec6::Zero());
  REQUIRE(e.state.mode == FrictionMode::no_slip);
  ReducedAdvanceResult last;
  const auto tr = run(m, e.state, 2.0, 0.25, ReducedStepSettings{}, &last);
  REQUIRE(last.status == ReducedStatus::ok);
  const double a = 5.0 * m.torques.mu_rolling * g / (7.0 * r);
  for (const Sample& x : tr) {
    CHECK(x.mode == FrictionMode::no_slip);
    CHECK(x.V1_W.tail<3>().x() == Approx(1.0 - a * x.t).margin(1e-9));
    CHECK(x.V1_W.head<3>().y() == Approx((1.0 - a * x.t) / r).margin(1e-8));
    CHECK(x.X_W1.p_WB.x() == Approx(x.t - 0.5 * a * x.t * x.t).margin(1e-9));
    CHECK(x.normal_force == Approx(mass * g).epsilon(1e-9));
  }
}

TEST_CASE("spinning friction stops a spin at 5 mu_s g / 2r^2", "[engine][reduced]") {
  ReducedContactModel m = sphere_on_plane(0.5);
  m.torques.mu_spinning = 0.001;
  Vec6 V;
  V << 0.0, 0.0, 5.0, 0.0, 0.0, 0.0;
  ReducedEntry e = enter_reduced_mode(m, resting(), V, Pose{}, Vec6::Zero());
  REQUIRE(e.state.mode == FrictionMode::no_slip);
  ReducedAdvanceResult last;
  const auto tr = run(m, e.state, 1.5, 0.25, ReducedStepSettings{}, &last);
  REQUIRE(last.status == ReducedStatus::ok);
  const double alpha = 5.0 * m.torques.mu_spinning * g / (2.0 * r * r);  // 2.45 rad/s²
  for (const Sample& x : tr) {
    CHECK(x.V1_W.head<3>().z() == Approx(5.0 - alpha * x.t).margin(1e-8));
    CHECK(x.V1_W.tail<3>().norm() < 1e-10);  // it stays where it is
  }
  // the regularization: below w_reg = 1e-3 rad/s the torque is μ_s f_n ω / w_reg, so ω reaches
  // w_reg at t₁ = (5 − w_reg)/α = 2.0383 s and then decays as w_reg exp(−(α/w_reg)(t − t₁)), at
  // 2452 /s: zero to rounding long before 2.5 s, and never negative on the way
  ReducedContactState s = e.state;
  const auto tail = run(m, s, 2.5, 0.25, ReducedStepSettings{});
  for (const Sample& x : tail) {
    CHECK(x.V1_W.head<3>().z() >= 0.0);
    if (x.t <= 2.0) CHECK(x.V1_W.head<3>().z() == Approx(5.0 - alpha * x.t).margin(1e-8));
  }
  CHECK(tail.back().t == Approx(2.5));
  CHECK(tail.back().V1_W.head<3>().z() < 1e-6);
}

TEST_CASE("while sliding, rolling friction acts on the rotation only", "[engine][reduced]") {
  // v0 = 2 m/s, ω0 = 5 rad/s (ω0 r < v0: sliding forward), μ = 0.2: sliding until v = ω r;
  // before that v = v0 − μ g t and ω = ω0 + (μ g r − μ_r g) m t / I (ω0 ≫ the regularization)
  ReducedContactModel m = sphere_on_plane(0.2);
  m.torques.mu_rolling = 0.002;
  Vec6 V;
  V << 0.0, 5.0, 0.0, 2.0, 0.0, 0.0;
  ReducedEntry e = enter_reduced_mode(m, resting(), V, Pose{}, Vec6::Zero());
  REQUIRE(e.state.mode == FrictionMode::sliding);
  ReducedAdvanceResult last;
  const auto tr = run(m, e.state, 0.2, 0.05, ReducedStepSettings{}, &last);
  REQUIRE(last.status == ReducedStatus::ok);
  const double I = 0.4 * mass * r * r;
  for (const Sample& x : tr) {
    CHECK(x.mode == FrictionMode::sliding);
    CHECK(x.V1_W.tail<3>().x() == Approx(2.0 - 0.2 * g * x.t).margin(1e-9));
    CHECK(x.V1_W.head<3>().y() ==
          Approx(5.0 + (0.2 * g * r - m.torques.mu_rolling * g) * mass * x.t / I).margin(1e-8));
  }
}

TEST_CASE("friction torques: bad coefficients are errors", "[engine][reduced]") {
  ReducedContactModel m = sphere_on_plane(0.5);
  m.torques.mu_rolling = -1e-3;
  CHECK_THROWS_AS(validate(m), Error);
  m.torques.mu_rolling = 0.0;
  m.torques.mu_spinning = std::nan("");
  CHECK_THROWS_AS(validate(m), Error);
  m.torques.mu_spinning = 0.0;
  m.torques.regularization = 0.0;
  CHECK_THROWS_AS(validate(m), Error);
}
