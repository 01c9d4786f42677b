// engine/hybrid/reduced_contact_integrator.hpp across patch boundaries (Kry & Pai 2002 §3.5): a
// multi-patch Bézier floor (one patch with turned parameters, so ψ jumps) against the same
// motion on a plane, a subdivided curved patch against the undivided one, a corner passage,
// an open edge, and separation from the top of a sphere against its closed form.
#include <catch2/catch.hpp>

#include <cmath>

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

/// the floor [−1.5, 1.5]² as 3 × 3 flat patches of 1 m, the centre one with its parameters
/// turned by 90°
ReducedBody patched_floor() {
  auto pieces = subdivide_bezier_patch(flat_patch(1.5), 3, 3);
  pieces[4] = rotate_bezier_parameters(pieces[4], 1);
  return fixed_bezier(pieces);
}

/// a bump: the flat patch with its four inner control points raised by 0.3 m
BezierPatch bump_patch() {
  BezierPatch b = flat_patch(1.5);
  for (int k : {5, 6, 9, 10}) b[k].z() = 0.3;
  return b;
}

struct Run {
  std::vector<Sample> samples;
  std::vector<ReducedEvent> events;
  ReducedAdvanceResult last;
  ReducedContactState state;
};

Run run_sphere(const ReducedBody& floor, double mu, const Vec3& x0, const Vec6& V0, double T,
               const ReducedStepSettings& set = {}) {
  ReducedContactModel m;
  m.body1 = sphere_body(0.1, 2.0);
  m.body2 = floor;
  m.friction.mu = mu;
  Pose X;
  X.p_WB = x0;
  X.q_WB = Quat(Eigen::AngleAxisd(0.3, Vec3(1, -1, 2).normalized()));
  ReducedEntry e = enter_reduced_mode(m, X, V0, Pose{}, Vec6::Zero(), 0.0, x0 - Vec3(0, 0, 0.1));
  REQUIRE(e.search.converged);
  Run r;
  r.state = e.state;
  r.samples = run(m, r.state, T, 0.25, set, &r.last, &r.events);
  return r;
}

/// the rolling twist for velocity v on flat ground (r = 0.1) with spin w_z
Vec6 rolling(const Vec3& v, double w_z) {
  Vec6 V;
  V << -v.y() / 0.1, v.x() / 0.1, w_z, v;
  return V;
}

}  // namespace

TEST_CASE("rolling and sliding across a multi-patch floor is the motion on a plane",
          "[engine][reduced]") {
  // start at (−1.2, −1.0), 1 m/s towards (1, 0.7): crosses x = −0.5, y = −0.5 (into the turned
  // centre patch) and x = 0.5 in 2.5 s
  const Vec3 x0(-1.2, -1.0, 0.1);
  const Vec3 v = Vec3(1.0, 0.7, 0.0).normalized();
  for (double mu : {0.5, 0.0}) {
    INFO("mu = " << mu);
    // rolling with spin, or (frictionless) sliding with a spin and a roll that stay constant
    const Vec6 V0 = mu > 0.0 ? rolling(v, 2.0) : (Vec6() << 1.0, -3.0, 4.0, v).finished();
    const Run on_patches = run_sphere(patched_floor(), mu, x0, V0, 2.5);
    const Run on_plane = run_sphere(ground_plane(), mu, x0, V0, 2.5);
    REQUIRE(on_patches.last.status == ReducedStatus::ok);
    REQUIRE(on_plane.last.status == ReducedStatus::ok);
    CHECK(count(on_patches.events, ReducedEvent::Kind::patch_change_2) == 3);
    CHECK(on_patches.state.coords.patch_2 == 7);  // column x ∈ [0.5, 1.5], row y ∈ [−0.5, 0.5]
    for (std::size_t k = 0; k < on_patches.samples.size(); ++k) {
      const Sample& a = on_patches.samples[k];
      const Sample& b = on_plane.samples[k];
      CHECK((a.X_W1.p_WB - b.X_W1.p_WB).norm() < 1e-8);
      CHECK(a.X_W1.q_WB.angularDistance(b.X_W1.q_WB) < 1e-7);
      CHECK((a.V1_W - V0).norm() < 1e-6);
    }
    CHECK((on_patches.samples.back().X_W1.p_WB - (x0 + 2.5 * v)).norm() < 1e-8);
  }
}

TEST_CASE("a subdivided curved patch gives the trajectory of the whole patch",
          "[engine][reduced]") {
  // the same surface as 1 or 3 × 3 patches (C∞ joins): frictionless sliding and rolling over
  // the bump must agree, with body 2 changing patch on the subdivided one
  const BezierPatch bump = bump_patch();
  const ReducedBody whole = fixed_bezier({bump});
  const ReducedBody pieces = fixed_bezier(subdivide_bezier_patch(bump, 3, 3));
  // start at (−1.0, −0.8) on the bump, moving towards +x, +y
  const BezierSurface surf({bump});
  const SurfacePoint start = surf.closest_point(Vec3(-1.0, -0.8, 0.5));
  const SurfaceJet j = surf.evaluate(0, start.uv);
  const Vec3 n = j.p_u.cross(j.p_v).normalized();
  const Vec3 x0 = j.p + 0.1 * n;
  const Vec3 v = (Vec3(2.0, 1.2, 0.0) - Vec3(2.0, 1.2, 0.0).dot(n) * n);
  for (double mu : {0.0, 0.6}) {
    INFO("mu = " << mu);
    Vec6 V0;
    V0 << (mu > 0.0 ? Vec3(n.cross(v) / 0.1) : Vec3(0.5, -1.0, 2.0)), v;
    const Run a = run_sphere(whole, mu, x0, V0, 1.0);
    const Run b = run_sphere(pieces, mu, x0, V0, 1.0);
    REQUIRE(a.last.status == ReducedStatus::ok);
    REQUIRE(b.last.status == ReducedStatus::ok);
    CHECK(count(a.events, ReducedEvent::Kind::patch_change_2) == 0);
    CHECK(count(b.events, ReducedEvent::Kind::patch_change_2) >= 2);
    for (std::size_t k = 0; k < a.samples.size(); ++k) {
      CHECK((a.samples[k].X_W1.p_WB - b.samples[k].X_W1.p_WB).norm() < 1e-7);
      CHECK((a.samples[k].V1_W - b.samples[k].V1_W).norm() < 1e-6);
    }
    // frictionless: energy is conserved over the bump
    if (mu == 0.0)
      CHECK(std::abs(b.samples.back().energy - b.samples.front().energy) <
            1e-8 * std::abs(b.samples.front().energy));
  }
}

TEST_CASE("rolling exactly through a patch corner", "[engine][reduced]") {
  // diagonal from (0, 0) through the corner (0.5, 0.5) of four patches (the centre one turned)
  const Vec3 x0(0.0, 0.0, 0.1);
  const Vec3 v = Vec3(1.0, 1.0, 0.0).normalized();
  const Run r = run_sphere(patched_floor(), 0.5, x0, rolling(v, 0.0), 1.2);
  REQUIRE(r.last.status == ReducedStatus::ok);
  CHECK(r.state.coords.patch_2 == 8);  // the patch [0.5, 1.5]²
  CHECK(count(r.events, ReducedEvent::Kind::patch_change_2) >= 2);
  CHECK((r.samples.back().X_W1.p_WB - (x0 + 1.2 * v)).norm() < 1e-8);
  CHECK((r.samples.back().V1_W - rolling(v, 0.0)).norm() < 1e-6);
}

TEST_CASE("rolling off an open edge stops on the edge", "[engine][reduced]") {
  // a single flat patch [−0.5, 0.5]²: from x = 0 at 1 m/s the contact reaches x = 0.5 at 0.5 s
  const Run r = run_sphere(fixed_bezier({flat_patch(0.5)}), 0.5, Vec3(0.0, 0.1, 0.1),
                           rolling(Vec3::UnitX(), 0.0), 2.0);
  CHECK(r.last.status == ReducedStatus::left_surface);
  CHECK(r.state.time == Approx(0.5).epsilon(1e-9));
  CHECK(r.samples.back().X_W1.p_WB.x() == Approx(0.5).epsilon(1e-9));
  CHECK(count(r.events, ReducedEvent::Kind::left_surface) == 1);
}

TEST_CASE("a sphere sliding off the top of a sphere separates at cos theta = (v0^2/g rho + 2)/3",
          "[engine][reduced]") {
  // Frictionless: the normal force passes through the small sphere's centre, so it does not
  // turn and its centre moves like a particle on a sphere of radius ρ = R + r. From the top at
  // speed v0 the normal force vanishes at cos θ* = (v0²/(g ρ) + 2)/3 (energy + radial Newton).
  const double R = 0.5, r = 0.05, rho = R + r, v0 = 0.5;
  ReducedContactModel m;
  m.body1 = sphere_body(r, 1.0);
  m.body2.surface.surface = make_sphere_surface(R);
  m.body2.fixed = true;
  Pose X;
  X.p_WB = Vec3(0.0, 0.0, rho);
  Vec6 V;
  V << 0.0, 0.0, 0.0, v0, 0.0, 0.0;
  ReducedEntry e = enter_reduced_mode(m, X, V, Pose{}, Vec6::Zero());
  REQUIRE(e.search.converged);
  REQUIRE(e.state.mode == FrictionMode::frictionless);
  std::vector<ReducedEvent> events;
  ReducedAdvanceResult last;
  ReducedStepSettings set;
  set.tolerance = 1e-11;
  const auto tr = run(m, e.state, 5.0, 0.5, set, &last, &events);
  REQUIRE(last.status == ReducedStatus::separated);
  const Vec3 c = tr.back().X_W1.p_WB;
  const double cos_expected = (v0 * v0 / (g * rho) + 2.0) / 3.0;
  CHECK(c.norm() == Approx(rho).epsilon(1e-12));
  CHECK(c.z() / rho == Approx(cos_expected).epsilon(1e-9));
  CHECK(std::abs(tr.back().normal_force) < 1e-6);
  // energy conserved up to the separation, and the contact crossed the 45° chart edges of both
  // cube-spheres on the way
  CHECK(std::abs(tr.back().energy - tr.front().energy) < 1e-9 * std::abs(tr.front().energy));
  CHECK(count(events, ReducedEvent::Kind::patch_change_2) == 1);
  CHECK(count(events, ReducedEvent::Kind::patch_change_1) == 1);
  CHECK(count(events, ReducedEvent::Kind::separation) == 1);
}
