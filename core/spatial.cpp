#include "pivot/core/spatial.hpp"

#include <cmath>

namespace pivot {

Mat3 skew(const Vec3& a) {
  Mat3 m;
  m << 0.0, -a.z(), a.y(),  //
      a.z(), 0.0, -a.x(),   //
      -a.y(), a.x(), 0.0;
  return m;
}

Quat quat_exp(const Vec3& phi) {
  const double angle = phi.norm();
  const double half = 0.5 * angle;
  // sin(a/2)/a, with its Taylor series near 0 so tiny rotations stay exact
  const double s = angle < 1e-8 ? 0.5 - angle * angle / 48.0 : std::sin(half) / angle;
  Quat q(std::cos(half), s * phi.x(), s * phi.y(), s * phi.z());
  return q.normalized();
}

Vec3 quat_log(const Quat& q_in) {
  Quat q = q_in.normalized();
  if (q.w() < 0.0) q.coeffs() = -q.coeffs();  // positive hemisphere: q and −q are one rotation
  const Vec3 v = q.vec();
  const double s = v.norm();
  if (s < 1e-12) return 2.0 * v;  // angle ≈ 2 s
  const double angle = 2.0 * std::atan2(s, q.w());
  return (angle / s) * v;
}

Pose integrate(const Pose& pose, const Vec6& d) {
  Pose out;
  out.p_WB = pose.p_WB + d.tail<3>();
  out.q_WB = (quat_exp(d.head<3>()) * pose.q_WB).normalized();
  return out;
}

Mat6 shift_twist(const Vec3& r) {
  Mat6 m = Mat6::Identity();
  m.block<3, 3>(3, 0) = -skew(r);
  return m;
}

Mat6 adjoint(const Mat3& R, const Vec3& p) {
  Mat6 m = Mat6::Zero();
  m.block<3, 3>(0, 0) = R;
  m.block<3, 3>(3, 3) = R;
  m.block<3, 3>(3, 0) = skew(p) * R;
  return m;
}

}  // namespace pivot
