// The trajectory-driven manipulandum: see trajectory_coupling.hpp (Barbič 2007 §4.3, §4.9).
#include "pivot/engine/trajectory_coupling.hpp"

#include <algorithm>
#include <cmath>

#include "pivot/core/error.hpp"

namespace pivot {
namespace {

// toPositiveHemisphere(q_WT q_WB⁻¹): q and −q are the same rotation; the representative with
// w ≥ 0 is the shortest rotation (angle ≤ π) from the body to the target (Barbič §4.3)
Quat orientation_error(const Quat& q_WT, const Quat& q_WB) {
  Quat q_e = q_WT * q_WB.conjugate();
  if (q_e.w() < 0.0) q_e.coeffs() = -q_e.coeffs();
  return q_e;
}

bool finite_non_negative(double x) {
  return std::isfinite(x) && x >= 0.0;
}

}  // namespace

TargetState target_state(const KinematicTrack& track, double t) {
  const auto& k = track.keyframes;
  TargetState out;
  const TrackPose pose = sample_track(track, t);
  out.p_WT = pose.p_WS;
  out.q_WT = pose.q_WB;
  // the segment [t_i, t_i+1) holding t (right-continuous at key frames): its constant velocity
  if (k.size() < 2 || t < k.front().t || t >= k.back().t) return out;
  // the last key frame with t_i ≤ t (binary search: a recording may have many rows)
  const auto after =
      std::upper_bound(k.begin(), k.end(), t, [](double x, const KeyFrame& f) { return x < f.t; });
  const auto i = static_cast<std::size_t>(after - k.begin()) - 1;
  const double dt = k[i + 1].t - k[i].t;
  out.v_T = (k[i + 1].p_WS - k[i].p_WS) / dt;
  // slerp(q_i, q_i+1; s) = exp(s φ) q_i with φ = log(q_i+1 q_i⁻¹) (check_track put the key
  // frames in one hemisphere, so this is the short way slerp takes)
  out.w_T = quat_log(k[i + 1].q_WB * k[i].q_WB.conjugate()) / dt;
  return out;
}

Vec3 coupling_torque(const Quat& q_WT, const Quat& q_WB, double kappa) {
  return 2.0 * kappa * orientation_error(q_WT, q_WB).vec();
}

TrajectoryCoupling::TrajectoryCoupling(const TrajectoryCouplingSettings& s) : s_(s) {
  if (s.body < 0) throw Error("trajectory coupling: needs a body, not the world");
  if (!s.path || s.path->keyframes.empty())
    throw Error("trajectory coupling: the trajectory has no poses");
  if (s.path->interpolation != TrackInterpolation::linear)
    throw Error("trajectory coupling: the trajectory must be linear (positions linear, slerp)");
  if (!s.p_BG.allFinite()) throw Error("trajectory coupling: the grasp point must be finite");
  for (double x : {s.stiffness, s.damping, s.rotational_stiffness, s.rotational_damping, s.lead})
    if (!finite_non_negative(x))
      throw Error(
          "trajectory coupling: stiffness, damping, rotational_stiffness, rotational_damping and "
          "lead must be finite and >= 0");
  // a checked copy (normalized quaternions in one hemisphere, increasing times)
  auto track = std::make_shared<KinematicTrack>(*s.path);
  check_track(*track);
  s_.path = std::move(track);
  last_t_ = s_.lead;
}

Vec6 TrajectoryCoupling::wrench(const RigidBodySet& set, double t) const {
  const TargetState T = target_state(*s_.path, t + s_.lead);
  const Pose X = set.pose(s_.body);
  const Vec6 V = set.twist(s_.body);
  const Vec3 r = X.rotate(s_.p_BG);
  const Vec3 pdot_G = V.tail<3>() + V.head<3>().cross(r);
  const Vec3 F = s_.stiffness * (T.p_WT - (X.p_WB + r)) - s_.damping * (pdot_G - T.v_T);
  const Vec3 tau = r.cross(F) + coupling_torque(T.q_WT, X.q_WB, s_.rotational_stiffness) -
                   s_.rotational_damping * (V.head<3>() - T.w_T);
  Vec6 w;
  w << tau, F;
  return w;
}

void TrajectoryCoupling::apply(const RigidBodySet& set, double t, Eigen::VectorXd& w) const {
  if (s_.body >= set.size()) return;
  last_t_ = t + s_.lead;
  w.segment<6>(6 * s_.body) += wrench(set, t);
}

bool TrajectoryCoupling::add_gradients(const RigidBodySet& set, double t, Triplets& dfdp,
                                       Triplets& dfdv) const {
  if (s_.body >= set.size()) return false;
  const TargetState T = target_state(*s_.path, t + s_.lead);
  const Pose X = set.pose(s_.body);
  const Vec3 r = X.rotate(s_.p_BG);
  const Vec6 W = wrench(set, t);
  // a non-finite wrench (a trajectory with an overflowing velocity) is dropped by the World's
  // check of the forces; its gradient must not reach the step's matrix either
  if (!W.allFinite()) return false;
  const Vec3 F = W.tail<3>();
  const Quat q_e = orientation_error(T.q_WT, X.q_WB);
  const auto J = point_jacobian(r);
  const Mat6 JtJ = J.transpose() * J;
  // ∂W/∂p = −k J_Gᵀ J_G + [[F][r] − κ (w_e I + [v_e])  0; 0 0]
  Mat6 dp = -s_.stiffness * JtJ;
  dp.topLeftCorner<3, 3>() +=
      skew(F) * skew(r) - s_.rotational_stiffness * (q_e.w() * Mat3::Identity() + skew(q_e.vec()));
  // ∂W/∂v = −c J_Gᵀ J_G − [c_r I  0; 0 0]
  Mat6 dv = -s_.damping * JtJ;
  dv.topLeftCorner<3, 3>() -= s_.rotational_damping * Mat3::Identity();
  add_gradient_block(dfdp, s_.body, s_.body, dp);
  add_gradient_block(dfdv, s_.body, s_.body, dv);
  return true;
}

double TrajectoryCoupling::potential_energy(const RigidBodySet& set) const {
  if (s_.body >= set.size()) return 0.0;
  const TargetState T = target_state(*s_.path, last_t_);
  const Pose X = set.pose(s_.body);
  const double w_e = orientation_error(T.q_WT, X.q_WB).w();
  return 0.5 * s_.stiffness * (T.p_WT - X.to_world(s_.p_BG)).squaredNorm() +
         4.0 * s_.rotational_stiffness * (1.0 - w_e);
}

void TrajectoryCoupling::time_step_changed(double old_h, double new_h) {
  if (s_.lead == old_h) s_.lead = new_h;
}

}  // namespace pivot
