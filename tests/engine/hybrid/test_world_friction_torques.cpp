// Rolling and spinning friction torques through the World (WorldSettings::hybrid_torques, scene
// keys hybrid_mu_rolling / hybrid_mu_spinning; Kry 2000 eqs. 4.27-4.30): the setting reaches
// the reduced pair, acts in reduced coordinates only, and bad values are errors.
//
// Ground truth, a uniform sphere (radius r, mass m, I = 2/5 m r²) on a horizontal plane, where
// the normal force is m g and the friction torques are couples of size μ f_n:
//  - rolling without slip along x: the contact point P moves parallel to the centre G, so
//    dL_P/dt = τ_P with L_P = (I + m r²) ω_y = 7/5 m r² ω_y. Gravity and the normal force pass
//    through G and P (no moment about P), the tangential friction acts at P; only the rolling
//    couple −μ_r m g is left: 7/5 m r² ω̇_y = −μ_r m g, so with v = ω_y r
//        v(t) = v0 − (5 μ_r g / 7 r) t,   x(t) = v0 t − ½ (5 μ_r g / 7 r) t²;
//  - spinning in place about the vertical: I ω̇_z = −μ_s m g, so
//        ω_z(t) = ω0 − (5 μ_s g / 2 r²) t,
//    and the centre stays where it is (no horizontal force: the spin torque is a couple).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "pivot/core/error.hpp"
#include "pivot/engine/world.hpp"
#include "support/hybrid_entry.hpp"

using namespace pivot;

namespace {

constexpr double g = 9.81, r = 0.1, mass = 2.0, h = 0.01;

// a ball resting on the plane z = 0 (μ = 0.5 on both: μ_pair = 0.5), entering reduced
// coordinates at t = 0 (hybrid_entry_steps = 0: the state given is on the contact manifold)
struct BallOnPlane {
  World world;
  int ball = -1;
};

BallOnPlane ball_on_plane(const FrictionTorques& torques, bool hybrid, const Vec3& v,
                          const Vec3& w) {
  WorldSettings s{.time_step = h};
  s.hybrid = hybrid;
  s.hybrid_entry_steps = 0;
  s.hybrid_torques = torques;
  BallOnPlane b{World(s)};
  b.world.add_body(
      {.name = "ground", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0), .friction = 0.5});
  b.ball = b.world.add_body({.name = "ball",
                             .mass = mass,
                             .shape = make_sphere(r),
                             .p_WS = Vec3(0.0, 0.0, r),
                             .v_WB = v,
                             .w_WB = w,
                             .friction = 0.5});
  return b;
}

}  // namespace

TEST_CASE("hybrid_torques: a rolling ball decelerates at 5 mu_r g / 7r in the World",
          "[engine][hybrid]") {
  FrictionTorques t;
  t.mu_rolling = 0.002;  // 2 mm: a = 5 · 0.002 · 9.81 / 0.7 = 0.1401 m/s²
  const double v0 = 1.0, a = 5.0 * t.mu_rolling * g / (7.0 * r);
  BallOnPlane b = ball_on_plane(t, true, Vec3(v0, 0.0, 0.0), Vec3(0.0, v0 / r, 0.0));
  test::check_entry_at_start(b.world, b.world.step(), 1e-12);
  double max_dv = 0.0, max_dx = 0.0, max_dw = 0.0;
  while (b.world.time() < 2.0 - 1e-9) {
    const StepReport& rep = b.world.step();
    REQUIRE(rep.reduced_pairs == 1);  // never leaves: v stays above 0.7 m/s, far from rest
    const double t_now = b.world.time();
    const double v = v0 - a * t_now;
    max_dv = std::max(max_dv, std::abs(b.world.twist(b.ball).v().x() - v));
    max_dw = std::max(max_dw, std::abs(b.world.twist(b.ball).w().y() - v / r));
    max_dx = std::max(
        max_dx, std::abs(b.world.pose(b.ball).p_WB.x() - (v0 * t_now - 0.5 * a * t_now * t_now)));
  }
  UNSCOPED_INFO("max |v - v(t)| = " << max_dv << " m/s, |w - v/r| = " << max_dw
                                    << " rad/s, |x - x(t)| = " << max_dx << " m");
  CHECK(b.world.twist(b.ball).v().x() == Approx(v0 - a * 2.0).epsilon(1e-9));  // 0.7198 m/s
  CHECK(max_dv < 1e-8);
  CHECK(max_dw < 1e-7);
  CHECK(max_dx < 1e-8);
  CHECK(std::abs(b.world.pose(b.ball).p_WB.z() - r) < 1e-12);  // on the manifold
}

TEST_CASE("hybrid_torques: a spin decays at 5 mu_s g / 2r^2 in the World", "[engine][hybrid]") {
  FrictionTorques t;
  t.mu_spinning = 0.001;  // 1 mm: α = 5 · 0.001 · 9.81 / (2 · 0.01) = 2.4525 rad/s²
  const double w0 = 5.0, alpha = 5.0 * t.mu_spinning * g / (2.0 * r * r);
  BallOnPlane b = ball_on_plane(t, true, Vec3::Zero(), Vec3(0.0, 0.0, w0));
  test::check_entry_at_start(b.world, b.world.step(), 1e-12);
  double max_dw = 0.0, max_drift = 0.0;
  while (b.world.time() < 1.5 - 1e-9) {  // ω_z = 5 − 2.4525 · 1.5 = 1.32 rad/s at the end
    REQUIRE(b.world.step().reduced_pairs == 1);
    max_dw =
        std::max(max_dw, std::abs(b.world.twist(b.ball).w().z() - (w0 - alpha * b.world.time())));
    max_drift = std::max(max_drift, b.world.pose(b.ball).p_WB.head<2>().norm());
  }
  UNSCOPED_INFO("max |w_z - w_z(t)| = " << max_dw << " rad/s, drift " << max_drift << " m");
  CHECK(b.world.twist(b.ball).w().z() == Approx(w0 - alpha * 1.5).epsilon(1e-8));
  CHECK(max_dw < 1e-8);
  CHECK(max_drift < 1e-10);
  // past the stop the torque fades below the regularization (1 mrad/s): it creeps to zero
  while (b.world.time() < 2.5 - 1e-9) b.world.step();
  CHECK(b.world.twist(b.ball).w().z() >= 0.0);
  CHECK(b.world.twist(b.ball).w().z() < 2e-3);
}

TEST_CASE("hybrid_torques act in reduced coordinates only", "[engine][hybrid]") {
  // the same rolling ball with the hybrid mode off: the LCP has no rolling friction, so it keeps
  // rolling at v0 (with the torque it would lose a t = 0.14 m/s in the second)
  FrictionTorques t;
  t.mu_rolling = 0.002;
  t.mu_spinning = 0.001;
  BallOnPlane b = ball_on_plane(t, false, Vec3(1.0, 0.0, 0.0), Vec3(0.0, 10.0, 0.0));
  for (int k = 0; k < 100; ++k) b.world.step();
  CHECK(b.world.totals().lcp_solves > 0);
  CHECK(std::abs(b.world.twist(b.ball).v().x() - 1.0) < 1e-3);
}

TEST_CASE("hybrid_torques: bad values are errors naming the field", "[engine][hybrid]") {
  auto make = [](auto edit) {
    WorldSettings s;
    edit(s.hybrid_torques);
    return World(s);
  };
  CHECK_THROWS_WITH(make([](FrictionTorques& t) { t.mu_rolling = -1e-3; }),
                    Catch::Contains("hybrid_torques.mu_rolling must be finite and >= 0"));
  CHECK_THROWS_WITH(make([](FrictionTorques& t) { t.mu_spinning = std::nan(""); }),
                    Catch::Contains("hybrid_torques.mu_spinning must be finite and >= 0"));
  CHECK_THROWS_WITH(make([](FrictionTorques& t) { t.mu_rolling = INFINITY; }),
                    Catch::Contains("hybrid_torques.mu_rolling"));
  CHECK_THROWS_WITH(make([](FrictionTorques& t) { t.regularization = 0.0; }),
                    Catch::Contains("hybrid_torques.regularization must be finite and > 0"));
  CHECK_THROWS_AS(make([](FrictionTorques& t) { t.mu_spinning = -1.0; }), Error);
  CHECK_NOTHROW(make([](FrictionTorques& t) {
    t.mu_rolling = 0.001;
    t.mu_spinning = 0.0005;
  }));
}

// Static rolling friction (FrictionTorques::stick, on by default): with both torques the ball
// rolls to a stop at v0 / a and stays there exactly; the World writes a zero twist and the same
// pose every step after it, and the pair stays reduced (no LCP steps of a resting ball)
TEST_CASE("hybrid_torques: a rolling ball stops exactly in the World (static rolling friction)",
          "[engine][hybrid]") {
  FrictionTorques t;
  t.mu_rolling = 0.002;
  t.mu_spinning = 0.001;
  const double v0 = 0.1, a = 5.0 * t.mu_rolling * g / (7.0 * r);  // stops at 0.714 s
  BallOnPlane b = ball_on_plane(t, true, Vec3(v0, 0.0, 0.0), Vec3(0.0, v0 / r, 0.0));
  (void)b.world.step();
  const double t_star = (v0 / r - t.regularization) / (a / r);  // |ω| = w_reg: 0.7131 s
  const double x_stop = v0 * t_star - 0.5 * a * t_star * t_star;
  double x_rest = std::nan("");
  while (b.world.time() < 1.5 - 1e-9) {
    const StepReport& rep = b.world.step();
    REQUIRE(rep.reduced_pairs == 1);
    if (b.world.time() > t_star + 2 * h) {
      CHECK(b.world.twist(b.ball).v().norm() == 0.0);
      CHECK(b.world.twist(b.ball).w().norm() == 0.0);
      if (std::isnan(x_rest)) x_rest = b.world.pose(b.ball).p_WB.x();
      CHECK(b.world.pose(b.ball).p_WB.x() == x_rest);
    }
  }
  CHECK(x_rest == Approx(x_stop).margin(1e-6));
  // with stick off it creeps: still moving, slower than r w_reg, at the same time
  t.stick = false;
  BallOnPlane c = ball_on_plane(t, true, Vec3(v0, 0.0, 0.0), Vec3(0.0, v0 / r, 0.0));
  while (c.world.time() < 1.5 - 1e-9) (void)c.world.step();
  CHECK(c.world.twist(c.ball).v().norm() > 0.0);
  CHECK(c.world.twist(c.ball).v().norm() < r * t.regularization);
}
