#pragma once
// Hinge (revolute) joint: a ball joint plus two rows keeping the hinge axis of A aligned with
// the hinge axis of B; 5 rows, 1 rotational degree of freedom (the hinge angle θ).
//
// Rows 0–2, ball (Cline 2002 eq. 4.1, 4.5–4.6):
//   g = p_A − p_B,  J_A = ([r_A], I),  J_B = (−[r_B], −I),  r_X = x_X − p_X
// Rows 3–4, axis alignment (replaces Cline's forbidden-axis rows, eq. 4.9–4.10, by an exact
// dot-product form): a = hinge axis fixed in A, b1, b2 unit vectors fixed in B, perpendicular to
// the axis at creation (b2 = axis × b1):
//   g_i = a·b_i,   ġ_i = ω_A·(a × b_i) − ω_B·(a × b_i)   (exact everywhere)
// On the manifold these rows are ω-components along b2 and −b1, i.e. the forbidden axes.
// Note: a = −(b1 × b2) (B flipped by 180°) also gives g = 0; it is unreachable by continuous
// motion from the initial configuration without a large violation.
//
// Hinge angle θ (coordinate()): with u fixed in A (= b1 at creation) and w = a × u fixed in A,
//   θ = atan2(w·b1, u·b1) ∈ (−π, π],   the rotation of B relative to A about the axis as given
// at creation (right-hand rule), 0 at creation. Its exact rate is θ̇ = k·ω_A − k·ω_B with
//   k = (c (w × b1) − s (u × b1)) / (c² + s²),  c = u·b1, s = w·b1
// (k = −a on the manifold, so θ̇ = a·(ω_B − ω_A)). Limit and motor rows use this rate.

#include <optional>
#include <string>

#include "pivot/constraints/joint.hpp"

namespace pivot {

/// settings of a hinge joint, given in world coordinates at the initial poses
struct HingeJointSettings {
  std::string name{};                   ///< joint name, used in messages and scene files
  Vec3 anchor_W = Vec3::Zero();         ///< m, world; a point on the hinge axis
  Vec3 axis_W = Vec3::UnitZ();          ///< world direction of the hinge axis (normalized)
  std::optional<JointLimits> limits{};  ///< rad, on the hinge angle θ; none by default
  std::optional<JointMotor> motor{};    ///< rad/s and N·m·s, on θ̇; none by default
  JointDynamics dynamics{};  ///< N·m·s/rad, N·m: damping and Coulomb friction; none by default
};

class HingeJoint final : public Joint {
 public:
  /// Creates the joint between body_a and body_b (kWorldBody allowed) at their initial poses
  /// A0, B0 (the world's pose is the identity); g = 0 and θ = 0 at (A0, B0). Throws
  /// pivot::Error naming the joint for a zero or non-finite axis, a non-finite anchor
  /// or pose, limits with lower > upper, a motor with max_impulse < 0, negative or
  /// non-finite dynamics, or bad body indices.
  HingeJoint(const HingeJointSettings& settings, int body_a, int body_b, const Pose& A0,
             const Pose& B0);

  [[nodiscard]] JointType type() const override { return JointType::hinge; }
  /// 5
  [[nodiscard]] int equality_rows() const override { return 5; }
  /// rows 0–2 ball, rows 3–4 axis alignment (see the top of this file)
  void equality(const Pose& A, const Pose& B, ConstraintRows& out) const override;
  [[nodiscard]] double equality_error(const Pose& A, const Pose& B,
                                      ConstraintRows& scratch) const override;
  /// the hinge angle θ in rad, in (−π, π], 0 at creation
  [[nodiscard]] double coordinate(const Pose& A, const Pose& B) const override;
  [[nodiscard]] Vec3 anchor_in_A() const override { return anchor_A_; }
  /// g = θ − lower ≥ 0 (J = dθ/dt row) and g = upper − θ ≥ 0 (J = −dθ/dt row), each only when
  /// its g ≤ margin (rad); none without limits
  void limits(const Pose& A, const Pose& B, double margin, ConstraintRows& out) const override;
  /// the row with J_A v_A + J_B v_B = dθ/dt, the target and the impulse bound; none without motor
  [[nodiscard]] std::optional<MotorRow> motor(const Pose& A, const Pose& B) const override;
  [[nodiscard]] JointDynamics dynamics() const override { return dynamics_; }
  /// the rate row of coordinate(): the motor's row, with or without a motor
  bool coordinate_row(const Pose& A, const Pose& B, Row6& J_A, Row6& J_B) const override;

  /// the hinge axis in A's body frame (unit)
  [[nodiscard]] const Vec3& axis_A() const { return axis_A_; }
  /// the anchor in A's body frame (m)
  [[nodiscard]] const Vec3& anchor_A() const { return anchor_A_; }
  /// the anchor in B's body frame (m)
  [[nodiscard]] const Vec3& anchor_B() const { return anchor_B_; }

 private:
  /// θ and its rate row: θ̇ = j_A v_A + j_B v_B
  double angle(const Pose& A, const Pose& B, Eigen::Matrix<double, 1, 6>* j_A,
               Eigen::Matrix<double, 1, 6>* j_B) const;

  Vec3 anchor_A_, anchor_B_;
  Vec3 axis_A_;       // a, in A
  Vec3 u_A_, w_A_;    // angle reference, in A: u ⊥ a, w = a × u
  Vec3 b1_B_, b2_B_;  // in B, perpendicular to the axis at creation
  std::optional<JointLimits> limits_;
  std::optional<JointMotor> motor_;
  JointDynamics dynamics_;
};

}  // namespace pivot
