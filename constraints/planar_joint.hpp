#pragma once
// Planar joint: B moves in a plane of A and turns only about the plane's normal; 3 rows, 3
// degrees of freedom (two translations in the plane, one rotation about the normal). URDF's
// `planar` joint; the rows are the slider's point-on-plane row and the hinge's axis rows.
//
// Row 0, point on plane (the slider's point-on-line row with the normal, slider_joint.hpp):
// n unit, fixed in A; d = p_B − p_A (anchor of B minus anchor of A, world):
//   g_0 = n·d,   ġ_0 = ω_A·(n × (p_B − x_A)) − n·v_A + ω_B·((p_B − x_B) × n) + n·v_B   (exact)
// Rows 1–2, axis alignment (the hinge's rows 3–4, hinge_joint.hpp): a = n fixed in A, b1, b2
// unit vectors fixed in B, perpendicular to the normal at creation:
//   g_i = a·b_i,   ġ_i = ω_A·(a × b_i) − ω_B·(a × b_i)   (exact)

#include <string>

#include "pivot/constraints/joint.hpp"

namespace pivot {

/// settings of a planar joint, given in world coordinates at the initial poses
struct PlanarJointSettings {
  std::string name{};             ///< joint name, used in messages and scene files
  Vec3 anchor_W = Vec3::Zero();   ///< m, world; a point of the plane, on A and B
  Vec3 normal_W = Vec3::UnitZ();  ///< world direction of the plane's normal, fixed in A
};

class PlanarJoint final : public Joint {
 public:
  /// Creates the joint between body_a and body_b (kWorldBody allowed) at their initial poses
  /// A0, B0 (the world's pose is the identity); g = 0 at (A0, B0). Throws pivot::Error naming
  /// the joint for a zero or non-finite normal, a non-finite anchor or pose, or bad body
  /// indices.
  PlanarJoint(const PlanarJointSettings& settings, int body_a, int body_b, const Pose& A0,
              const Pose& B0);

  [[nodiscard]] JointType type() const override { return JointType::planar; }
  /// 3
  [[nodiscard]] int equality_rows() const override { return 3; }
  /// row 0 point on plane, rows 1–2 axis alignment (see the top of this file)
  void equality(const Pose& A, const Pose& B, ConstraintRows& out) const override;
  [[nodiscard]] Vec3 anchor_in_A() const override { return anchor_A_; }

  /// the plane's normal in A's body frame (unit)
  [[nodiscard]] const Vec3& normal_A() const { return normal_A_; }

 private:
  Vec3 anchor_A_, anchor_B_;
  Vec3 normal_A_;     // n = a, in A
  Vec3 b1_B_, b2_B_;  // in B, perpendicular to the normal at creation
};

}  // namespace pivot
