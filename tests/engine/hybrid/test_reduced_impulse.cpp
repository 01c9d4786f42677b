// Impulses on a reduced pair (engine/hybrid/reduced_contact.hpp, apply_impulse; World::
// apply_impulse). Ground truth, a uniform sphere (radius r, mass m, I = 2/5 m r²) on a
// horizontal plane, impulse J at a point, the contact perfectly inelastic (it stops the normal
// velocity and, where friction can, the slip):
//  - J straight down through the centre: the contact takes it all, the motion is unchanged;
//  - a horizontal J at the centre of a rolling sphere: no normal impulse, so no impulsive
//    friction either: it slides, Δv = J/m, Δω = 0;
//  - J = (J_x, 0, −J_n) at the centre, rolling: angular momentum about the contact point is
//    conserved through the impact, so Δv = J_x / (m + I/r²) = 5 J_x / 7m and Δω = Δv / r, with
//    the friction impulse (2/7) J_x, which must stay within μ J_n;
//  - J down at a horizontal offset d on a sphere stuck by static rolling friction μ_r: the
//    contact's rolling torque d J holds it while d ≤ μ_r; beyond, it rolls with ω = d J / I_P,
//    I_P = 7/5 m r² (angular momentum about the contact point).
#include <catch2/catch.hpp>

#include <cmath>

#include "pivot/core/error.hpp"
#include "pivot/engine/world.hpp"
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

Vec6 rolling(double v) {
  return rolling_along_x(v, r);
}

// the impulse J at world point p on body 1 as (τ; f) at its centre
Vec6 wrench(const ReducedContactModel& m, const ReducedContactState& s, const Vec3& J,
            const Vec3& p) {
  const Vec3 x = body1_pose(m, s).p_WB;
  Vec6 w;
  w << (p - x).cross(J), J;
  return w;
}

}  // namespace

TEST_CASE("an impulse on a rolling sphere: kept within the friction cone, closed forms",
          "[engine][reduced]") {
  const ReducedContactModel m = sphere_on_plane(0.5);
  const double v0 = 1.0;
  const ReducedEntry e = enter_reduced_mode(m, resting(), rolling(v0), Pose{}, Vec6::Zero());
  REQUIRE(e.state.mode == FrictionMode::no_slip);
  const Vec3 centre(0.0, 0.0, r);

  SECTION("straight down through the centre: absorbed by the contact") {
    const ReducedImpulse k =
        apply_impulse(m, e.state, 1, wrench(m, e.state, Vec3(0, 0, -3), centre));
    REQUIRE(k.kept);
    CHECK(k.state.mode == FrictionMode::no_slip);
    CHECK((body1_world_twist(m, k.state) - rolling(v0)).norm() < 1e-12);
    CHECK(-k.contact_impulse_1c[5] == Approx(3.0).epsilon(1e-12));  // the normal reaction
    // the energy the impulse would have given, ½ m (J/m)², goes into the inelastic contact
    CHECK(k.energy_change == Approx(-0.5 * 9.0 / mass).epsilon(1e-12));
  }
  SECTION("down and forward, within mu J_n: rolls on at v0 + 5 J_x / 7m") {
    const double Jx = 1.0, Jn = 1.0;  // needs (2/7) J_x = 0.286 <= 0.5 J_n
    const ReducedImpulse k =
        apply_impulse(m, e.state, 1, wrench(m, e.state, Vec3(Jx, 0, -Jn), centre));
    REQUIRE(k.kept);
    CHECK(k.state.mode == FrictionMode::no_slip);
    const double v = v0 + 5.0 * Jx / (7.0 * mass);
    const Vec6 V = body1_world_twist(m, k.state);
    CHECK(V.tail<3>().x() == Approx(v).epsilon(1e-12));
    CHECK(V.head<3>().y() == Approx(v / r).epsilon(1e-12));
    CHECK(std::abs(V.tail<3>().z()) < 1e-12);
    CHECK(k.contact_impulse_1c.segment<2>(3).norm() == Approx(2.0 / 7.0 * Jx).epsilon(1e-12));
    // the inelastic contact takes the energy of the relative motion it stops: ½ (m J_x²/m² ...)
    // = the difference between the unconstrained and the rolling kinetic energies
    const double before = 0.5 * mass * (std::pow(v0 + Jx / mass, 2) + std::pow(Jn / mass, 2)) +
                          0.5 * 0.4 * mass * r * r * std::pow(v0 / r, 2);
    const double after = 0.5 * 1.4 * mass * v * v;
    CHECK(k.energy_change == Approx(after - before).epsilon(1e-10));
  }
  SECTION("horizontal at the centre: no impulsive friction, so it slides, dv = J/m") {
    const ReducedImpulse k =
        apply_impulse(m, e.state, 1, wrench(m, e.state, Vec3(0.5, 0, 0), centre));
    REQUIRE(k.kept);
    CHECK(k.state.mode == FrictionMode::sliding);
    const Vec6 V = body1_world_twist(m, k.state);
    CHECK(V.tail<3>().x() == Approx(v0 + 0.5 / mass).epsilon(1e-12));
    CHECK(V.head<3>().y() == Approx(v0 / r).epsilon(1e-12));
    CHECK(std::abs(k.energy_change) < 1e-12);
    CHECK_FALSE(k.state.rolling_armed);
  }
  SECTION("down and forward beyond mu J_n: an impact with Coulomb friction, not kept") {
    const ReducedImpulse k =
        apply_impulse(m, e.state, 1, wrench(m, e.state, Vec3(2.0, 0, -1.0), centre));
    CHECK_FALSE(k.kept);
    CHECK_THAT(k.message, Catch::Contains("impulsive Coulomb friction"));
    CHECK(k.state.mode == e.state.mode);
    CHECK(k.state.qdot == e.state.qdot);
  }
  SECTION("upward: it lifts the sphere off, not kept") {
    const ReducedImpulse k =
        apply_impulse(m, e.state, 1, wrench(m, e.state, Vec3(0, 0, 1.0), centre));
    CHECK_FALSE(k.kept);
    CHECK_THAT(k.message, Catch::Contains("pulls the contact open"));
  }
  SECTION("bad input") {
    CHECK_THROWS_AS(apply_impulse(m, e.state, 2, Vec6::Ones()), Error);  // the plane is fixed
    CHECK_THROWS_AS(apply_impulse(m, e.state, 3, Vec6::Ones()), Error);
    Vec6 bad = Vec6::Zero();
    bad[4] = std::nan("");
    CHECK_THROWS_AS(apply_impulse(m, e.state, 1, bad), Error);
  }
}

TEST_CASE("an impulse on a frictionless sphere keeps only its tangential part",
          "[engine][reduced]") {
  const ReducedContactModel m = sphere_on_plane(0.0);
  const ReducedEntry e = enter_reduced_mode(m, resting(), rolling(1.0), Pose{}, Vec6::Zero());
  REQUIRE(e.state.mode == FrictionMode::frictionless);
  const ReducedImpulse k =
      apply_impulse(m, e.state, 1, wrench(m, e.state, Vec3(0.4, -0.2, -1.0), Vec3(0, 0, r)));
  REQUIRE(k.kept);
  const Vec6 V = body1_world_twist(m, k.state);
  CHECK(V.tail<3>().x() == Approx(1.0 + 0.4 / mass).epsilon(1e-12));
  CHECK(V.tail<3>().y() == Approx(-0.2 / mass).epsilon(1e-12));
  CHECK(std::abs(V.tail<3>().z()) < 1e-12);
  CHECK(V.head<3>().y() == Approx(1.0 / r).epsilon(1e-12));
}

TEST_CASE("an impulse on a stuck sphere: held by static rolling friction while d <= mu_r",
          "[engine][reduced]") {
  ReducedContactModel m = sphere_on_plane(0.5);
  m.torques.mu_rolling = 0.002;
  m.torques.mu_spinning = 0.001;
  const ReducedEntry e = enter_reduced_mode(m, resting(), Vec6::Zero(), Pose{}, Vec6::Zero());
  ReducedContactState s = e.state;
  (void)run(m, s, 0.05, 0.05, ReducedStepSettings{});
  REQUIRE(s.mode == FrictionMode::stuck);
  const double J = 2.0;
  // down at d = 1 mm from the vertical through the centre, on the top: held
  const ReducedImpulse held =
      apply_impulse(m, s, 1, wrench(m, s, Vec3(0, 0, -J), Vec3(0.001, 0, 2 * r)));
  REQUIRE(held.kept);
  CHECK(held.state.mode == FrictionMode::stuck);
  CHECK(body1_world_twist(m, held.state).norm() == 0.0);
  CHECK(held.contact_impulse_1c.head<2>().norm() == Approx(0.001 * J).epsilon(1e-9));
  // at d = 5 mm: beyond mu_r = 2 mm, it rolls with omega = d J / (7/5 m r^2)
  const double d = 0.005;
  const ReducedImpulse rolls =
      apply_impulse(m, s, 1, wrench(m, s, Vec3(0, 0, -J), Vec3(d, 0, 2 * r)));
  REQUIRE(rolls.kept);
  CHECK(rolls.state.mode == FrictionMode::no_slip);
  const double w = d * J / (1.4 * mass * r * r);
  const Vec6 V = body1_world_twist(m, rolls.state);
  CHECK(V.head<3>().y() == Approx(w).epsilon(1e-9));
  CHECK(V.tail<3>().x() == Approx(w * r).epsilon(1e-9));
}

TEST_CASE("World::apply_impulse: free bodies, reduced pairs kept or left, bad input",
          "[engine][hybrid]") {
  WorldSettings ws{.time_step = 0.01};
  ws.hybrid = true;
  ws.hybrid_entry_steps = 0;
  World w(ws);
  w.add_body(
      {.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0), .friction = 0.5});
  const int ball = w.add_body({.name = "ball",
                               .mass = mass,
                               .shape = make_sphere(r),
                               .p_WS = Vec3(0.0, 0.0, r),
                               .v_WB = Vec3(1.0, 0.0, 0.0),
                               .w_WB = Vec3(0.0, 1.0 / r, 0.0),
                               .friction = 0.5});
  const int box = w.add_body({.name = "box",
                              .mass = 3.0,
                              .shape = make_box(Vec3(0.1, 0.2, 0.3)),
                              .p_WS = Vec3(5.0, 0.0, 3.0)});
  (void)w.step();
  REQUIRE(w.in_reduced_mode(ball));
  // within the cone: kept, rolling faster by 5 J_x / 7m
  const double v_before = w.twist(ball).v().x();
  const Vec3 centre = w.pose(ball).p_WB;
  w.apply_impulse(ball, Vec3(1.0, 0.0, -1.0), centre);
  CHECK(w.in_reduced_mode(ball));
  CHECK(w.twist(ball).v().x() == Approx(v_before + 5.0 / (7.0 * mass)).epsilon(1e-12));
  CHECK(w.twist(ball).w().y() == Approx((v_before + 5.0 / (7.0 * mass)) / r).epsilon(1e-12));
  CHECK(w.step().switches.empty());
  CHECK(w.in_reduced_mode(ball));
  // upward: the pair leaves, and the impulse acts in full coordinates; the exit is reported
  // with the next step
  const Vec6 t0 = w.twist(ball);
  w.apply_impulse(ball, Vec3(0.0, 0.0, 0.5), w.pose(ball).p_WB);
  CHECK_FALSE(w.in_reduced_mode(ball));
  CHECK(w.twist(ball).v().z() == Approx(t0[5] + 0.5 / mass).epsilon(1e-12));
  CHECK((w.twist(ball).head<3>() - t0.head<3>()).norm() == 0.0);
  const std::vector<SwitchEvent> sw = w.step().switches;
  REQUIRE(!sw.empty());
  CHECK_FALSE(sw[0].entered);
  CHECK_THAT(sw[0].reason, Catch::Contains("impulse: the impulse pulls the contact open"));
  // a free body: dv = J / m, dw = I_W^-1 (p - x) x J (the box is axis-aligned: I diagonal)
  const Vec3 J(0.3, -0.6, 0.9), p = w.pose(box).p_WB + Vec3(0.1, 0.05, -0.2);
  const Vec6 box_before = w.twist(box);
  w.apply_impulse(box, J, p);
  const Vec3 L = Vec3(0.1, 0.05, -0.2).cross(J);
  const Vec3 I =
      3.0 / 3.0 * Vec3(0.2 * 0.2 + 0.3 * 0.3, 0.1 * 0.1 + 0.3 * 0.3, 0.1 * 0.1 + 0.2 * 0.2);
  CHECK((w.twist(box).v() - box_before.tail<3>() - J / 3.0).norm() < 1e-15);
  CHECK((w.twist(box).w() - box_before.head<3>() - L.cwiseQuotient(I)).norm() < 1e-12);
  // bad input names the body
  CHECK_THROWS_WITH(w.apply_impulse(0, J, p),
                    Catch::Contains("\"ground\": apply_impulse: a fixed body"));
  CHECK_THROWS_WITH(w.apply_impulse(box, Vec3(std::nan(""), 0, 0), p),
                    Catch::Contains("finite impulse and point"));
  CHECK_THROWS_AS(w.apply_impulse(7, J, p), Error);
}
