#pragma once
// Universal (Cardan) joint: a ball joint plus one row keeping axis_a (fixed in A) and axis_b
// (fixed in B) at their initial angle; 4 rows, 2 rotational degrees of freedom (about axis_a
// and about axis_b).
//
// Rows 0–2, ball (Cline 2002 eq. 4.1, 4.5–4.6):
//   g = p_A − p_B,  J_A = ([r_A], I),  J_B = (−[r_B], −I),  r_X = x_X − p_X
// Row 3, axis angle (exact dot-product form of Cline's forbidden-axis row, §4.4.1):
//   g = a·b − (a·b)₀,   ġ = ω_A·(a × b) − ω_B·(a × b)   (exact everywhere)
// a × b is Cline's forbidden axis l (up to its length |a × b| = sin of the axis angle).

#include <string>

#include "pivot/constraints/joint.hpp"

namespace pivot {

/// settings of a universal joint, given in world coordinates at the initial poses
struct UniversalJointSettings {
  std::string name{};             ///< joint name, used in messages and scene files
  Vec3 anchor_W = Vec3::Zero();   ///< m, world; the joint centre, attached to A and B
  Vec3 axis_a_W = Vec3::UnitX();  ///< world direction of the axis fixed in A (normalized)
  Vec3 axis_b_W = Vec3::UnitY();  ///< world direction of the axis fixed in B (normalized)
};

class UniversalJoint final : public Joint {
 public:
  /// smallest allowed |axis_a × axis_b| (unit axes), i.e. the axes must be at least
  /// asin(0.01) ≈ 0.57° from parallel; usually they are orthogonal (|a × b| = 1)
  static constexpr double kMinAxisSine = 0.01;

  /// Creates the joint between body_a and body_b (kWorldBody allowed) at their initial poses
  /// A0, B0 (the world's pose is the identity); g = 0 at (A0, B0). Throws
  /// pivot::Error naming the joint for a zero or non-finite axis, (nearly) parallel
  /// axes (|a × b| < kMinAxisSine), a non-finite anchor or pose, or bad body indices.
  UniversalJoint(const UniversalJointSettings& settings, int body_a, int body_b, const Pose& A0,
                 const Pose& B0);

  [[nodiscard]] JointType type() const override { return JointType::universal; }
  [[nodiscard]] Vec3 anchor_in_A() const override { return anchor_A_; }
  /// 4
  [[nodiscard]] int equality_rows() const override { return 4; }
  /// rows 0–2 ball, row 3 axis angle (see the top of this file)
  void equality(const Pose& A, const Pose& B, ConstraintRows& out) const override;
  [[nodiscard]] double equality_error(const Pose& A, const Pose& B,
                                      ConstraintRows& scratch) const override;

  /// axis_a in A's body frame (unit)
  [[nodiscard]] const Vec3& axis_A() const { return axis_A_; }
  /// axis_b in B's body frame (unit)
  [[nodiscard]] const Vec3& axis_B() const { return axis_B_; }
  /// (a·b) at creation, the cosine of the axis angle held by row 3
  [[nodiscard]] double initial_cosine() const { return cos0_; }

 private:
  Vec3 anchor_A_, anchor_B_;
  Vec3 axis_A_, axis_B_;
  double cos0_ = 0.0;
};

}  // namespace pivot
