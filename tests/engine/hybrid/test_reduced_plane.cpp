// engine/hybrid/reduced_contact_integrator.hpp on a plane, against conservation laws and closed
// forms: a frictionless ellipsoid rocking (energy and horizontal momentum constant, Kry 2000 §6.2's
// criterion), a sphere rolling without slip (constant velocity, v = ω × r, Kry & Pai's
// no-slip mode), a sphere sliding with Coulomb friction until it rolls (v → 5/7 v0), a torus
// rolling as a wheel on its periodic chart.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "pivot/collision/torus_surface.hpp"
#include "reduced_test_support.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot;
using namespace pivot::test;

namespace {

constexpr double g = 9.81;

int count(const std::vector<ReducedEvent>& ev, ReducedEvent::Kind kind) {
  int n = 0;
  for (const ReducedEvent& e : ev) n += e.kind == kind;
  return n;
}

}  // namespace

TEST_CASE("frictionless ellipsoid rocking on a plane for 10 s conserves energy and momentum",
          "[engine][reduced]") {
  // Without friction the plane pushes only vertically: the horizontal COM velocity is constant
  // and the energy is conserved (Kry 2000 §6.2 uses the first as its validation criterion).
  // The start tilts the ellipsoid far enough that the contact crosses the cube-sphere's chart
  // edges while it rocks and spins.
  ReducedContactModel m;
  m.body1 = ellipsoid_body(Vec3(0.3, 0.2, 0.12), 2.0);
  m.body2 = ground_plane();
  ReducedContactState s;
  s.coords.patch_1 = 5;  // the −z chart
  s.coords.q << 0.9, -0.5, 0.0, 0.0, 0.3;
  s.qdot << 1.5, 0.8, 0.5, -0.3, 2.0;
  std::vector<ReducedEvent> events;
  ReducedAdvanceResult last;
  const auto tr = run(m, s, 10.0, 0.5, ReducedStepSettings{}, &last, &events);
  REQUIRE(last.status == ReducedStatus::ok);
  REQUIRE(tr.back().t == Approx(10.0));
  const double E0 = tr.front().energy;
  const Vec2 vh0 = tr.front().V1_W.segment<2>(3);
  double max_dE = 0.0, max_dv = 0.0, min_fn = 1e300;
  for (const Sample& x : tr) {
    max_dE = std::max(max_dE, std::abs(x.energy - E0) / std::abs(E0));
    max_dv = std::max(max_dv, (x.V1_W.segment<2>(3) - vh0).norm());
    min_fn = std::min(min_fn, x.normal_force);
  }
  CHECK(max_dE < 1e-6);
  CHECK(max_dv < 1e-6);
  CHECK(min_fn > 0.0);
  // the contact did change charts on the ellipsoid, and moved 2.4 m along the plane
  CHECK(count(events, ReducedEvent::Kind::patch_change_1) >= 10);
  CHECK((tr.back().X_W1.p_WB.head<2>() - tr.front().X_W1.p_WB.head<2>() - 10.0 * vh0).norm() <
        1e-5);
}

TEST_CASE("sphere rolling without slip on a plane keeps its velocity, v = omega x r",
          "[engine][reduced]") {
  // v = (1, 0.5, 0) m/s, r = 0.1 m: ω = (−v_y/r, v_x/r, ω_z) for any spin ω_z; the motion is
  // uniform. 5 s is 11 m of rolling, some 35 chart changes on the cube-sphere.
  ReducedContactModel m;
  m.body1 = sphere_body(0.1, 2.0);
  m.body2 = ground_plane();
  m.friction.mu = 0.5;
  Pose X;
  X.p_WB = Vec3(0.0, 0.0, 0.1);
  X.q_WB = Quat(Eigen::AngleAxisd(0.4, Vec3(1, 2, 3).normalized()));
  Vec6 V;
  V << -5.0, 10.0, 3.0, 1.0, 0.5, 0.0;
  ReducedEntry e = enter_reduced_mode(m, X, V, Pose{}, Vec6::Zero());
  REQUIRE(e.state.mode == FrictionMode::no_slip);
  std::vector<ReducedEvent> events;
  ReducedAdvanceResult last;
  const auto tr = run(m, e.state, 5.0, 0.5, ReducedStepSettings{}, &last, &events);
  REQUIRE(last.status == ReducedStatus::ok);
  double max_dV = 0.0, max_dx = 0.0, max_slip = 0.0;
  for (const Sample& x : tr) {
    CHECK(x.mode == FrictionMode::no_slip);
    max_dV = std::max(max_dV, (x.V1_W - V).norm());
    max_dx = std::max(max_dx, (x.X_W1.p_WB - (X.p_WB + x.t * V.tail<3>())).norm());
    // the contact point (r below the centre) is at rest: v + ω × (−r e_z) = 0
    max_slip =
        std::max(max_slip, (x.V1_W.tail<3>() + x.V1_W.head<3>().cross(Vec3(0, 0, -0.1))).norm());
  }
  CHECK(max_dV < 1e-6);  // |V| = 11.6: 1e-7 relative after 37 chart changes at tolerance 1e-9
  CHECK(max_dx < 1e-7);
  CHECK(max_slip < 1e-8);
  CHECK(count(events, ReducedEvent::Kind::patch_change_1) >= 30);
  // the sphere's orientation is the integral of the constant ω
  const Quat q_expected = quat_exp(5.0 * V.head<3>()) * X.q_WB;
  CHECK(tr.back().X_W1.q_WB.angularDistance(q_expected) < 1e-6);
}

TEST_CASE("sphere sliding with Coulomb friction ends rolling at 5/7 v0", "[engine][reduced]") {
  // Closed form: while sliding v = v0 − μ g t and ω r = (5/2) μ g t (ω0 = 0); the slip
  // v − ω r vanishes at t* = 2 v0 / (7 μ g), after which v = 5/7 v0. In general the angular
  // momentum about the contact line is kept: v_f = 5/7 v0 + 2/7 r ω0 (backspin ω0 < 0).
  const double r = 0.1, v0 = 2.0, mu = 0.2;
  for (double spin : {0.0, -v0 / r}) {
    INFO("initial ω r = " << spin * r);
    ReducedContactModel m;
    m.body1 = sphere_body(r, 2.0);
    m.body2 = ground_plane();
    m.friction.mu = mu;
    Pose X;
    X.p_WB = Vec3(0.0, 0.0, r);
    Vec6 V;
    V << 0.0, spin, 0.0, v0, 0.0, 0.0;  // ω_y > 0 rolls towards +x
    ReducedEntry e = enter_reduced_mode(m, X, V, Pose{}, Vec6::Zero());
    REQUIRE(e.state.mode == FrictionMode::sliding);
    ReducedContactState& s = e.state;
    // while sliding the velocity falls linearly (RK4 integrates it exactly)
    REQUIRE(advance(m, s, 0.1).status == ReducedStatus::ok);
    CHECK(body1_world_twist(m, s)[3] == Approx(v0 - mu * g * 0.1).epsilon(1e-10));
    CHECK(s.mode == FrictionMode::sliding);
    const ReducedAdvanceResult res = advance(m, s, 1.4);
    REQUIRE(res.status == ReducedStatus::ok);
    const double v_final = 5.0 / 7.0 * v0 + 2.0 / 7.0 * r * spin;
    const Vec6 Vf = body1_world_twist(m, s);
    CHECK(s.mode == FrictionMode::no_slip);
    // integration error at the default tolerance (1e-9 per step): ~1e-8 relative
    CHECK(Vf[3] == Approx(v_final).epsilon(5e-8));
    CHECK(Vf[1] * r == Approx(v_final).epsilon(5e-8));
    CHECK(std::abs(Vf[4]) < 1e-12);
    // the switch to rolling happened when the slip fell below 5 mm/s, within one step
    // (the other events are the sphere's chart changes)
    REQUIRE(count(res.events, ReducedEvent::Kind::mode_change) == 1);
    double t_switch = -1.0;
    for (const ReducedEvent& ev : res.events)
      if (ev.kind == ReducedEvent::Kind::mode_change) t_switch = ev.time;
    const double slip0 = v0 - r * spin;
    const double t_threshold = (slip0 - m.friction.slip_threshold) / (3.5 * mu * g);
    CHECK(t_switch >= t_threshold - 1e-9);
    CHECK(t_switch <= t_threshold + ReducedStepSettings{}.dt_max);
  }
}

TEST_CASE("torus rolling upright like a wheel wraps its periodic chart", "[engine][reduced]") {
  // A torus (R = 0.3, r = 0.05) standing on its outer equator, axis along world y, rolling along
  // +x at 1 m/s: ω_y = v/(R + r). Uniform motion; the ring coordinate passes through 2π.
  const double R = 0.3, r = 0.05, m_t = 1.0, v = 1.0;
  ReducedContactModel m;
  m.body1.surface.surface = std::make_shared<TorusSurface>(R, r);
  m.body1.mass = m_t;
  // solid torus: I_axis = m (R² + 3/4 r²), I_diameter = m (R²/2 + 5/8 r²)
  m.body1.inertia_B = Vec3(m_t * (R * R / 2 + 5.0 / 8.0 * r * r),
                           m_t * (R * R / 2 + 5.0 / 8.0 * r * r), m_t * (R * R + 0.75 * r * r))
                          .asDiagonal();
  m.body2 = ground_plane();
  m.friction.mu = 1.0;
  Pose X;
  X.p_WB = Vec3(0.0, 0.0, R + r);
  X.q_WB = Quat(Eigen::AngleAxisd(-std::numbers::pi / 2, Vec3::UnitX()));  // body z → world y
  Vec6 V;
  V << 0.0, v / (R + r), 0.0, v, 0.0, 0.0;
  ReducedEntry e = enter_reduced_mode(m, X, V, Pose{}, Vec6::Zero(), 0.0, Vec3(0, 0, 0));
  REQUIRE(e.search.converged);
  CHECK(std::abs(e.search.gap) < 1e-12);
  REQUIRE(e.state.mode == FrictionMode::no_slip);
  const double u0 = e.state.coords.q[0];
  std::vector<ReducedEvent> events;
  ReducedAdvanceResult last;
  const auto tr = run(m, e.state, 3.0, 0.25, ReducedStepSettings{}, &last, &events);
  REQUIRE(last.status == ReducedStatus::ok);
  double max_dV = 0.0;
  for (const Sample& x : tr) max_dV = std::max(max_dV, (x.V1_W - V).norm());
  CHECK(max_dV < 1e-6);
  CHECK((tr.back().X_W1.p_WB - Vec3(3.0 * v, 0.0, R + r)).norm() < 1e-6);
  // the ring angle of the contact turned by 3 v/(R + r) = 8.57 rad > 2π and was wrapped into
  // [0, 2π)
  const double two_pi = 2 * std::numbers::pi;
  const double u_end = e.state.coords.q[0];
  CHECK(u_end >= 0.0);
  CHECK(u_end < two_pi);
  const double turn = 3.0 * v / (R + r);
  auto wrap = [&](double a) { return a - two_pi * std::floor(a / two_pi); };
  CHECK(std::min(std::abs(u_end - wrap(u0 + turn)), std::abs(u_end - wrap(u0 - turn))) < 1e-6);
  CHECK(events.empty());  // periodic: no patch changes
}

TEST_CASE("rolling without slip or spin: the spin is stopped, the rolling goes on",
          "[engine][reduced]") {
  // Kry & Pai 2002 §3.4.3 (not implemented there): with spin_threshold above the initial spin
  // the contact enters no slip no spin at the end of the first step; the projection stops the
  // spin about the normal (a sphere's spin is decoupled from its rolling, so v is unchanged)
  // and the sphere rolls on straight with ω_z = 0.
  ReducedContactModel m;
  m.body1 = sphere_body(0.1, 2.0);
  m.body2 = ground_plane();
  m.friction.mu = 0.5;
  m.friction.spin_threshold = 10.0;
  m.friction.mu_spin_static = 0.05;
  m.friction.min_slide_time = 0.0;
  Pose X;
  X.p_WB = Vec3(0.0, 0.0, 0.1);
  Vec6 V;
  V << -5.0, 10.0, 3.0, 1.0, 0.5, 0.0;
  ReducedEntry e = enter_reduced_mode(m, X, V, Pose{}, Vec6::Zero());
  REQUIRE(e.state.mode == FrictionMode::no_slip);
  const ReducedAdvanceResult r = advance(m, e.state, 1.0);
  REQUIRE(r.status == ReducedStatus::ok);
  CHECK(e.state.mode == FrictionMode::no_slip_no_spin);
  const Vec6 V1 = body1_world_twist(m, e.state);
  Vec6 expected = V;
  expected[2] = 0.0;
  CHECK((V1 - expected).norm() < 1e-8);
  CHECK((body1_pose(m, e.state).p_WB - Vec3(1.0, 0.5, 0.1)).norm() < 1e-8);
  const ReducedDynamics d = reduced_dynamics(m, e.state);
  CHECK(std::abs(d.spin) < 1e-12);
  CHECK(std::abs(d.normal_torque) < 1e-9);  // no torque needed to keep it from spinning
}
