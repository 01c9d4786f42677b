// Accuracy of the reduced mode against the LCP (docs/hybrid.md "Accuracy and cost against the
// LCP"; the full study is `pivot-bench hybrid`). Ground truth: a converged full-coordinate
// reference, independent of the reduced code: the LCP at h = 0.2 ms and 0.4 ms combined by
// Richardson extrapolation, x* = 2 x(h) − x(2h) (the LCP converges at first order in h, measured
// by the benchmark: error ≈ 1.6 h over 3 s). No timing is asserted.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <vector>

#include "pivot/collision/ellipsoid_surface.hpp"
#include "pivot/collision/plane_surface.hpp"
#include "pivot/engine/hybrid/reduced_contact_integrator.hpp"
#include "pivot/engine/world.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot;

namespace {

constexpr double kDuration = 0.5;  // s
constexpr double kFrame = 0.01;    // s, the sampling interval and the reduced mode's step
const Vec3 kAxes(0.2, 0.12, 0.08);

// the ellipsoid tilted 0.5 rad about x, touching z = 0, rolling without slip with
// ω = (1.5, 0, 3) rad/s; μ = 1 is never reached (|f_t|/f_n ≤ 0.28 on this run)
struct Rolling {
  Pose X;
  Vec6 V = Vec6::Zero();
  Vec3 r_c = Vec3::Zero();  // COM → contact point, world
};

Rolling rolling() {
  Rolling s;
  s.X.q_WB = Quat(Eigen::AngleAxisd(0.5, Vec3::UnitX()));
  const Vec3 up_B = s.X.q_WB.conjugate() * Vec3::UnitZ();
  // support point of diag(a) S² in the direction −up: −A² u / |A u|
  s.r_c = s.X.q_WB *
          (-(kAxes.array().square() * up_B.array()).matrix() / kAxes.cwiseProduct(up_B).norm());
  s.X.p_WB = -s.r_c.z() * Vec3::UnitZ();
  s.V << 1.5, 0.0, 3.0, Vec3::Zero();
  s.V.tail<3>() = s.r_c.cross(s.V.head<3>());  // v = −ω × r_c: the contact point at rest
  return s;
}

using Positions = std::vector<Vec3>;  // COM every kFrame, from t = kFrame

// the World at step h: the LCP, or with `hybrid` its switch entering at the start of the first
// step (hybrid_entry_steps = 0); `entries`/`exits`/`entry_time` report the switches
struct WorldRun {
  Positions x;
  long entries = 0, exits = 0;
  double entry_time = -1.0;
};

WorldRun world_run(double h, bool hybrid) {
  World w(WorldSettings{.time_step = h, .hybrid = hybrid, .hybrid_entry_steps = 0});
  w.add_body(
      {.name = "floor", .fixed = true, .shape = make_plane(Vec3::UnitZ(), 0.0), .friction = 1.0});
  const Rolling s = rolling();
  w.add_body({.name = "ellipsoid",
              .mass = 1.0,
              .shape = make_ellipsoid(kAxes),
              .p_WS = s.X.p_WB,
              .q_WB = s.X.q_WB,
              .v_WB = s.V.tail<3>(),
              .w_WB = s.V.head<3>(),
              .friction = 1.0});
  const int per_frame = static_cast<int>(std::lround(kFrame / h));
  WorldRun out;
  while (w.time() < kDuration - 1e-9) {
    for (int k = 0; k < per_frame; ++k)
      for (const SwitchEvent& e : w.step().switches)
        if (e.entered && out.entry_time < 0.0) out.entry_time = e.time;
    out.x.push_back(w.pose(1).p_WB);
  }
  out.entries = w.totals().reduced_entries;
  out.exits = w.totals().reduced_exits;
  return out;
}

Positions lcp_run(double h) {
  return world_run(h, false).x;
}

Positions reduced_run() {
  ReducedContactModel m;
  m.body1.surface = {make_ellipsoid_surface(kAxes), Pose{}};
  m.body1.mass = 1.0;
  // solid ellipsoid: I = m/5 diag(b² + c², a² + c², a² + b²)
  const Vec3 sq = kAxes.cwiseProduct(kAxes);
  m.body1.inertia_B = Vec3(sq.y() + sq.z(), sq.x() + sq.z(), sq.x() + sq.y()).asDiagonal();
  m.body1.inertia_B /= 5.0;
  m.body2.surface = {make_plane_surface(Vec3::UnitZ(), 0.0), Pose{}};
  m.body2.fixed = true;
  m.friction.mu = 1.0;
  const Rolling s = rolling();
  ReducedEntry e = enter_reduced_mode(m, s.X, s.V, Pose{}, Vec6::Zero(), 0.0, s.X.p_WB + s.r_c);
  REQUIRE(e.state.mode == FrictionMode::no_slip);
  Positions out;
  for (int f = 0; f < static_cast<int>(std::lround(kDuration / kFrame)); ++f) {
    REQUIRE(advance(m, e.state, kFrame).status == ReducedStatus::ok);
    out.push_back(body1_pose(m, e.state).p_WB);
  }
  return out;
}

double max_distance(const Positions& a, const Positions& b) {
  REQUIRE(a.size() == b.size());
  double d = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) d = std::max(d, (a[k] - b[k]).norm());
  return d;
}

}  // namespace

TEST_CASE(
    "hybrid accuracy: the reduced mode at 10 ms, direct and through the World, beats the "
    "LCP at 10 ms and 1 ms",
    "[engine][hybrid]") {
  const Positions fine = lcp_run(2e-4), coarse = lcp_run(4e-4);
  Positions reference(fine.size());
  for (std::size_t k = 0; k < fine.size(); ++k) reference[k] = 2.0 * fine[k] - coarse[k];
  const double e_reduced = max_distance(reduced_run(), reference);
  const double e_lcp_10 = max_distance(lcp_run(1e-2), reference);
  const double e_lcp_1 = max_distance(lcp_run(1e-3), reference);
  // the World's switch entering at the start of the first step (hybrid_entry_steps = 0): no
  // LCP step before the entry, so no LCP error carried on
  const WorldRun hybrid = world_run(1e-2, true);
  const double e_hybrid = max_distance(hybrid.x, reference);
  // the reference's own error is far below the 0.2 ms run's, whose error is the
  // extrapolation's correction |x(h) − x(2h)| for a first-order method
  const double correction = max_distance(fine, coarse);
  std::printf(
      "hybrid accuracy, %.1f s: max COM error against the extrapolated LCP: reduced at "
      "10 ms %.3g m, hybrid World at 10 ms (entry steps 0) %.3g m, LCP at 10 ms %.3g m, LCP at "
      "1 ms %.3g m (LCP at 0.2 ms: %.3g m); hybrid World: entered at t = %g s, %ld in, %ld out\n",
      kDuration, e_reduced, e_hybrid, e_lcp_10, e_lcp_1, correction, hybrid.entry_time,
      hybrid.entries, hybrid.exits);
  // first order: halving h halves the error (10 ms against 1 ms: ten times)
  CHECK(e_lcp_10 / e_lcp_1 == Approx(10.0).epsilon(0.2));
  CHECK(e_lcp_1 / correction == Approx(5.0).epsilon(0.2));
  // the reduced mode is closer than either LCP run by orders of magnitude
  CHECK(e_reduced < 0.01 * e_lcp_1);
  CHECK(e_reduced < 0.001 * e_lcp_10);
  // the World entering at t = 0 without an LCP step has the reduced mode's own accuracy
  // (measured: 8.71e-8 m, the direct reduced run's to 3 digits; entered at t = 0, never left)
  CHECK(hybrid.entries == 1);
  CHECK(hybrid.exits == 0);
  CHECK(hybrid.entry_time == 0.0);
  CHECK(e_hybrid < 2.0 * e_reduced);
  CHECK(e_hybrid < 2e-7);
  CHECK(e_hybrid < 0.01 * e_lcp_1);
}
