#pragma once
// Shared set-ups of the reduced-contact tests: bodies, the App. B rattleback of Kry 2000, and
// a small driver that advances in chunks and records a trajectory.
#include <memory>
#include <vector>

#include "pivot/collision/bezier_surface.hpp"
#include "pivot/collision/ellipsoid_surface.hpp"
#include "pivot/collision/plane_surface.hpp"
#include "pivot/engine/hybrid/reduced_contact_integrator.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

namespace pivot::test {

/// a solid sphere of radius r and mass m: I = 2/5 m r²
inline ReducedBody sphere_body(double r, double m) {
  ReducedBody b;
  b.surface.surface = make_sphere_surface(r);
  b.mass = m;
  b.inertia_B = (0.4 * m * r * r) * Mat3::Identity();
  return b;
}

/// a solid ellipsoid: I = m/5 diag(b² + c², a² + c², a² + b²)
inline ReducedBody ellipsoid_body(const Vec3& radii, double m) {
  ReducedBody b;
  b.surface.surface = make_ellipsoid_surface(radii);
  b.mass = m;
  const Vec3 s = radii.cwiseProduct(radii);
  b.inertia_B = (m / 5.0) * Vec3(s.y() + s.z(), s.x() + s.z(), s.x() + s.y()).asDiagonal();
  return b;
}

/// the fixed ground z = 0 (outward normal +z; e_u = +x, e_v = +y)
inline ReducedBody ground_plane() {
  ReducedBody b;
  b.surface.surface = make_plane_surface(Vec3::UnitZ(), 0.0);
  b.fixed = true;
  return b;
}

/// a flat bicubic Bézier patch [−h, h]² at z = 0 (the App. B floor for h = 1.5)
/// a sphere of radius r and mass m on the ground plane z = 0, Coulomb μ
inline ReducedContactModel sphere_on_ground(double r, double m, double mu) {
  ReducedContactModel model;
  model.body1 = sphere_body(r, m);
  model.body2 = ground_plane();
  model.friction.mu = mu;
  return model;
}

/// the pose of a sphere of radius r resting on the ground plane at the origin
inline Pose resting_on_ground(double r) {
  Pose X;
  X.p_WB = Vec3(0.0, 0.0, r);
  return X;
}

/// the world twist (ω; v) of a sphere of radius r rolling without slip along x at v
inline Vec6 rolling_along_x(double v, double r) {
  Vec6 V;
  V << 0.0, v / r, 0.0, v, 0.0, 0.0;
  return V;
}

inline BezierPatch flat_patch(double h) {
  BezierPatch F;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      F[4 * i + j] = Vec3(h * (2.0 * i / 3.0 - 1.0), h * (2.0 * j / 3.0 - 1.0), 0.0);
  return F;
}

inline ReducedBody fixed_bezier(std::vector<BezierPatch> patches) {
  ReducedBody b;
  b.surface.surface = std::make_shared<BezierSurface>(std::move(patches));
  b.fixed = true;
  return b;
}

/// Kry 2000 App. B rattleback: one bicubic patch, control points on
/// the 4 × 4 grid x, y ∈ {−1.5, −0.5, 0.5, 1.5} with z = −2 at the corners, −1 on the edges, 0
/// inside; then scale (0.6, 0.2, 0.2), rotate −0.174 rad about z, offset (0, 0, 0.2) (the order
/// the notes argue for); mass 5, inertia diag(1, 10, 10) in the body (= world-at-rest) axes
inline ReducedBody rattleback_body() {
  BezierPatch P;
  const double xs[4] = {-1.5, -0.5, 0.5, 1.5};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const bool ei = i == 0 || i == 3, ej = j == 0 || j == 3;
      P[4 * i + j] = Vec3(xs[i], xs[j], -(ei ? 1.0 : 0.0) - (ej ? 1.0 : 0.0));
    }
  const Mat3 A = Eigen::AngleAxisd(-0.174, Vec3::UnitZ()).toRotationMatrix() *
                 Vec3(0.6, 0.2, 0.2).asDiagonal();
  ReducedBody b;
  b.surface.surface = std::make_shared<BezierSurface>(
      std::vector<BezierPatch>{transform_bezier_patch(P, A, Vec3(0, 0, 0.2))});
  b.mass = 5.0;
  b.inertia_B = Vec3(1.0, 10.0, 10.0).asDiagonal();
  return b;
}

/// the App. B starts: coords (s, t, u, v, ψ) and rates; spin start ψ̇ = −1
inline ReducedContactState rattleback_spin_start() {
  ReducedContactState s;
  s.coords.q << 0.45, 0.45, 0.5, 0.5, 0.0;
  s.qdot << 0.0, 0.0, 0.0, 0.0, -1.0;
  return s;
}
inline ReducedContactState rattleback_tap_start() {
  ReducedContactState s;
  s.coords.q << 0.15, 0.5, 0.5, 0.5, 0.0;
  return s;
}

struct Sample {
  double t;
  FrictionMode mode;
  Pose X_W1;
  Vec6 V1_W;
  double energy;
  double normal_force;
};

/// advances in chunks of `chunk` seconds up to t_end, sampling after every chunk; stops early on
/// a status other than ok (returned in `last`)
inline std::vector<Sample> run(const ReducedContactModel& m, ReducedContactState& s, double t_end,
                               double chunk, const ReducedStepSettings& set,
                               ReducedAdvanceResult* last = nullptr,
                               std::vector<ReducedEvent>* events = nullptr) {
  std::vector<Sample> out;
  auto sample = [&] {
    const ReducedDynamics d = reduced_dynamics(m, s);
    out.push_back(
        {s.time, s.mode, d.X_W1, body1_world_twist(m, s), reduced_energy(m, s), d.normal_force});
  };
  sample();
  while (s.time < t_end - 1e-12) {
    const ReducedAdvanceResult r = advance(m, s, std::min(chunk, t_end - s.time), set);
    if (events) events->insert(events->end(), r.events.begin(), r.events.end());
    if (last) *last = r;
    sample();
    if (r.status != ReducedStatus::ok) break;
  }
  return out;
}

/// the body-frame twist X⁻¹Ẋ from central differences of X: (vee(Rᵀ Ṙ); Rᵀ ṗ)
inline Vec6 fd_body_twist(const Pose& Xm, const Pose& X, const Pose& Xp, double h) {
  const Mat3 R = X.q_WB.toRotationMatrix();
  const Mat3 Rdot = (Xp.q_WB.toRotationMatrix() - Xm.q_WB.toRotationMatrix()) / (2 * h);
  const Mat3 W = R.transpose() * Rdot;
  Vec6 t;
  t << 0.5 * (W(2, 1) - W(1, 2)), 0.5 * (W(0, 2) - W(2, 0)), 0.5 * (W(1, 0) - W(0, 1)),
      R.transpose() * (Xp.p_WB - Xm.p_WB) / (2 * h);
  return t;
}

}  // namespace pivot::test
