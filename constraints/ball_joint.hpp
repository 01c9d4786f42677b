#pragma once
// Ball (spherical) joint: one point of body A coincides with one point of body B; 3 rows,
// 3 rotational degrees of freedom left.
//
//   g = p_A − p_B                      (Cline 2002 eq. 4.1)
//   J_A = ([r_A], I),  J_B = (−[r_B], −I),  r_X = x_X − p_X   (eq. 4.5–4.6 with the B sign
//   corrected)
// p_X is the anchor point fixed in body X, in world coordinates. The Jacobian is exact.

#include <string>

#include "pivot/constraints/joint.hpp"

namespace pivot {

/// settings of a ball joint, given in world coordinates at the initial poses
struct BallJointSettings {
  std::string name{};            ///< joint name, used in messages and scene files
  Vec3 anchor_W = Vec3::Zero();  ///< m, world; the joint point, attached to A and B
};

class BallJoint final : public Joint {
 public:
  /// Creates the joint between body_a and body_b (kWorldBody allowed) at their initial poses
  /// A0, B0 (the world's pose is the identity); the anchor is stored in each body's frame, so
  /// g = 0 at (A0, B0). Throws pivot::Error naming the joint for a non-finite anchor
  /// or pose, or invalid body indices.
  BallJoint(const BallJointSettings& settings, int body_a, int body_b, const Pose& A0,
            const Pose& B0);

  [[nodiscard]] JointType type() const override { return JointType::ball; }
  [[nodiscard]] Vec3 anchor_in_A() const override { return anchor_A_; }
  /// 3
  [[nodiscard]] int equality_rows() const override { return 3; }
  /// rows 0–2: g = p_A − p_B with the Jacobian above
  void equality(const Pose& A, const Pose& B, ConstraintRows& out) const override;
  [[nodiscard]] double equality_error(const Pose& A, const Pose& B,
                                      ConstraintRows& scratch) const override;

  /// the anchor in A's body frame (m)
  [[nodiscard]] const Vec3& anchor_A() const { return anchor_A_; }
  /// the anchor in B's body frame (m; world coordinates when B is the world)
  [[nodiscard]] const Vec3& anchor_B() const { return anchor_B_; }

 private:
  Vec3 anchor_A_;
  Vec3 anchor_B_;
};

}  // namespace pivot
