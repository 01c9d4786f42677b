#include "pivot/constraints/universal_joint.hpp"

#include "pivot/constraints/joint_rows.hpp"

namespace pivot {

namespace {
constexpr const char* kUniversalKind = "universal";
}

UniversalJoint::UniversalJoint(const UniversalJointSettings& s, int body_a, int body_b,
                               const Pose& A0_in, const Pose& B0_in)
    : Joint(s.name, body_a, body_b) {
  using namespace detail;
  check_bodies(kUniversalKind, s.name, body_a, body_b);
  check_point(kUniversalKind, s.name, "anchor_W", s.anchor_W);
  const Vec3 a = unit_axis(kUniversalKind, s.name, "axis_a_W", s.axis_a_W);
  const Vec3 b = unit_axis(kUniversalKind, s.name, "axis_b_W", s.axis_b_W);
  if (a.cross(b).norm() < kMinAxisSine) {
    fail(kUniversalKind, s.name, "axis_a_W and axis_b_W are (nearly) parallel");
  }
  const Pose A0 = checked_pose(kUniversalKind, s.name, "pose A0", A0_in);
  const Pose B0 = checked_pose(kUniversalKind, s.name, "pose B0", B0_in);
  anchor_A_ = A0.q_WB.conjugate() * (s.anchor_W - A0.p_WB);
  anchor_B_ = B0.q_WB.conjugate() * (s.anchor_W - B0.p_WB);
  axis_A_ = A0.q_WB.conjugate() * a;
  axis_B_ = B0.q_WB.conjugate() * b;
  // from the stored axes, so that g is 0 to rounding at the creation poses
  cos0_ = A0.rotate(axis_A_).dot(B0.rotate(axis_B_));
}

// rows 0–2: ball (Cline eq. 4.1, 4.5–4.6); row 3: g = a·b − (a·b)₀,
// ġ = ω_A·(a × b) − ω_B·(a × b)  (exact form of Cline §4.4.1's forbidden axis row)
void UniversalJoint::equality(const Pose& A, const Pose& B, ConstraintRows& out) const {
  out.resize(4);
  detail::write_ball_rows(A, B, anchor_A_, anchor_B_, 0, out);
  const Vec3 a = A.rotate(axis_A_);
  const Vec3 b = B.rotate(axis_B_);
  const Vec3 axb = a.cross(b);
  out.g(3) = a.dot(b) - cos0_;
  out.J_A.block<1, 3>(3, 0) = axb.transpose();
  out.J_B.block<1, 3>(3, 0) = -axb.transpose();
}

double UniversalJoint::equality_error(const Pose& A, const Pose& B,
                                      ConstraintRows& /*scratch*/) const {
  const Vec3 g = detail::ball_gap(A, B, anchor_A_, anchor_B_);
  const Vec3 a = A.rotate(axis_A_);
  const Vec3 b = B.rotate(axis_B_);
  return detail::max_abs({g.x(), g.y(), g.z(), a.dot(b) - cos0_});
}

}  // namespace pivot
