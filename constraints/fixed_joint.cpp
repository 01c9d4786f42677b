#include "pivot/constraints/fixed_joint.hpp"

#include "pivot/constraints/joint_rows.hpp"

namespace pivot {

namespace {
constexpr const char* kFixedKind = "fixed";
}

FixedJoint::FixedJoint(const FixedJointSettings& s, int body_a, int body_b, const Pose& A0_in,
                       const Pose& B0_in)
    : Joint(s.name, body_a, body_b) {
  using namespace detail;
  check_bodies(kFixedKind, s.name, body_a, body_b);
  check_point(kFixedKind, s.name, "anchor_W", s.anchor_W);
  const Pose A0 = checked_pose(kFixedKind, s.name, "pose A0", A0_in);
  const Pose B0 = checked_pose(kFixedKind, s.name, "pose B0", B0_in);
  anchor_A_ = A0.q_WB.conjugate() * (s.anchor_W - A0.p_WB);
  anchor_B_ = B0.q_WB.conjugate() * (s.anchor_W - B0.p_WB);
  q_rel0_ = A0.q_WB.conjugate() * B0.q_WB;
}

// rows 0–2: g = log(q_A q_rel0 q_B⁻¹), J = (I,0 | −I,0)  (Cline eq. 4.10 method 2);
// rows 3–5: g = p_A − p_B, J = ([r_A], I | −[r_B], −I)   (Cline eq. 4.1, 4.5–4.6)
void FixedJoint::equality(const Pose& A, const Pose& B, ConstraintRows& out) const {
  out.resize(6);
  detail::write_rotation_lock_rows(A, B, q_rel0_, 0, out);
  detail::write_ball_rows(A, B, anchor_A_, anchor_B_, 3, out);
}

double FixedJoint::equality_error(const Pose& A, const Pose& B, ConstraintRows& /*scratch*/) const {
  const Vec3 r = detail::rotation_lock_gap(A, B, q_rel0_);
  const Vec3 g = detail::ball_gap(A, B, anchor_A_, anchor_B_);
  return detail::max_abs({r.x(), r.y(), r.z(), g.x(), g.y(), g.z()});
}

}  // namespace pivot
