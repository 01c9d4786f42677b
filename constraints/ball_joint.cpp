#include "pivot/constraints/ball_joint.hpp"

#include "pivot/constraints/joint_rows.hpp"

namespace pivot {

namespace {
constexpr const char* kBallKind = "ball";
}

BallJoint::BallJoint(const BallJointSettings& s, int body_a, int body_b, const Pose& A0_in,
                     const Pose& B0_in)
    : Joint(s.name, body_a, body_b) {
  using namespace detail;
  check_bodies(kBallKind, s.name, body_a, body_b);
  check_point(kBallKind, s.name, "anchor_W", s.anchor_W);
  const Pose A0 = checked_pose(kBallKind, s.name, "pose A0", A0_in);
  const Pose B0 = checked_pose(kBallKind, s.name, "pose B0", B0_in);
  anchor_A_ = A0.q_WB.conjugate() * (s.anchor_W - A0.p_WB);
  anchor_B_ = B0.q_WB.conjugate() * (s.anchor_W - B0.p_WB);
}

// g = p_A − p_B, J_A = ([r_A], I), J_B = (−[r_B], −I)   (Cline 2002 eq. 4.1, 4.5–4.6)
void BallJoint::equality(const Pose& A, const Pose& B, ConstraintRows& out) const {
  out.resize_for_overwrite(3);  // write_ball_rows sets every entry of the three rows
  detail::write_ball_rows(A, B, anchor_A_, anchor_B_, 0, out);
}

double BallJoint::equality_error(const Pose& A, const Pose& B, ConstraintRows& /*scratch*/) const {
  const Vec3 g = detail::ball_gap(A, B, anchor_A_, anchor_B_);
  return detail::max_abs({g.x(), g.y(), g.z()});
}

}  // namespace pivot
