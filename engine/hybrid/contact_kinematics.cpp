#include "pivot/engine/hybrid/contact_kinematics.hpp"

#include <cmath>

namespace pivot::detail {

SurfaceJet ContactSurface::evaluate(int patch, const Vec2& uv) const {
  return surface->evaluate(patch, uv).transformed(X_BS.q_WB.toRotationMatrix(), X_BS.p_WB);
}

Mat3 contact_alignment(double psi) {
  const double c = std::cos(psi), s = std::sin(psi);
  Mat3 R;
  R << c, -s, 0.0, -s, -c, 0.0, 0.0, 0.0, -1.0;
  return R;
}

namespace {

// dR_ψ/dψ
Mat3 contact_alignment_derivative(double psi) {
  const double c = std::cos(psi), s = std::sin(psi);
  Mat3 R;
  R << -s, -c, 0.0, -c, s, 0.0, 0.0, 0.0, 0.0;
  return R;
}

Pose frame_pose(const ContactFrame& f) {
  Pose X;
  X.p_WB = f.c;
  X.q_WB = Quat(f.Theta).normalized();
  return X;
}

Mat6 block_diag(const Mat3& R) {
  Mat6 A = Mat6::Zero();
  A.topLeftCorner<3, 3>() = R;
  A.bottomRightCorner<3, 3>() = R;
  return A;
}

}  // namespace

Mat6 adjoint(const Pose& X) {
  return pivot::adjoint(X.q_WB.toRotationMatrix(), X.p_WB);
}

Pose inverse(const Pose& X) {
  Pose Y;
  Y.q_WB = X.q_WB.conjugate();
  Y.p_WB = -(Y.q_WB * X.p_WB);
  return Y;
}

Pose compose(const Pose& X, const Pose& Y) {
  Pose Z;
  Z.q_WB = (X.q_WB * Y.q_WB).normalized();
  Z.p_WB = X.p_WB + X.q_WB * Y.p_WB;
  return Z;
}

Mat6 motion_cross(const Vec6& phi) {
  Mat6 m = Mat6::Zero();
  m.topLeftCorner<3, 3>() = skew(phi.head<3>());
  m.bottomRightCorner<3, 3>() = skew(phi.head<3>());
  m.bottomLeftCorner<3, 3>() = skew(phi.tail<3>());
  return m;
}

Vec6 to_world_twist(const Quat& q_WB, const Vec6& t) {
  Vec6 w;
  w << q_WB * Vec3(t.head<3>()), q_WB * Vec3(t.tail<3>());
  return w;
}

Vec6 to_body_twist(const Quat& q_WB, const Vec6& t) {
  const Quat qi = q_WB.conjugate();
  Vec6 b;
  b << qi * Vec3(t.head<3>()), qi * Vec3(t.tail<3>());
  return b;
}

// ^2_1E = ^2_{2c}E diag(R_ψ, 1) (^1_{1c}E)⁻¹   (P9)
Pose contact_pose(const ContactSurface& body1, const ContactSurface& body2,
                  const ContactCoordinates& q) {
  const ContactFrame f1 = contact_frame(body1.evaluate(q.patch_1, q.st()));
  const ContactFrame f2 = contact_frame(body2.evaluate(q.patch_2, q.uv()));
  Pose align;
  align.q_WB = Quat(contact_alignment(q.psi())).normalized();
  return compose(compose(frame_pose(f2), align), inverse(frame_pose(f1)));
}

ContactKinematics contact_kinematics(const ContactSurface& body1, const ContactSurface& body2,
                                     const ContactCoordinates& q) {
  ContactKinematics k;
  k.psi = q.psi();
  k.frame_1 = contact_frame(body1.evaluate(q.patch_1, q.st()));
  k.frame_2 = contact_frame(body2.evaluate(q.patch_2, q.uv()));
  const ContactFrame& f1 = k.frame_1;
  const ContactFrame& f2 = k.frame_2;

  // pose (P9), built from the exact frame matrices (not re-orthonormalized quaternions) for the
  // adjoints
  const Mat3 R_psi = contact_alignment(q.psi());
  const Mat3 R_2_1 = f2.Theta * R_psi * f1.Theta.transpose();
  k.X_21.q_WB = Quat(R_2_1).normalized();
  k.X_21.p_WB = f2.c - R_2_1 * f1.c;

  // ^{1c}H = (−H_1, A_ψ H_2, e_3)   (P55-56 with the sign fix of docs/hybrid.md "Sign conventions")
  k.H_1c.leftCols<2>() = -f1.H;
  k.H_1c.middleCols<2>(2) = block_diag(R_psi) * f2.H;
  k.H_1c.col(4).setZero();
  k.H_1c(2, 4) = 1.0;

  k.Ad_1_1c = pivot::adjoint(f1.Theta, f1.c);
  k.H_1 = k.Ad_1_1c * k.H_1c;
  return k;
}

void set_contact_rates(ContactKinematics& k, const Vec5& qdot) {
  const ContactFrame& f1 = k.frame_1;
  const ContactFrame& f2 = k.frame_2;
  const double sd = qdot[0], td = qdot[1], ud = qdot[2], vd = qdot[3], psid = qdot[4];

  // ^{1c}Ḣ (P57 with the TYPO fix)
  const Mat6 A_psi = block_diag(contact_alignment(k.psi));
  const Mat6 A_psi_dot = block_diag(contact_alignment_derivative(k.psi)) * psid;
  k.Hdot_1c.leftCols<2>() = -(f1.H_u * sd + f1.H_v * td);
  k.Hdot_1c.middleCols<2>(2) = A_psi_dot * f2.H + A_psi * (f2.H_u * ud + f2.H_v * vd);
  k.Hdot_1c.col(4).setZero();

  // ^1_{1c}Ȧd (T 4.18)
  const Mat3 Theta_dot = f1.Theta_u * sd + f1.Theta_v * td;
  const Vec3 c_dot = f1.c_u * sd + f1.c_v * td;
  k.Addot_1_1c.setZero();
  k.Addot_1_1c.topLeftCorner<3, 3>() = Theta_dot;
  k.Addot_1_1c.bottomRightCorner<3, 3>() = Theta_dot;
  k.Addot_1_1c.bottomLeftCorner<3, 3>() = skew(c_dot) * f1.Theta + skew(f1.c) * Theta_dot;

  k.Hdot_1 = k.Addot_1_1c * k.H_1c + k.Ad_1_1c * k.Hdot_1c;
}

ContactKinematics contact_kinematics(const ContactSurface& body1, const ContactSurface& body2,
                                     const ContactCoordinates& q, const Vec5& qdot) {
  ContactKinematics k = contact_kinematics(body1, body2, q);
  set_contact_rates(k, qdot);
  return k;
}

namespace {

// ^1_2Ad = Ad((^2_1E)⁻¹)
Mat6 adjoint_1_2(const ContactKinematics& k) {
  return adjoint(inverse(k.X_21));
}

}  // namespace

Vec6 body1_twist(const ContactKinematics& k, const Vec6& V2_2, const Vec5& qdot) {
  return adjoint_1_2(k) * V2_2 + k.H_1 * qdot;
}

Vec6 body1_bias_acceleration(const ContactKinematics& k, const Vec6& V2_2, const Vec5& qdot) {
  const Vec6 phi_rel = k.H_1 * qdot;
  return -motion_cross(phi_rel) * (adjoint_1_2(k) * V2_2) + k.Hdot_1 * qdot;
}

ContactRates contact_rates(const ContactKinematics& k, const Vec6& V1_1, const Vec6& V2_2) {
  // ^1φ(2,1) = ^1φ_1 − ^1_2Ad ^2φ_2, then to 1c: ^{1c}_1Ad = (^1_{1c}Ad)⁻¹
  const Vec6 phi_rel_1 = V1_1 - adjoint_1_2(k) * V2_2;
  Pose X_1_1c;
  X_1_1c.p_WB = k.frame_1.c;
  X_1_1c.q_WB = Quat(k.frame_1.Theta).normalized();
  const Vec6 phi_rel_1c = adjoint(inverse(X_1_1c)) * phi_rel_1;
  ContactRates r;
  const Mat5 H_hat = k.H_1c.topRows<5>();
  r.qdot = H_hat.partialPivLu().solve(phi_rel_1c.head<5>());
  r.separation_rate = -phi_rel_1c[5];
  return r;
}

}  // namespace pivot::detail
