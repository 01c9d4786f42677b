#include "pivot/constraints/hinge_joint.hpp"

#include <cmath>
#include <numbers>

#include "pivot/constraints/joint_rows.hpp"

namespace pivot {

namespace {
constexpr const char* kHingeKind = "hinge";
}

HingeJoint::HingeJoint(const HingeJointSettings& s, int body_a, int body_b, const Pose& A0_in,
                       const Pose& B0_in)
    : Joint(s.name, body_a, body_b), limits_(s.limits), motor_(s.motor), dynamics_(s.dynamics) {
  using namespace detail;
  check_bodies(kHingeKind, s.name, body_a, body_b);
  check_point(kHingeKind, s.name, "anchor_W", s.anchor_W);
  const Vec3 axis = unit_axis(kHingeKind, s.name, "axis_W", s.axis_W);
  check_limits(kHingeKind, s.name, s.limits);
  check_motor(kHingeKind, s.name, s.motor);
  check_dynamics(kHingeKind, s.name, s.dynamics);
  const Pose A0 = checked_pose(kHingeKind, s.name, "pose A0", A0_in);
  const Pose B0 = checked_pose(kHingeKind, s.name, "pose B0", B0_in);
  const Quat qA_inv = A0.q_WB.conjugate();
  const Quat qB_inv = B0.q_WB.conjugate();
  anchor_A_ = qA_inv * (s.anchor_W - A0.p_WB);
  anchor_B_ = qB_inv * (s.anchor_W - B0.p_WB);
  const Vec3 b1 = any_perpendicular(axis);
  const Vec3 b2 = axis.cross(b1);
  axis_A_ = qA_inv * axis;
  u_A_ = qA_inv * b1;
  w_A_ = qA_inv * b2;
  b1_B_ = qB_inv * b1;
  b2_B_ = qB_inv * b2;
}

// rows 0–2: ball (Cline eq. 4.1, 4.5–4.6); rows 3–4: g_i = a·b_i,
// ġ_i = ω_A·(a × b_i) − ω_B·(a × b_i)  (exact form of Cline eq. 4.9)
void HingeJoint::equality(const Pose& A, const Pose& B, ConstraintRows& out) const {
  out.resize(5);
  detail::write_ball_rows(A, B, anchor_A_, anchor_B_, 0, out);
  const Vec3 a = A.rotate(axis_A_);
  const Vec3 b[2] = {B.rotate(b1_B_), B.rotate(b2_B_)};
  for (int i = 0; i < 2; ++i) {
    const Vec3 axb = a.cross(b[i]);
    out.g(3 + i) = a.dot(b[i]);
    out.J_A.block<1, 3>(3 + i, 0) = axb.transpose();
    out.J_B.block<1, 3>(3 + i, 0) = -axb.transpose();
  }
}

double HingeJoint::equality_error(const Pose& A, const Pose& B, ConstraintRows& /*scratch*/) const {
  const Vec3 g = detail::ball_gap(A, B, anchor_A_, anchor_B_);
  const Vec3 a = A.rotate(axis_A_);
  const Vec3 b[2] = {B.rotate(b1_B_), B.rotate(b2_B_)};
  return detail::max_abs({g.x(), g.y(), g.z(), a.dot(b[0]), a.dot(b[1])});
}

// θ = atan2(s, c), c = u·b1, s = w·b1 (u, w fixed in A; b1 fixed in B);
// θ̇ = k·(ω_A − ω_B), k = (c (w × b1) − s (u × b1)) / (c² + s²)
double HingeJoint::angle(const Pose& A, const Pose& B, Eigen::Matrix<double, 1, 6>* j_A,
                         Eigen::Matrix<double, 1, 6>* j_B) const {
  const Vec3 u = A.rotate(u_A_);
  const Vec3 w = A.rotate(w_A_);
  const Vec3 b1 = B.rotate(b1_B_);
  const double c = u.dot(b1);
  const double s = w.dot(b1);
  double theta = std::atan2(s, c);
  if (theta <= -std::numbers::pi) theta = std::numbers::pi;  // (−π, π]
  if (j_A != nullptr && j_B != nullptr) {
    const double n2 = c * c + s * s;
    // n2 = 0 only when b1 lies along the axis (the hinge broken by 90°): no defined rate
    const Vec3 k = n2 > 1e-24 ? Vec3((c * w.cross(b1) - s * u.cross(b1)) / n2) : Vec3::Zero();
    j_A->setZero();
    j_B->setZero();
    j_A->head<3>() = k.transpose();
    j_B->head<3>() = -k.transpose();
  }
  return theta;
}

double HingeJoint::coordinate(const Pose& A, const Pose& B) const {
  return angle(A, B, nullptr, nullptr);
}

void HingeJoint::limits(const Pose& A, const Pose& B, double margin, ConstraintRows& out) const {
  if (!limits_) {
    out.resize(0);
    return;
  }
  Eigen::Matrix<double, 1, 6> j_A, j_B;
  const double theta = angle(A, B, &j_A, &j_B);
  detail::write_limit_rows(theta, j_A, j_B, *limits_, margin, out);
}

bool HingeJoint::coordinate_row(const Pose& A, const Pose& B, Row6& J_A, Row6& J_B) const {
  angle(A, B, &J_A, &J_B);
  return true;
}

std::optional<MotorRow> HingeJoint::motor(const Pose& A, const Pose& B) const {
  if (!motor_) return std::nullopt;
  MotorRow row;
  angle(A, B, &row.J_A, &row.J_B);
  row.target_velocity = motor_->target_velocity;
  row.max_impulse = motor_->max_impulse;
  return row;
}

}  // namespace pivot
