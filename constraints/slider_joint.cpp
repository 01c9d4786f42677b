#include "pivot/constraints/slider_joint.hpp"

#include "pivot/constraints/joint_rows.hpp"

namespace pivot {

namespace {
constexpr const char* kSliderKind = "slider";
}

SliderJoint::SliderJoint(const SliderJointSettings& s, int body_a, int body_b, const Pose& A0_in,
                         const Pose& B0_in)
    : Joint(s.name, body_a, body_b), limits_(s.limits), motor_(s.motor), dynamics_(s.dynamics) {
  using namespace detail;
  check_bodies(kSliderKind, s.name, body_a, body_b);
  check_point(kSliderKind, s.name, "anchor_W", s.anchor_W);
  const Vec3 axis = unit_axis(kSliderKind, s.name, "axis_W", s.axis_W);
  check_limits(kSliderKind, s.name, s.limits);
  check_motor(kSliderKind, s.name, s.motor);
  check_dynamics(kSliderKind, s.name, s.dynamics);
  const Pose A0 = checked_pose(kSliderKind, s.name, "pose A0", A0_in);
  const Pose B0 = checked_pose(kSliderKind, s.name, "pose B0", B0_in);
  const Quat qA_inv = A0.q_WB.conjugate();
  anchor_A_ = qA_inv * (s.anchor_W - A0.p_WB);
  anchor_B_ = B0.q_WB.conjugate() * (s.anchor_W - B0.p_WB);
  const Vec3 t1 = any_perpendicular(axis);
  t_A_[0] = qA_inv * axis;
  t_A_[1] = qA_inv * t1;
  t_A_[2] = qA_inv * axis.cross(t1);
  q_rel0_ = qA_inv * B0.q_WB;
}

// g = t·(p_B − p_A), t fixed in A:  ġ = ω_A·(t × (p_B − x_A)) − t·v_A
//                                       + ω_B·((p_B − x_B) × t) + t·v_B   (exact)
double SliderJoint::along(const Pose& A, const Pose& B, const Vec3& t_A,
                          Eigen::Matrix<double, 1, 6>* j_A,
                          Eigen::Matrix<double, 1, 6>* j_B) const {
  const Vec3 t = A.rotate(t_A);
  const Vec3 p_A = A.to_world(anchor_A_);
  const Vec3 p_B = B.to_world(anchor_B_);
  if (j_A != nullptr && j_B != nullptr) {
    j_A->head<3>() = t.cross(p_B - A.p_WB).transpose();
    j_A->tail<3>() = -t.transpose();
    j_B->head<3>() = (p_B - B.p_WB).cross(t).transpose();
    j_B->tail<3>() = t.transpose();
  }
  return t.dot(p_B - p_A);
}

// rows 0–2: rotation lock (Cline eq. 4.10 method 2);
// rows 3–4: g_i = t_i·(p_B − p_A) with the exact rate above
void SliderJoint::equality(const Pose& A, const Pose& B, ConstraintRows& out) const {
  out.resize(5);
  detail::write_rotation_lock_rows(A, B, q_rel0_, 0, out);
  for (int i = 1; i <= 2; ++i) {
    Eigen::Matrix<double, 1, 6> j_A, j_B;
    out.g(2 + i) = along(A, B, t_A_[i], &j_A, &j_B);
    out.J_A.row(2 + i) = j_A;
    out.J_B.row(2 + i) = j_B;
  }
}

double SliderJoint::coordinate(const Pose& A, const Pose& B) const {
  return along(A, B, t_A_[0], nullptr, nullptr);
}

void SliderJoint::limits(const Pose& A, const Pose& B, double margin, ConstraintRows& out) const {
  if (!limits_) {
    out.resize(0);
    return;
  }
  Eigen::Matrix<double, 1, 6> j_A, j_B;
  const double s = along(A, B, t_A_[0], &j_A, &j_B);
  detail::write_limit_rows(s, j_A, j_B, *limits_, margin, out);
}

bool SliderJoint::coordinate_row(const Pose& A, const Pose& B, Row6& J_A, Row6& J_B) const {
  along(A, B, t_A_[0], &J_A, &J_B);
  return true;
}

std::optional<MotorRow> SliderJoint::motor(const Pose& A, const Pose& B) const {
  if (!motor_) return std::nullopt;
  MotorRow row;
  along(A, B, t_A_[0], &row.J_A, &row.J_B);
  row.target_velocity = motor_->target_velocity;
  row.max_impulse = motor_->max_impulse;
  return row;
}

}  // namespace pivot
