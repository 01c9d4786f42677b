// engine/hybrid/reduced_contact.hpp with body 2 free (the 11-DOF two-free-body form of Kry 2000
// §4.3 [DERIVED]): a very heavy floating slab against the fixed ground, and two free ellipsoids
// pressed together by equal and opposite forces without gravity against the conservation of
// momentum and energy.
#include <catch2/catch.hpp>

#include <cmath>

#include "reduced_test_support.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot;
using namespace pivot::test;

TEST_CASE("a very heavy floating slab behaves like the fixed ground", "[engine][reduced]") {
  // body 2: the plane z = 0 on a free body of mass 1e9 kg whose weight is held up by an
  // external force; the sphere's weight accelerates it by m g / M = 2e-8 m/s² only
  const double M = 1e9;
  for (double mu : {0.0, 0.5}) {
    INFO("mu = " << mu);
    ReducedContactModel ground, slab;
    ground.body1 = slab.body1 = sphere_body(0.1, 2.0);
    ground.body2 = ground_plane();
    slab.body2 = ground_plane();
    slab.body2.fixed = false;
    slab.body2.mass = M;
    slab.body2.inertia_B = M * Mat3::Identity();
    slab.body2.wrench_W << 0, 0, 0, 0, 0, M * 9.81;
    ground.friction.mu = slab.friction.mu = mu;
    Pose X;
    X.p_WB = Vec3(0.0, 0.0, 0.1);
    Vec6 V;
    V << -2.0, 5.0, 1.0, 0.8, 0.3, 0.0;  // rolls for μ > 0 after a short slide
    ReducedEntry eg = enter_reduced_mode(ground, X, V, Pose{}, Vec6::Zero());
    ReducedEntry es = enter_reduced_mode(slab, X, V, Pose{}, Vec6::Zero());
    ReducedAdvanceResult lg, ls;
    const auto tg = run(ground, eg.state, 2.0, 0.25, ReducedStepSettings{}, &lg);
    const auto ts = run(slab, es.state, 2.0, 0.25, ReducedStepSettings{}, &ls);
    REQUIRE(lg.status == ReducedStatus::ok);
    REQUIRE(ls.status == ReducedStatus::ok);
    CHECK(es.state.mode == eg.state.mode);
    for (std::size_t k = 0; k < tg.size(); ++k) {
      CHECK((tg[k].X_W1.p_WB - ts[k].X_W1.p_WB).norm() < 1e-7);
      CHECK((tg[k].V1_W - ts[k].V1_W).norm() < 1e-6);
      CHECK(tg[k].normal_force == Approx(ts[k].normal_force).epsilon(1e-6));
    }
    // the slab barely moved
    CHECK(es.state.X_W2.p_WB.norm() < 1e-7);
  }
}

TEST_CASE("an ellipsoid pressed onto a free slab conserves momentum and energy",
          "[engine][reduced]") {
  // no gravity; F on body 1 and −F on body 2 (constant, at the centres): the total linear
  // momentum is constant, and so is T − F·(x_1 − x_2) while the contact does no work (no
  // friction, or rolling without slip). Body 2 is a 3 kg slab (inertia 10 kg·m²) whose top face (a
  // plane) is 5 cm above its centre; it tilts and moves under the rocking ellipsoid. 0.4 s:
  // later the slab has tilted so far that the ellipsoid slides off.
  for (double mu : {0.0, 0.8}) {
    INFO("mu = " << mu);
    ReducedContactModel m;
    m.gravity.setZero();
    m.body1 = ellipsoid_body(Vec3(0.2, 0.15, 0.1), 1.0);
    m.body2 = ground_plane();
    m.body2.fixed = false;
    m.body2.mass = 3.0;
    m.body2.inertia_B = 10.0 * Mat3::Identity();
    m.body2.surface.X_BS.p_WB = Vec3(0.0, 0.0, 0.05);
    const Vec3 F(0.0, 0.0, -100.0);
    m.body1.wrench_W << 0, 0, 0, F;
    m.body2.wrench_W << 0, 0, 0, -F;
    m.friction.mu = mu;
    Pose X1, X2;
    X2.p_WB = Vec3(0.0, 0.0, -0.05);
    X1.p_WB = Vec3(0.0, 0.0, 0.11);
    X1.q_WB = Quat(Eigen::AngleAxisd(0.1, Vec3(1, 0.5, 0).normalized()));
    Vec6 V1, V2;
    V1 << 0.5, -0.3, 2.0, 0.3, 0.1, 0.0;
    V2 << -0.2, 0.4, -1.0, -0.1, 0.05, 0.0;
    ReducedEntry e = enter_reduced_mode(m, X1, V1, X2, V2, 0.0, Vec3(0.0, 0.0, 0.0));
    REQUIRE(e.search.converged);
    ReducedContactState& s = e.state;
    auto momentum = [&]() {
      return Vec3(m.body1.mass * body1_world_twist(m, s).tail<3>() +
                  m.body2.mass * body2_world_twist(s).tail<3>());
    };
    auto conserved_energy = [&]() {
      return reduced_energy(m, s) - F.dot(body1_pose(m, s).p_WB - s.X_W2.p_WB);
    };
    const Vec3 P0 = momentum();
    double E0 = conserved_energy();
    double min_fn = 1e300;
    int mode_changes = 0;
    for (int k = 0; k < 8; ++k) {
      const FrictionMode before = s.mode;
      const ReducedAdvanceResult r = advance(m, s, 0.05);
      REQUIRE(r.status == ReducedStatus::ok);
      for (const ReducedEvent& ev : r.events)
        if (ev.kind == ReducedEvent::Kind::mode_change) ++mode_changes;
      CHECK((momentum() - P0).norm() < 1e-7);
      // the energy is conserved while no friction works; re-based after a mode change (the
      // slip ends with an inelastic impulse)
      if (s.mode != before) E0 = conserved_energy();
      if (s.mode != FrictionMode::sliding) CHECK(conserved_energy() == Approx(E0).epsilon(1e-8));
      min_fn = std::min(min_fn, reduced_dynamics(m, s).normal_force);
    }
    CHECK(min_fn > 0.0);
    if (mu > 0.0) CHECK(mode_changes >= 1);
    // body 2 did move and turn
    CHECK((s.X_W2.p_WB - X2.p_WB).norm() > 1e-3);
  }
}
