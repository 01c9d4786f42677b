// Static rolling friction in reduced coordinates: the mode `stuck` (FrictionTorques::stick,
// engine/hybrid/hybrid_settings.hpp). Ground truth: a sphere of radius r on a plane, where the
// torques about the contact point give closed forms.
//  - Rolling without slip, the rolling torque μ_r f_n decelerates it at 5 μ_r g / (7 r); the
//    regularized torque fades below w_reg, and the sphere is stuck from the first accepted step
//    after |ω| < w_reg, at rest exactly.
//  - On a slope θ, a sphere at rest needs the friction force m g sin θ and, about its centre, the
//    rolling torque m g r sin θ, against the limit μ_r m g cos θ: it stays when
//    tan θ ≤ μ_r / r (the rolling-resistance angle) and rolls down at
//    a = 5/7 g (sin θ − (μ_r / r) cos θ) otherwise.
//  - A horizontal force F at the centre of a resting sphere needs the rolling torque F r: held
//    while F r ≤ μ_r m g, then it rolls at (F − μ_r m g / r) / (7/5 m).
#include <catch2/catch.hpp>

#include <cmath>

#include "reduced_test_support.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot;
using namespace pivot::test;

namespace {

constexpr double g = 9.81, r = 0.1, mass = 2.0, mu_r = 0.002, mu_s = 0.001;

ReducedContactModel sphere_on_plane(double tan_theta = 0.0) {
  ReducedContactModel m = sphere_on_ground(r, mass, 0.5);
  m.torques.mu_rolling = mu_r;
  m.torques.mu_spinning = mu_s;
  const double theta = std::atan(tan_theta);  // the slope, as gravity tilted about y
  m.gravity = g * Vec3(std::sin(theta), 0.0, -std::cos(theta));
  return m;
}

Pose resting() {
  return resting_on_ground(r);
}

// rolling along x without slip at v (ω = v / r about y)
Vec6 rolling(double v) {
  return rolling_along_x(v, r);
}

int count_modes(const std::vector<ReducedEvent>& events, FrictionMode to) {
  int n = 0;
  for (const ReducedEvent& e : events)
    if (e.kind == ReducedEvent::Kind::mode_change && e.to == static_cast<int>(to)) ++n;
  return n;
}

}  // namespace

TEST_CASE("static rolling friction: a sphere rolling to a stop is at rest exactly from then on",
          "[engine][reduced]") {
  const ReducedContactModel m = sphere_on_plane();
  const double v0 = 0.1, a = 5.0 * mu_r * g / (7.0 * r);  // 0.1401 m/s²
  ReducedEntry e = enter_reduced_mode(m, resting(), rolling(v0), Pose{}, Vec6::Zero());
  REQUIRE(e.state.mode == FrictionMode::no_slip);
  std::vector<ReducedEvent> events;
  ReducedAdvanceResult last;
  const ReducedStepSettings set;  // dt_max 10 ms
  const auto tr = run(m, e.state, 1.5, 0.05, set, &last, &events);
  REQUIRE(last.status == ReducedStatus::ok);
  // |ω| = w_reg at t* = (v0 / r − w_reg) / (a / r); stuck at the end of the first accepted
  // step after it
  const double t_star = (v0 / r - m.torques.regularization) / (a / r);  // 0.7131 s
  REQUIRE(count_modes(events, FrictionMode::stuck) == 1);
  double t_stuck = -1.0;
  for (const ReducedEvent& ev : events)
    if (ev.to == static_cast<int>(FrictionMode::stuck)) t_stuck = ev.time;
  CHECK(t_stuck >= t_star);
  CHECK(t_stuck <= t_star + set.dt_max);
  const double x_stop = v0 * t_star - 0.5 * a * t_star * t_star;  // where |ω| = w_reg
  for (const Sample& x : tr) {
    if (x.t < t_star) {
      CHECK(x.mode == FrictionMode::no_slip);
      CHECK(x.V1_W.tail<3>().x() == Approx(v0 - a * x.t).margin(1e-9));
    } else if (x.t > t_stuck) {
      CHECK(x.mode == FrictionMode::stuck);
      CHECK(x.V1_W.norm() == 0.0);  // at rest exactly, not creeping
      // it moves at most r w_reg · dt_max = 1e-6 m after |ω| = w_reg
      CHECK(x.X_W1.p_WB.x() == Approx(x_stop).margin(1e-6));
      CHECK(x.X_W1.p_WB.x() == tr.back().X_W1.p_WB.x());
      CHECK(x.normal_force == Approx(mass * g).epsilon(1e-12));
    }
  }
  // at rest the integrator does no work: one accepted step per call
  ReducedContactState s = e.state;
  const ReducedAdvanceResult rest = advance(m, s, 0.5, set);
  CHECK(rest.status == ReducedStatus::ok);
  CHECK(rest.steps == 1);
  CHECK(s.time == Approx(2.0));
}

TEST_CASE("static rolling friction off: the sphere creeps and is never stuck",
          "[engine][reduced]") {
  ReducedContactModel m = sphere_on_plane();
  m.torques.stick = false;
  ReducedEntry e = enter_reduced_mode(m, resting(), rolling(0.1), Pose{}, Vec6::Zero());
  std::vector<ReducedEvent> events;
  const auto tr = run(m, e.state, 1.0, 0.05, ReducedStepSettings{}, nullptr, &events);
  CHECK(count_modes(events, FrictionMode::stuck) == 0);
  CHECK(tr.back().mode == FrictionMode::no_slip);
  CHECK(tr.back().V1_W.norm() > 0.0);
  CHECK(tr.back().V1_W.norm() < 1e-3);
  // and without a spin limit (μ_s = μ_spin_static = 0) stuck is not entered either
  m.torques.stick = true;
  m.torques.mu_spinning = 0.0;
  e = enter_reduced_mode(m, resting(), rolling(0.1), Pose{}, Vec6::Zero());
  events.clear();
  (void)run(m, e.state, 1.0, 0.05, ReducedStepSettings{}, nullptr, &events);
  CHECK(count_modes(events, FrictionMode::stuck) == 0);
}

TEST_CASE("static rolling friction holds a sphere on a slope below the rolling-resistance angle",
          "[engine][reduced]") {
  const double tan_theta = 0.015;  // < μ_r / r = 0.02
  const ReducedContactModel m = sphere_on_plane(tan_theta);
  const double theta = std::atan(tan_theta);
  ReducedEntry e = enter_reduced_mode(m, resting(), Vec6::Zero(), Pose{}, Vec6::Zero());
  std::vector<ReducedEvent> events;
  ReducedAdvanceResult last;
  const auto tr = run(m, e.state, 1.0, 0.1, ReducedStepSettings{}, &last, &events);
  REQUIRE(last.status == ReducedStatus::ok);
  REQUIRE(tr.back().mode == FrictionMode::stuck);
  CHECK(tr.back().V1_W.norm() == 0.0);
  // the reaction that holds it, against its closed form
  const ReducedDynamics d = reduced_dynamics(m, e.state);
  REQUIRE(d.ok);
  CHECK(d.normal_force == Approx(mass * g * std::cos(theta)).epsilon(1e-12));
  CHECK(d.tangential_force.norm() == Approx(mass * g * std::sin(theta)).epsilon(1e-12));
  CHECK(d.rolling_torque.norm() == Approx(mass * g * r * std::sin(theta)).epsilon(1e-12));
  CHECK(std::abs(d.normal_torque) < 1e-15);
  CHECK(d.qddot.norm() == 0.0);
}

TEST_CASE("above the rolling-resistance angle a sphere rolls: up, turns without sticking, down",
          "[engine][reduced]") {
  const double tan_theta = 0.03;  // > μ_r / r = 0.02
  const ReducedContactModel m = sphere_on_plane(tan_theta);
  const double theta = std::atan(tan_theta), s = std::sin(theta), c = std::cos(theta);
  const double a_up = 5.0 / 7.0 * g * (s + mu_r / r * c);    // decelerating uphill
  const double a_down = 5.0 / 7.0 * g * (s - mu_r / r * c);  // rolling back down
  const double v0 = -0.2;                                    // uphill (gravity pulls +x)
  ReducedEntry e = enter_reduced_mode(m, resting(), rolling(v0), Pose{}, Vec6::Zero());
  REQUIRE(e.state.mode == FrictionMode::no_slip);
  std::vector<ReducedEvent> events;
  ReducedAdvanceResult last;
  const auto tr = run(m, e.state, 1.5, 0.05, ReducedStepSettings{}, &last, &events);
  REQUIRE(last.status == ReducedStatus::ok);
  // at the turning point |ω| < w_reg, but the contact cannot hold it: no mode change at all
  CHECK(events.empty());
  const double t_turn = -v0 / a_up;  // 0.571 s
  for (const Sample& x : tr) {
    CHECK(x.mode == FrictionMode::no_slip);
    if (x.t < t_turn - 0.01) CHECK(x.V1_W.tail<3>().x() == Approx(v0 + a_up * x.t).margin(1e-9));
    // after the turn, with the regularization's few-ms transition (|v| < r w_reg = 1e-4 m/s)
    if (x.t > t_turn + 0.1)
      CHECK(x.V1_W.tail<3>().x() == Approx(a_down * (x.t - t_turn)).margin(2e-4));
  }
}

TEST_CASE("a force at the centre unsticks a resting sphere when F r exceeds mu_r m g",
          "[engine][reduced]") {
  ReducedContactModel m = sphere_on_plane();
  ReducedEntry e = enter_reduced_mode(m, resting(), Vec6::Zero(), Pose{}, Vec6::Zero());
  ReducedContactState s = e.state;
  std::vector<ReducedEvent> events;
  (void)run(m, s, 0.1, 0.05, ReducedStepSettings{}, nullptr, &events);
  REQUIRE(s.mode == FrictionMode::stuck);
  const double F_hold = mu_r * mass * g / r;  // 0.392 N
  // below the limit: held, with the reaction of the closed form
  m.body1.wrench_W << 0.0, 0.0, 0.0, 0.5 * F_hold, 0.0, 0.0;
  ReducedAdvanceResult held = advance(m, s, 0.2, ReducedStepSettings{});
  REQUIRE(held.status == ReducedStatus::ok);
  CHECK(s.mode == FrictionMode::stuck);
  CHECK(body1_world_twist(m, s).norm() == 0.0);
  const ReducedDynamics d = reduced_dynamics(m, s);
  CHECK(d.tangential_force.norm() == Approx(0.5 * F_hold).epsilon(1e-12));
  CHECK(d.rolling_torque.norm() == Approx(0.5 * F_hold * r).epsilon(1e-12));
  // above it: leaves at the start of the call and rolls at (F − μ_r m g / r) / (7/5 m)
  const double F = 2.0 * F_hold, t0 = s.time;
  m.body1.wrench_W << 0.0, 0.0, 0.0, F, 0.0, 0.0;
  events.clear();
  const auto tr = run(m, s, t0 + 1.0, 0.25, ReducedStepSettings{}, nullptr, &events);
  REQUIRE(!events.empty());
  CHECK(events.front().kind == ReducedEvent::Kind::mode_change);
  CHECK(events.front().from == static_cast<int>(FrictionMode::stuck));
  CHECK(events.front().to == static_cast<int>(FrictionMode::no_slip));
  CHECK(events.front().time == t0);
  const double a = (F - mu_r * mass * g / r) / (1.4 * mass);
  CHECK(tr.back().mode == FrictionMode::no_slip);
  // the regularized torque's first 1e-4 m/s (under a millisecond) runs ahead by < 1e-4 m/s
  CHECK(tr.back().V1_W.tail<3>().x() == Approx(a * 1.0).margin(1e-4));
}
