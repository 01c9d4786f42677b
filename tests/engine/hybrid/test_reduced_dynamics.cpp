// engine/hybrid/reduced_contact.hpp, engine/hybrid/contact_search.hpp: one evaluation of the
// reduced equations of motion against closed forms (a sphere resting and sliding on a plane), the
// independent Python re-implementation of Kry 2000 (outside this repository) (rattleback start
// values), the friction laws' wrench directions, finding contact coordinates from poses, and
// entering the reduced mode.
#include <catch2/catch.hpp>

#include <cmath>

#include "pivot/collision/torus_surface.hpp"
#include "pivot/core/error.hpp"
#include "reduced_test_support.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot;
using namespace pivot::test;

namespace {

constexpr double g = 9.81;

/// a sphere of radius r touching the ground at (x, y) with the contact at the bottom of its
/// −z chart: s = t = 0 on patch 5 (−z) of the cube-sphere is the point (0, 0, −r)
ReducedContactState sphere_on_ground(double x, double y) {
  ReducedContactState s;
  s.coords.patch_1 = 5;
  s.coords.q << 0.0, 0.0, x, y, 0.0;
  return s;
}

}  // namespace

TEST_CASE("reduced dynamics: a sphere at rest on a plane carries its weight", "[engine][reduced]") {
  ReducedContactModel m;
  m.body1 = sphere_body(0.1, 2.0);
  m.body2 = ground_plane();
  for (FrictionMode mode :
       {FrictionMode::frictionless, FrictionMode::no_slip, FrictionMode::no_slip_no_spin}) {
    INFO(to_string(mode));
    m.friction.mu = mode == FrictionMode::frictionless ? 0.0 : 0.5;
    ReducedContactState s = sphere_on_ground(0.3, -0.2);
    s.mode = mode;
    const ReducedDynamics d = reduced_dynamics(m, s);
    REQUIRE(d.ok);
    CHECK(d.normal_force == Approx(2.0 * g).epsilon(1e-12));
    CHECK(d.qddot.norm() < 1e-12);
    CHECK(d.tangential_force.norm() < 1e-12);
    // body 1 sits with its centre r above the contact
    CHECK((d.X_W1.p_WB - Vec3(0.3, -0.2, 0.1)).norm() < 1e-14);
    // the wrench on body 1 in world axes is +m g up, no torque
    CHECK((d.wrench_c_W1 - (Vec6() << 0, 0, 0, 0, 0, 2.0 * g).finished()).norm() < 1e-12);
  }
}

TEST_CASE("reduced dynamics: sliding friction opposes the slip with magnitude mu f_n",
          "[engine][reduced]") {
  // a sphere sliding along +x without spin: f_t = −μ m g x̂, v̇ = −μ g, ω̇ r = (5/2) μ g
  ReducedContactModel m;
  m.body1 = sphere_body(0.1, 2.0);
  m.body2 = ground_plane();
  m.friction.mu = 0.3;
  ReducedContactState s = sphere_on_ground(0.0, 0.0);
  s.mode = FrictionMode::sliding;
  // v = 1 m/s along +x, ω = 0: the contact slides on the plane (u̇ = 1) and stays at the
  // sphere's bottom (ṡ = ṫ = 0)
  s.qdot << 0.0, 0.0, 1.0, 0.0, 0.0;
  const ReducedDynamics d = reduced_dynamics(m, s);
  REQUIRE(d.ok);
  const Vec6 V = body1_world_twist(m, s);
  CHECK((V - (Vec6() << 0, 0, 0, 1, 0, 0).finished()).norm() < 1e-14);
  CHECK(d.normal_force == Approx(2.0 * g).epsilon(1e-12));
  CHECK(d.tangential_force.norm() == Approx(0.3 * d.normal_force).epsilon(1e-12));
  // the world friction force on the sphere points along −x
  CHECK(d.wrench_c_W1[3] == Approx(-0.3 * 2.0 * g).epsilon(1e-12));
  CHECK(std::abs(d.wrench_c_W1[4]) < 1e-12);
  // accelerations: v̇_x = −μ g and ω̇_y = −(5/2) μ g / r (ω_y < 0 is rolling towards +x)
  ReducedContactState s2 = s;
  const double h = 1e-6;
  s2.coords.q += h * d.qdot;
  s2.qdot += h * d.qddot;
  const Vec6 a = (body1_world_twist(m, s2) - V) / h;
  CHECK(a[3] == Approx(-0.3 * g).epsilon(1e-5));
  CHECK(a[1] == Approx(2.5 * 0.3 * g / 0.1).epsilon(1e-5));
  // frictionless: no tangential force
  m.friction.mu = 0.0;
  s.mode = FrictionMode::frictionless;
  const ReducedDynamics d0 = reduced_dynamics(m, s);
  CHECK(d0.tangential_force.norm() < 1e-12);
  CHECK(d0.wrench_c_1c.head<3>().norm() < 1e-12);
}

TEST_CASE("reduced dynamics: the contact wrench of each mode lies in its constraint space",
          "[engine][reduced]") {
  // a spinning, rolling, tilted ellipsoid: frictionless f_c ∥ normal; no slip: pure force at the
  // contact point (no torque in 1c); no spin: adds only a normal torque
  ReducedContactModel m;
  m.body1 = ellipsoid_body(Vec3(0.3, 0.2, 0.1), 1.5);
  m.body2 = ground_plane();
  m.friction.mu = 0.8;
  ReducedContactState s;
  s.coords.patch_1 = 5;
  s.coords.q << 0.3, -0.2, 0.1, 0.2, 0.4;
  s.qdot << 0.5, -0.3, 0.2, 0.7, 1.3;
  for (FrictionMode mode : {FrictionMode::frictionless, FrictionMode::no_slip,
                            FrictionMode::no_slip_no_spin, FrictionMode::sliding}) {
    INFO(to_string(mode));
    m.friction.mu = mode == FrictionMode::frictionless ? 0.0 : 0.8;
    s.mode = mode;
    const ReducedDynamics d = reduced_dynamics(m, s);
    REQUIRE(d.ok);
    const Vec6& w = d.wrench_c_1c;
    const double scale = w.norm();
    if (mode == FrictionMode::frictionless) {
      CHECK(w.head<5>().norm() < 1e-11 * scale);
    } else if (mode == FrictionMode::no_slip) {
      CHECK(w.head<3>().norm() < 1e-11 * scale);
      CHECK(std::abs(d.slip.norm()) < 1e-12);
    } else if (mode == FrictionMode::no_slip_no_spin) {
      CHECK(w.head<2>().norm() < 1e-11 * scale);
      CHECK(std::abs(d.spin) < 1e-12);
    } else {
      CHECK(w.head<3>().norm() < 1e-11 * scale);
      // Coulomb: |f_t| = μ f_n, against the slip
      CHECK(d.tangential_force.norm() == Approx(0.8 * std::abs(d.normal_force)).epsilon(1e-10));
      CHECK(d.tangential_force.dot(d.slip) < 0.0);
    }
    // q̈ reproduces the body acceleration that the Newton-Euler equations need:
    // M φ̇ − [φ]ᵀ M φ = f_ext + f_c, checked by a finite difference of the twist along the motion
    const double h = 1e-7;
    ReducedContactState sp = s, sm = s;
    sp.coords.q += h * d.qdot;
    sm.coords.q -= h * d.qdot;
    sp.qdot = d.qdot + h * d.qddot;
    sm.qdot = d.qdot - h * d.qddot;
    sp.mode = sm.mode = FrictionMode::frictionless;  // evaluate the twist only
    const ContactKinematics kp = contact_kinematics(m.body1.surface, m.body2.surface, sp.coords);
    const ContactKinematics km = contact_kinematics(m.body1.surface, m.body2.surface, sm.coords);
    const Vec6 phidot = (kp.H_1 * sp.qdot - km.H_1 * sm.qdot) / (2 * h);
    Mat6 M = Mat6::Zero();
    M.topLeftCorner<3, 3>() = m.body1.inertia_B;
    M.bottomRightCorner<3, 3>() = m.body1.mass * Mat3::Identity();
    const Vec6 phi = d.V1_B;
    const Vec3 g_B = d.X_W1.q_WB.conjugate() * (m.body1.mass * m.gravity);
    Vec6 f_ext;
    f_ext << 0, 0, 0, g_B;
    const Vec6 lhs = M * phidot - motion_cross(phi).transpose() * M * phi;
    CHECK((lhs - f_ext - d.wrench_c_B1).norm() < 1e-6 * std::max(1.0, lhs.norm()));
  }
}

TEST_CASE("reduced dynamics: rattleback start matches the independent Python check",
          "[engine][reduced]") {
  // expected values: the independent check's frictionless run, first line (t = 0, spin start, App.
  // B rattleback, g = 9.81): energy 10.032915895187644 J, world ω_z 1.0, COM (0.08671850309555791,
  // −0.019911896907329564, 0.1024325025683625), f_n 48.83142814299213 N
  ReducedContactModel m;
  m.body1 = rattleback_body();
  m.body2 = fixed_bezier({flat_patch(1.5)});
  ReducedContactState s = rattleback_spin_start();
  const ReducedDynamics d = reduced_dynamics(m, s);
  REQUIRE(d.ok);
  CHECK(reduced_energy(m, s) == Approx(10.032915895187644).epsilon(1e-12));
  CHECK(d.normal_force == Approx(48.83142814299213).epsilon(1e-9));
  CHECK(
      (d.X_W1.p_WB - Vec3(0.08671850309555791, -0.019911896907329564, 0.1024325025683625)).norm() <
      1e-12);
  CHECK(body1_world_twist(m, s)[2] == Approx(1.0).epsilon(1e-12));
  // tap start (the independent check's tap run, first line): E 8.28756 J, COM (0.6075, 0, 0.1690),
  // f_n 39.74 N
  ReducedContactState tap = rattleback_tap_start();
  const ReducedDynamics dt = reduced_dynamics(m, tap);
  CHECK(reduced_energy(m, tap) == Approx(8.28756).margin(5e-6));
  CHECK(dt.normal_force == Approx(39.74).margin(5e-3));
  CHECK((dt.X_W1.p_WB - Vec3(0.6075, 0.0, 0.1690)).norm() < 1e-4);
}

TEST_CASE("find_contact: ellipsoid over a tilted plane, torus over a Bezier patch",
          "[engine][reduced]") {
  // ellipsoid of semi-axes a, rotated and placed above the plane z = 0: the lowest point is
  // x_c − A² n / sqrt(nᵀ A² n) with A = R diag(a) (the support point in direction −n), and the
  // gap is its height
  const ContactSurface ell{make_ellipsoid_surface(Vec3(0.3, 0.2, 0.1)), Pose{}};
  const ContactSurface plane{make_plane_surface(Vec3::UnitZ(), 0.0), Pose{}};
  Pose X_W1;
  X_W1.q_WB = Quat(Eigen::AngleAxisd(0.7, Vec3(1, -2, 0.5).normalized()));
  X_W1.p_WB = Vec3(0.4, -0.3, 0.25);
  const ContactSearchResult r = find_contact(ell, X_W1, plane, Pose{});
  REQUIRE(r.converged);
  const Mat3 A = X_W1.q_WB.toRotationMatrix() * Vec3(0.3, 0.2, 0.1).asDiagonal();
  const Vec3 n = Vec3::UnitZ();
  const Vec3 support = X_W1.p_WB - A * A.transpose() * n / std::sqrt(n.dot(A * A.transpose() * n));
  CHECK((r.p_W1 - support).norm() < 1e-10);
  CHECK(r.gap == Approx(support.z()).epsilon(1e-10));
  CHECK(r.normal_angle < 1e-9);
  CHECK((r.n_W - n).norm() < 1e-12);
  // the coordinates reproduce the pose up to the gap along the normal
  const Pose X = contact_pose(ell, plane, r.coords);
  CHECK((X.p_WB + r.gap * n - X_W1.p_WB).norm() < 1e-10);
  CHECK(X.q_WB.angularDistance(X_W1.q_WB) < 1e-9);

  // overlapping by 1 cm, with a guess point: the same answer with a negative gap
  Pose X_in = X_W1;
  X_in.p_WB.z() -= support.z() + 0.01;
  const ContactSearchResult r2 = find_contact(ell, X_in, plane, Pose{}, Vec3(0.4, -0.3, 0.0));
  REQUIRE(r2.converged);
  CHECK(r2.gap == Approx(-0.01).epsilon(1e-9));

  // a torus lying tilted over a curved multi-patch Bezier floor: the solution satisfies the
  // contact conditions (normals opposed, c − d along them)
  BezierPatch bump = flat_patch(1.0);
  bump[5].z() = bump[6].z() = bump[9].z() = bump[10].z() = 0.3;
  const ContactSurface floor{std::make_shared<BezierSurface>(subdivide_bezier_patch(bump, 2, 2)),
                             Pose{}};
  const ContactSurface tor{std::make_shared<TorusSurface>(0.2, 0.05), Pose{}};
  Pose X_t;
  X_t.q_WB = Quat(Eigen::AngleAxisd(1.2, Vec3(1, 0.3, 0).normalized()));
  X_t.p_WB = Vec3(0.1, 0.05, 0.45);
  const ContactSearchResult rt = find_contact(tor, X_t, floor, Pose{}, Vec3(0.1, 0.05, 0.2));
  REQUIRE(rt.converged);
  CHECK(rt.normal_angle < 1e-9);
  CHECK(((rt.p_W1 - rt.p_W2) - rt.gap * rt.n_W).norm() < 1e-10);
}

TEST_CASE("enter_reduced_mode: snap, dropped normal velocity, mode choice", "[engine][reduced]") {
  ReducedContactModel m;
  m.body1 = sphere_body(0.1, 2.0);
  m.body2 = ground_plane();
  m.friction.mu = 0.4;
  Pose X_W1;
  X_W1.p_WB = Vec3(1.0, 2.0, 0.1 + 1e-4);  // 0.1 mm above the ground
  X_W1.q_WB = Quat(Eigen::AngleAxisd(0.3, Vec3(1, 1, 0).normalized()));
  // rolling along +y without slip (v = −ω × r n ... ω_x = −v_y/r), plus a small downward speed
  Vec6 V1;
  V1 << -2.0, 0.0, 0.0, 0.0, 0.2, -0.05;
  const ReducedEntry e = enter_reduced_mode(m, X_W1, V1, Pose{}, Vec6::Zero(), 3.0);
  REQUIRE(e.search.converged);
  CHECK(e.search.gap == Approx(1e-4).epsilon(1e-9));
  CHECK(e.state.mode == FrictionMode::no_slip);
  CHECK(e.state.time == 3.0);
  CHECK((e.X_W1.p_WB - Vec3(1.0, 2.0, 0.1)).norm() < 1e-12);
  CHECK(e.separation_rate == Approx(-0.05).epsilon(1e-12));
  // the twist after entry is the given one without its normal part
  const Vec6 V = body1_world_twist(m, e.state);
  Vec6 expected = V1;
  expected[5] = 0.0;
  CHECK((V - expected).norm() < 1e-12);
  // energy lost: the dropped normal velocity and the 0.1 mm of height
  CHECK(e.energy_change == Approx(-0.5 * 2.0 * 0.05 * 0.05 - 2.0 * 9.81 * 1e-4).epsilon(1e-9));
  // with slip above the threshold it enters sliding
  V1[4] = 0.5;
  CHECK(enter_reduced_mode(m, X_W1, V1, Pose{}, Vec6::Zero()).state.mode == FrictionMode::sliding);
  m.friction.mu = 0.0;
  CHECK(enter_reduced_mode(m, X_W1, V1, Pose{}, Vec6::Zero()).state.mode ==
        FrictionMode::frictionless);
}

TEST_CASE("reduced contact model validation names the problem", "[engine][reduced]") {
  ReducedContactModel m;
  m.body1 = sphere_body(0.1, 2.0);
  m.body2 = ground_plane();
  CHECK_NOTHROW(validate(m));
  auto bad = m;
  bad.body1.mass = -1.0;
  CHECK_THROWS_WITH(validate(bad), Catch::Contains("body 1") && Catch::Contains("mass"));
  bad = m;
  bad.body1.fixed = true;
  CHECK_THROWS_AS(validate(bad), Error);
  bad = m;
  bad.body2.surface.surface.reset();
  CHECK_THROWS_WITH(validate(bad), Catch::Contains("body 2 has no surface"));
  bad = m;
  bad.friction.mu = -0.1;
  CHECK_THROWS_AS(validate(bad), Error);
  bad = m;
  bad.body1.inertia_B(0, 1) = 5.0;
  CHECK_THROWS_WITH(validate(bad), Catch::Contains("inertia"));
}
