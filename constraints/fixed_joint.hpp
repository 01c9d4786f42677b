#pragma once
// Fixed (weld) joint: relative rotation and one common point locked; 6 rows, no freedom.
// Cline 2002 has no weld; it combines the rotation rows of eq. 4.10
// ("method 2") with the ball rows of eq. 4.1, 4.5–4.6.
//
// Rows 0–2, rotation lock (eq. 4.10 method 2 as a quaternion error):
//   q_err = q_A · q_rel0 · q_B⁻¹,  q_rel0 = q_A0⁻¹ q_B0,   g = φ = quat_log(q_err)
//   J_A = (I, 0),  J_B = (−I, 0)   (exact at φ = 0; columns off by ≤ ≈|φ|/2 near it)
// Rows 3–5, ball (eq. 4.1, 4.5–4.6 with the corrected B sign):
//   g = p_A − p_B,  J_A = ([r_A], I),  J_B = (−[r_B], −I),  r_X = x_X − p_X   (exact)

#include <string>

#include "pivot/constraints/joint.hpp"

namespace pivot {

/// settings of a fixed joint, given in world coordinates at the initial poses
struct FixedJointSettings {
  std::string name{};  ///< joint name, used in messages and scene files
  /// m, world; the welded point, attached to A and B. Any point gives the same constraint set;
  /// a point between the two bodies keeps the rows well scaled.
  Vec3 anchor_W = Vec3::Zero();
};

class FixedJoint final : public Joint {
 public:
  /// Creates the weld between body_a and body_b (kWorldBody allowed) at their initial poses
  /// A0, B0 (the world's pose is the identity); g = 0 at (A0, B0), and the initial relative
  /// rotation is kept. Throws pivot::Error naming the joint for a non-finite anchor
  /// or pose, or bad body indices.
  FixedJoint(const FixedJointSettings& settings, int body_a, int body_b, const Pose& A0,
             const Pose& B0);

  [[nodiscard]] JointType type() const override { return JointType::fixed; }
  [[nodiscard]] Vec3 anchor_in_A() const override { return anchor_A_; }
  /// 6
  [[nodiscard]] int equality_rows() const override { return 6; }
  /// rows 0–2 rotation lock, rows 3–5 ball (see the top of this file)
  void equality(const Pose& A, const Pose& B, ConstraintRows& out) const override;
  [[nodiscard]] double equality_error(const Pose& A, const Pose& B,
                                      ConstraintRows& scratch) const override;

  /// the initial relative rotation q_A0⁻¹ q_B0
  [[nodiscard]] const Quat& initial_relative_rotation() const { return q_rel0_; }

 private:
  Vec3 anchor_A_, anchor_B_;
  Quat q_rel0_;
};

}  // namespace pivot
