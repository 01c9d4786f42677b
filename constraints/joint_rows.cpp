#include "pivot/constraints/joint_rows.hpp"

#include <algorithm>
#include <cmath>

#include "pivot/core/error.hpp"

namespace pivot::detail {

void fail(const char* kind, const std::string& name, const std::string& what) {
  throw Error(std::string(kind) + " joint '" + name + "': " + what);
}

void check_bodies(const char* kind, const std::string& name, int body_a, int body_b) {
  if (body_a < 0) fail(kind, name, "body_a must be a body index (>= 0), not the world");
  if (body_b < 0 && body_b != kWorldBody) {
    fail(kind, name, "body_b must be a body index (>= 0) or kWorldBody");
  }
  if (body_a == body_b) fail(kind, name, "body_a and body_b must differ");
}

void check_point(const char* kind, const std::string& name, const char* field, const Vec3& p) {
  if (!p.allFinite()) fail(kind, name, std::string(field) + " must be finite");
}

Vec3 unit_axis(const char* kind, const std::string& name, const char* field, const Vec3& axis) {
  const double n = axis.norm();
  if (!axis.allFinite() || !std::isfinite(n) || n < 1e-12) {
    fail(kind, name, std::string(field) + " must be a finite, nonzero direction");
  }
  return axis / n;
}

Pose checked_pose(const char* kind, const std::string& name, const char* field, const Pose& pose) {
  const double n = pose.q_WB.norm();
  if (!pose.p_WB.allFinite() || !pose.q_WB.coeffs().allFinite() || !(n > 1e-12)) {
    fail(kind, name, std::string(field) + " must be a finite pose with a nonzero quaternion");
  }
  Pose out = pose;
  out.q_WB.normalize();
  return out;
}

void check_limits(const char* kind, const std::string& name,
                  const std::optional<JointLimits>& limits) {
  if (!limits) return;
  if (!std::isfinite(limits->lower) || !std::isfinite(limits->upper)) {
    fail(kind, name, "limits must be finite");
  }
  if (limits->lower > limits->upper) fail(kind, name, "limits.lower > limits.upper");
}

void check_motor(const char* kind, const std::string& name,
                 const std::optional<JointMotor>& motor) {
  if (!motor) return;
  if (!std::isfinite(motor->target_velocity)) {
    fail(kind, name, "motor.target_velocity must be finite");
  }
  if (!std::isfinite(motor->max_impulse) || motor->max_impulse < 0.0) {
    fail(kind, name, "motor.max_impulse must be finite and >= 0");
  }
}

void check_dynamics(const char* kind, const std::string& name, const JointDynamics& dynamics) {
  if (!std::isfinite(dynamics.damping) || dynamics.damping < 0.0)
    fail(kind, name, "dynamics.damping must be finite and >= 0");
  if (!std::isfinite(dynamics.friction) || dynamics.friction < 0.0)
    fail(kind, name, "dynamics.friction must be finite and >= 0");
}

Vec3 any_perpendicular(const Vec3& u) {
  // cross with the world axis least aligned with u (|u × e| ≥ sqrt(2/3) for unit u)
  Eigen::Index i = 0;
  u.cwiseAbs().minCoeff(&i);
  return u.cross(Vec3::Unit(i)).normalized();
}

// Cline 2002 eq. 4.1, 4.5–4.6 (J_B = (−[r_B], −I), not the printed +[r_B]; finite-difference test
// in tests/constraints):
//   g = p_A − p_B;  ṗ_X = v_X + ω_X × (p_X − x_X) = v_X + [r_X] ω_X,  r_X = x_X − p_X
Vec3 ball_gap(const Pose& A, const Pose& B, const Vec3& anchor_A, const Vec3& anchor_B) {
  const Vec3 p_A = A.to_world(anchor_A);
  const Vec3 p_B = B.to_world(anchor_B);
  return p_A - p_B;
}

void write_ball_rows(const Pose& A, const Pose& B, const Vec3& anchor_A, const Vec3& anchor_B,
                     int row, ConstraintRows& out) {
  const Vec3 p_A = A.to_world(anchor_A);
  const Vec3 p_B = B.to_world(anchor_B);
  out.g.segment<3>(row) = p_A - p_B;
  out.J_A.block<3, 3>(row, 0) = skew(A.p_WB - p_A);
  out.J_A.block<3, 3>(row, 3) = Mat3::Identity();
  out.J_B.block<3, 3>(row, 0) = -skew(B.p_WB - p_B);
  out.J_B.block<3, 3>(row, 3) = -Mat3::Identity();
}

// Cline 2002 eq. 4.10, method 2, as a quaternion error in world axes:
//   q_err = q_A q_rel0 q_B⁻¹,  q̇_X = ½ ω_X q_X  ⇒  q̇_err = ½ (ω_A − R_err ω_B) q_err
//   g = log(q_err) ⇒ ġ = ω_A − ω_B at g = 0 (the sign trap: A positive, B negative)
Vec3 rotation_lock_gap(const Pose& A, const Pose& B, const Quat& q_rel0) {
  const Quat q_err = A.q_WB * q_rel0 * B.q_WB.conjugate();
  return quat_log(q_err);
}

double max_abs(const double* first, const double* last) {
  double m = 0.0;
  for (; first != last; ++first) {
    if (std::isnan(*first)) return *first;
    m = std::max(m, std::abs(*first));
  }
  return m;
}

void write_rotation_lock_rows(const Pose& A, const Pose& B, const Quat& q_rel0, int row,
                              ConstraintRows& out) {
  const Quat q_err = A.q_WB * q_rel0 * B.q_WB.conjugate();
  out.g.segment<3>(row) = quat_log(q_err);  // positive hemisphere inside quat_log
  out.J_A.block<3, 6>(row, 0).setZero();
  out.J_B.block<3, 6>(row, 0).setZero();
  out.J_A.block<3, 3>(row, 0) = Mat3::Identity();
  out.J_B.block<3, 3>(row, 0) = -Mat3::Identity();
}

void write_limit_rows(double c, const Row6& j_A, const Row6& j_B, const JointLimits& limits,
                      double margin, ConstraintRows& out) {
  const double g_lower = c - limits.lower;
  const double g_upper = limits.upper - c;
  const int n = (g_lower <= margin ? 1 : 0) + (g_upper <= margin ? 1 : 0);
  out.resize(n);
  int row = 0;
  if (g_lower <= margin) {
    out.g(row) = g_lower;
    out.J_A.row(row) = j_A;
    out.J_B.row(row) = j_B;
    ++row;
  }
  if (g_upper <= margin) {
    out.g(row) = g_upper;
    out.J_A.row(row) = -j_A;
    out.J_B.row(row) = -j_B;
  }
}

}  // namespace pivot::detail
