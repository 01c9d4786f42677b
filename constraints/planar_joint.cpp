#include "pivot/constraints/planar_joint.hpp"

#include "pivot/constraints/joint_rows.hpp"

namespace pivot {

namespace {
constexpr const char* kPlanarKind = "planar";
}

PlanarJoint::PlanarJoint(const PlanarJointSettings& s, int body_a, int body_b, const Pose& A0_in,
                         const Pose& B0_in)
    : Joint(s.name, body_a, body_b) {
  using namespace detail;
  check_bodies(kPlanarKind, s.name, body_a, body_b);
  check_point(kPlanarKind, s.name, "anchor_W", s.anchor_W);
  const Vec3 normal = unit_axis(kPlanarKind, s.name, "normal_W", s.normal_W);
  const Pose A0 = checked_pose(kPlanarKind, s.name, "pose A0", A0_in);
  const Pose B0 = checked_pose(kPlanarKind, s.name, "pose B0", B0_in);
  const Quat qA_inv = A0.q_WB.conjugate();
  const Quat qB_inv = B0.q_WB.conjugate();
  anchor_A_ = qA_inv * (s.anchor_W - A0.p_WB);
  anchor_B_ = qB_inv * (s.anchor_W - B0.p_WB);
  normal_A_ = qA_inv * normal;
  const Vec3 b1 = any_perpendicular(normal);
  b1_B_ = qB_inv * b1;
  b2_B_ = qB_inv * normal.cross(b1);
}

// row 0: g = n·(p_B − p_A), n fixed in A:  ġ = ω_A·(n × (p_B − x_A)) − n·v_A
//                                              + ω_B·((p_B − x_B) × n) + n·v_B;
// rows 1–2: g_i = a·b_i,  ġ_i = ω_A·(a × b_i) − ω_B·(a × b_i)  (a = n)
void PlanarJoint::equality(const Pose& A, const Pose& B, ConstraintRows& out) const {
  out.resize(3);
  const Vec3 n = A.rotate(normal_A_);
  const Vec3 p_A = A.to_world(anchor_A_);
  const Vec3 p_B = B.to_world(anchor_B_);
  out.g(0) = n.dot(p_B - p_A);
  out.J_A.block<1, 3>(0, 0) = n.cross(p_B - A.p_WB).transpose();
  out.J_A.block<1, 3>(0, 3) = -n.transpose();
  out.J_B.block<1, 3>(0, 0) = (p_B - B.p_WB).cross(n).transpose();
  out.J_B.block<1, 3>(0, 3) = n.transpose();
  const Vec3 b[2] = {B.rotate(b1_B_), B.rotate(b2_B_)};
  for (int i = 0; i < 2; ++i) {
    const Vec3 axb = n.cross(b[i]);
    out.g(1 + i) = n.dot(b[i]);
    out.J_A.block<1, 3>(1 + i, 0) = axb.transpose();
    out.J_B.block<1, 3>(1 + i, 0) = -axb.transpose();
  }
}

}  // namespace pivot
