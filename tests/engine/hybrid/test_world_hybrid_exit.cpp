// The World's hybrid switch leaves reduced coordinates at the separation instant (docs/hybrid.md
// "The World switch", exits), not at the start of the step that contains it. Ground truth: a
// frictionless ball sliding off the top of a fixed sphere moves like a particle on a circle of
// radius ρ = R + r, whose separation angle and time follow from energy and the radial equation
// (the time by quadrature, computed here), and then flies on a parabola.
#include <catch2/catch.hpp>
#include <cmath>

#include "pivot/engine/world.hpp"

using namespace pivot;

namespace {

constexpr double g = 9.81;

// θ̇² = a + b (1 − cos θ), a = v0²/ρ², b = 2g/ρ (energy of a particle on a circle, from the top
// at speed v0); the normal force m (g cos θ − ρ θ̇²) vanishes at cos θ* = (v0²/(g ρ) + 2)/3
struct SlideOff {
  double rho, v0;
  [[nodiscard]] double a() const { return v0 * v0 / (rho * rho); }
  [[nodiscard]] double b() const { return 2.0 * g / rho; }
  [[nodiscard]] double theta_dot(double th) const {
    return std::sqrt(a() + b() * (1.0 - std::cos(th)));
  }
  [[nodiscard]] double theta_sep() const { return std::acos((v0 * v0 / (g * rho) + 2.0) / 3.0); }
  // t(θ*) = ∫_0^θ* dθ / θ̇(θ), composite Simpson on n intervals (n even; the integrand is
  // smooth and bounded by 1/√a)
  [[nodiscard]] double time_to_separation(int n) const {
    const double th = theta_sep(), d = th / n;
    double s = 1.0 / theta_dot(0.0) + 1.0 / theta_dot(th);
    for (int k = 1; k < n; ++k) s += (k % 2 ? 4.0 : 2.0) / theta_dot(k * d);
    return s * d / 3.0;
  }
};

}  // namespace

TEST_CASE("hybrid: a ball sliding off a sphere leaves reduced mode at the separation instant",
          "[engine][hybrid]") {
  const double R = 0.5, r = 0.05, v0 = 0.5, h = 0.01;
  const SlideOff ref{R + r, v0};
  const double t_star = ref.time_to_separation(200000);
  // the quadrature has converged far below the test's tolerance
  REQUIRE(std::abs(ref.time_to_separation(100000) - t_star) < 1e-13);

  WorldSettings s{.time_step = h};
  s.hybrid = true;
  s.hybrid_entry_steps = 0;
  s.hybrid_integrator.tolerance = 1e-11;
  World w(s);
  w.add_body({.name = "dome", .fixed = true, .shape = make_sphere(R), .friction = 0.0});
  const int b = w.add_body({.name = "ball",
                            .mass = 1.0,
                            .shape = make_sphere(r),
                            .p_WS = Vec3(0.0, 0.0, R + r),
                            .v_WB = Vec3(v0, 0.0, 0.0),
                            .friction = 0.0});
  const double E0 = w.kinetic_energy() + w.potential_energy();
  const StepReport& first = w.step();
  REQUIRE(first.switches.size() == 1);
  REQUIRE(first.switches[0].entered);

  // step until the pair leaves
  double t_exit = -1.0, t_step_end = 0.0;
  std::string reason;
  while (w.time() < 2.0 && t_exit < 0.0) {
    for (const SwitchEvent& e : w.step().switches)
      if (!e.entered) {
        t_exit = e.time;
        reason = e.reason;
      }
    t_step_end = w.time();
  }
  INFO("exit: " << reason);
  REQUIRE(t_exit > 0.0);
  CHECK(reason.rfind("separated", 0) == 0);
  // the event at the root, not at the start of its step (up to h = 10 ms earlier before)
  CHECK(std::abs(t_exit - t_star) < 1e-9);
  CHECK(t_step_end - h < t_exit);
  CHECK_FALSE(w.in_reduced_mode(b));

  // from the separation point the ball flew free to the end of the step: a parabola
  const double th = ref.theta_sep(), rho = R + r, w_th = ref.theta_dot(th);
  const Vec3 p_s(rho * std::sin(th), 0.0, rho * std::cos(th));
  const Vec3 v_s = rho * w_th * Vec3(std::cos(th), 0.0, -std::sin(th));
  const double tau = t_step_end - t_star;
  const Vec3 gv(0.0, 0.0, -g);
  CHECK((w.pose(b).p_WB - (p_s + tau * v_s + 0.5 * tau * tau * gv)).norm() < 1e-8);
  CHECK((w.twist(b).v() - (v_s + tau * gv)).norm() < 1e-8);
  CHECK(w.twist(b).w().norm() < 1e-12);  // frictionless: it never turns
  // no jump at the exit: the energy of the whole slide and flight is the start's
  CHECK(std::abs(w.kinetic_energy() + w.potential_energy() - E0) < 1e-9 * E0);

  // the LCP takes the next steps: the ball does not re-enter and leaves the dome. (The LCP's
  // speculative contact, linearized at the tangent plane, still pushes it in the first step
  // after: by less than the one-step gravity scale h g, docs/hybrid.md "The World switch".)
  const Vec3 v_before = w.twist(b).v();
  const StepReport& next = w.step();
  CHECK(next.switches.empty());
  const double push = (w.twist(b).v() - (v_before + h * gv)).norm();
  UNSCOPED_INFO("the LCP's first step after the exit changes v by " << push << " m/s");
  CHECK(push < h * g);
  for (int k = 0; k < 20; ++k) CHECK(w.step().reduced_pairs == 0);
  CHECK(w.pose(b).p_WB.norm() > rho + 0.01);
  CHECK(w.totals().reduced_entries == 1);
  CHECK(w.totals().reduced_exits == 1);
}

TEST_CASE("hybrid: a free pair separates at the instant of its closed form and both fly free",
          "[engine][hybrid]") {
  // Zero gravity; a small sphere A (1 kg) on top of a free big sphere B (3 kg), pressed together
  // by equal and opposite constant forces ∓F ẑ at their centres, A sliding over B at v0
  // (frictionless, no torques). The relative position r = x_A − x_B obeys
  //   r̈ = (−F ẑ + N n) / μ,  μ = m_A m_B / (m_A + m_B)
  // (Newton on each body, the contact force along n through both centres): the particle on a
  // fixed circle of radius ρ under gravity g = F/μ, whose separation time is SlideOff's.
  const double R = 0.5, r = 0.05, v0 = 0.5, h = 0.01, mA = 1.0, mB = 3.0;
  const double mu = mA * mB / (mA + mB), F = mu * g;
  const SlideOff ref{R + r, v0};
  const double t_star = ref.time_to_separation(200000);

  WorldSettings s{.time_step = h};
  s.gravity = Vec3::Zero();
  s.hybrid = true;
  s.hybrid_entry_steps = 0;
  s.hybrid_integrator.tolerance = 1e-11;
  World w(s);
  const int a = w.add_body({.name = "small",
                            .mass = mA,
                            .shape = make_sphere(r),
                            .p_WS = Vec3(0.0, 0.0, R + r),
                            .v_WB = Vec3(v0, 0.0, 0.0),
                            .friction = 0.0});
  const int b = w.add_body({.name = "big", .mass = mB, .shape = make_sphere(R), .friction = 0.0});
  w.add_force({.body = a, .force = Vec3(0.0, 0.0, -F)});
  w.add_force({.body = b, .force = Vec3(0.0, 0.0, F)});
  const Vec3 P0 = mA * w.twist(a).v() + mB * w.twist(b).v();
  const StepReport& first = w.step();
  REQUIRE(first.switches.size() == 1);
  REQUIRE(first.switches[0].entered);
  REQUIRE(w.in_reduced_mode(b));

  // P before the exit step (reduced: the integrator's error, tolerance 1e-11) and after it
  double t_exit = -1.0, t_step_end = 0.0;
  Vec3 P_last = P0;
  while (w.time() < 2.0 && t_exit < 0.0) {
    for (const SwitchEvent& e : w.step().switches)
      if (!e.entered) t_exit = e.time;
    t_step_end = w.time();
    if (t_exit < 0.0) P_last = mA * w.twist(a).v() + mB * w.twist(b).v();
  }
  REQUIRE(t_exit > 0.0);
  CHECK(std::abs(t_exit - t_star) < 1e-9);
  CHECK((P_last - P0).norm() < 1e-8);
  CHECK_FALSE(w.in_reduced_mode(a));
  CHECK_FALSE(w.in_reduced_mode(b));
  // the relative motion from the separation point on the parabola of g = F/μ; the total
  // momentum unchanged (the forces cancel)
  const double th = ref.theta_sep(), rho = R + r, w_th = ref.theta_dot(th);
  const Vec3 r_s(rho * std::sin(th), 0.0, rho * std::cos(th));
  const Vec3 u_s = rho * w_th * Vec3(std::cos(th), 0.0, -std::sin(th));
  const double tau = t_step_end - t_star;
  const Vec3 rel = w.pose(a).p_WB - w.pose(b).p_WB;
  CHECK((rel - (r_s + tau * u_s + 0.5 * tau * tau * Vec3(0.0, 0.0, -g))).norm() < 1e-8);
  // the exit step (reduced to t_s, then free flight under forces that cancel) keeps P
  const Vec3 P = mA * w.twist(a).v() + mB * w.twist(b).v();
  CHECK((P - P_last).norm() < 1e-10);
  CHECK(w.twist(a).w().norm() < 1e-12);
  CHECK(w.twist(b).w().norm() < 1e-12);
}

TEST_CASE("hybrid: the first LCP after an exit starts from the pair's contact impulse",
          "[engine][hybrid]") {
  // A sphere rolling down an incline (α = 0.3 rad, μ = 0.8: no slip) in reduced coordinates;
  // the flag is turned off, so the LCP takes the next step from the exact state. Its warm start
  // is the active set of the contact impulse f_c h (normal, and the friction direction up the
  // slope). Ground truth: the same step by a World that never was hybrid, from the same state
  // (a cold start): the same velocities; the warm start's candidate is verified at once.
  const double alpha = 0.3, h = 0.01, r = 0.1;
  const Vec3 n(std::sin(alpha), 0.0, std::cos(alpha));
  const auto make = [&](bool hybrid) {
    WorldSettings s{.time_step = h};
    s.hybrid = hybrid;
    s.hybrid_entry_steps = 0;
    return World(s);
  };
  const auto add = [&](World& w, const Pose& X, const Vec6& V) {
    w.add_body({.name = "incline", .fixed = true, .shape = make_plane(n, 0.0), .friction = 0.8});
    return w.add_body({.name = "ball",
                       .mass = 1.0,
                       .shape = make_sphere(r),
                       .p_WS = X.p_WB,
                       .q_WB = X.q_WB,
                       .v_WB = V.tail<3>(),
                       .w_WB = V.head<3>(),
                       .friction = 0.8});
  };
  World w = make(true);
  const int b = add(w, Pose{r * n, Quat::Identity()}, Vec6::Zero());
  for (int k = 0; k < 10; ++k) w.step();
  REQUIRE(w.in_reduced_mode(b));
  REQUIRE(w.totals().lcp_solves == 0);
  // rolling without slip: a = (5/7) g sin α down the slope, d = (cos α, 0, −sin α) (gravity's
  // part along the plane, 9.81 sin α d); no slip at the contact: v = r ω × n, so ω = n × v / r
  const Vec3 v_expected = 5.0 / 7.0 * 9.81 * std::sin(alpha) * 0.1 *
                          Vec3(std::cos(alpha), 0.0, -std::sin(alpha));
  CHECK((w.twist(b).v() - v_expected).norm() < 1e-9 * v_expected.norm());
  CHECK((w.twist(b).w() - n.cross(v_expected) / r).norm() < 1e-9 * v_expected.norm() / r);
  const Pose X = w.pose(b);
  const Vec6 V = w.twist(b);

  w.set_hybrid(false);
  const StepReport& warm = w.step();
  REQUIRE(warm.switches.size() == 1);
  CHECK(warm.switches[0].reason == "hybrid turned off");
  const Vec6 V_warm = w.twist(b);
  const int pivots_warm = warm.pivots;

  World cold_world = make(false);
  const int c = add(cold_world, X, V);
  const StepReport& cold = cold_world.step();
  const int pivots_cold = cold.pivots;
  UNSCOPED_INFO("pivots: cold " << pivots_cold << ", warm " << pivots_warm);
  CHECK(pivots_cold > 0);
  CHECK(pivots_warm == 0);
  CHECK((V_warm - cold_world.twist(c)).norm() < 1e-12);
}
