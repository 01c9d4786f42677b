#pragma once
// Spatial algebra in Cline's conventions (Cline 2002, §2.1–2.4):
// twists are angular first, (ω; v), world-aligned at the body's centre of mass; wrenches are
// (τ; f). Quaternions are Eigen's (stored x, y, z, w): never copy coefficient arrays to or from
// files, which write [w, x, y, z].

#include <Eigen/Core>
#include <Eigen/Geometry>
#include <cmath>
#include <limits>

namespace pivot {

using Vec3 = Eigen::Vector3d;
using Vec6 = Eigen::Matrix<double, 6, 1>;
using Mat3 = Eigen::Matrix3d;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Quat = Eigen::Quaterniond;
/// one Jacobian row (1 × 6, angular first), as it multiplies a twist
using Row6 = Eigen::Matrix<double, 1, 6>;

/// A twist (ω; v), angular first: the angular velocity and the velocity of the reference point
/// (for a body, its centre of mass), both in world axes. A Vec6 with names for its halves, so
/// code reads `V.v().z()` instead of `V(5)`; converts to and from Vec6 expressions.
class Twist : public Vec6 {
 public:
  Twist() : Vec6(Vec6::Zero()) {}
  Twist(const Vec3& w, const Vec3& v) {
    head<3>() = w;
    tail<3>() = v;
  }
  template <typename Derived>
  Twist(const Eigen::MatrixBase<Derived>& other) : Vec6(other) {}  // NOLINT: implicit on purpose
  template <typename Derived>
  Twist& operator=(const Eigen::MatrixBase<Derived>& other) {
    Vec6::operator=(other);
    return *this;
  }
  /// ω, rad/s
  [[nodiscard]] auto w() { return head<3>(); }
  [[nodiscard]] auto w() const { return head<3>(); }
  /// v, m/s
  [[nodiscard]] auto v() { return tail<3>(); }
  [[nodiscard]] auto v() const { return tail<3>(); }
};

/// Pose of a body: centre of mass in world (`p_WB`) and orientation body→world (`q_WB`).
struct Pose {
  Vec3 p_WB = Vec3::Zero();
  Quat q_WB = Quat::Identity();

  /// a point given in the body frame, in world coordinates
  [[nodiscard]] Vec3 to_world(const Vec3& p_B) const { return p_WB + q_WB * p_B; }
  /// a direction given in the body frame, in world coordinates
  [[nodiscard]] Vec3 rotate(const Vec3& d_B) const { return q_WB * d_B; }
  /// every coordinate of the position and the quaternion is finite
  [[nodiscard]] bool all_finite() const { return p_WB.allFinite() && q_WB.coeffs().allFinite(); }
};

/// v / ‖v‖ for a non-zero vector or quaternion, but v itself when it is already unit to rounding
/// (|‖v‖ − 1| ≤ 4ε): normalizing a unit vector again can move its last bit (normalizing [1, 0, 1]
/// gives 0.7071067811865475, normalizing that again 0.7071067811865476), and a scene's resolved
/// form would not read back the same (found by the scene-loader fuzz target)
template <typename V>
[[nodiscard]] V unit_to_rounding(const V& v) {
  if (std::abs(v.norm() - 1.0) <= 4.0 * std::numeric_limits<double>::epsilon()) return v;
  return v.normalized();
}

/// [a], the cross-product matrix: skew(a) * x == a.cross(x)  (Cline eq. 2.7)
[[nodiscard]] Mat3 skew(const Vec3& a);

/// exp of a rotation vector φ (angle |φ| about φ/|φ|) as a unit quaternion; exact for small |φ|
[[nodiscard]] Quat quat_exp(const Vec3& phi);

/// log of a unit quaternion: the rotation vector φ with |φ| ≤ π (q and −q give the same φ)
[[nodiscard]] Vec3 quat_log(const Quat& q);

/// the pose moved by a twist displacement (δθ; δx) given angular first in world axes:
/// x ← x + δx, q ← normalize(exp(δθ) q). Used for p(t+h) = p(t) ⊕ h v and for post-step dp.
[[nodiscard]] Pose integrate(const Pose& pose, const Vec6& twist_displacement);

/// Ad for a frame offset r with no rotation, acting on angular-first twists:
/// the twist at a point offset by r from the reference point,  [[I,0],[-[r], I]].
/// (velocity of a point at x + r is v + ω × r = v − [r] ω)
[[nodiscard]] Mat6 shift_twist(const Vec3& r);

/// the 6x6 adjoint of a rigid transform (R, p) for angular-first twists: [[R, 0], [[p]R, R]]
/// (Cline eq. 2.23)
[[nodiscard]] Mat6 adjoint(const Mat3& R, const Vec3& p);

}  // namespace pivot
