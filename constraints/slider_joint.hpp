#pragma once
// Slider (prismatic) joint: relative rotation locked and the B anchor kept on the line through
// the A anchor along the axis; 5 rows, 1 translational degree of freedom (the displacement s).
// Cline 2002 has no slider; it is built from the rotation rows of eq. 4.10
// ("method 2") and point-on-line rows in the style of eq. 4.1.
//
// Rows 0–2, rotation lock (eq. 4.10 method 2 as a quaternion error):
//   q_err = q_A · q_rel0 · q_B⁻¹,  q_rel0 = q_A0⁻¹ q_B0,   g = φ = quat_log(q_err)
//   J_A = (I, 0),  J_B = (−I, 0)   (exact at φ = 0; columns off by ≤ ≈|φ|/2 near it)
// Rows 3–4, point on line: t1, t2 unit, perpendicular to the axis, fixed in A;
// d = p_B − p_A (anchor of B minus anchor of A, world):
//   g_i = t_i·d,   ġ_i = ω_A·(t_i × (p_B − x_A)) − t_i·v_A + ω_B·((p_B − x_B) × t_i) + t_i·v_B
// (exact, including the rotation of t_i with A: d/dt(t·d) = ω_A·(t × d) + t·ḋ).
// Displacement (coordinate()): s = t0·d with t0 the axis fixed in A, in m, 0 at creation,
// positive when B's anchor moves along +axis relative to A; ṡ has the same row form with t0.

#include <optional>
#include <string>

#include "pivot/constraints/joint.hpp"

namespace pivot {

/// settings of a slider joint, given in world coordinates at the initial poses
struct SliderJointSettings {
  std::string name{};                   ///< joint name, used in messages and scene files
  Vec3 anchor_W = Vec3::Zero();         ///< m, world; a point on the sliding line, on A and B
  Vec3 axis_W = Vec3::UnitX();          ///< world direction of sliding, fixed in A (normalized)
  std::optional<JointLimits> limits{};  ///< m, on the displacement s; none by default
  std::optional<JointMotor> motor{};    ///< m/s and N·s, on ṡ; none by default
  JointDynamics dynamics{};  ///< N·s/m, N: damping and Coulomb friction; none by default
};

class SliderJoint final : public Joint {
 public:
  /// Creates the joint between body_a and body_b (kWorldBody allowed) at their initial poses
  /// A0, B0 (the world's pose is the identity); g = 0 and s = 0 at (A0, B0), and the initial
  /// relative rotation is kept. Throws pivot::Error naming the joint for a zero or
  /// non-finite axis, a non-finite anchor or pose, limits with lower > upper, a motor with
  /// max_impulse < 0, negative or non-finite dynamics, or bad body indices.
  SliderJoint(const SliderJointSettings& settings, int body_a, int body_b, const Pose& A0,
              const Pose& B0);

  [[nodiscard]] JointType type() const override { return JointType::slider; }
  /// 5
  [[nodiscard]] int equality_rows() const override { return 5; }
  /// rows 0–2 rotation lock, rows 3–4 point on line (see the top of this file)
  void equality(const Pose& A, const Pose& B, ConstraintRows& out) const override;
  /// the displacement s = t0·(p_B − p_A) in m, 0 at creation
  [[nodiscard]] double coordinate(const Pose& A, const Pose& B) const override;
  [[nodiscard]] Vec3 anchor_in_A() const override { return anchor_A_; }
  /// g = s − lower ≥ 0 (J = ds/dt row) and g = upper − s ≥ 0 (J = −ds/dt row), each only when
  /// its g ≤ margin (m); none without limits
  void limits(const Pose& A, const Pose& B, double margin, ConstraintRows& out) const override;
  /// the row with J_A v_A + J_B v_B = ds/dt, the target and the impulse bound; none without motor
  [[nodiscard]] std::optional<MotorRow> motor(const Pose& A, const Pose& B) const override;
  [[nodiscard]] JointDynamics dynamics() const override { return dynamics_; }
  /// the rate row of coordinate(): the motor's row, with or without a motor
  bool coordinate_row(const Pose& A, const Pose& B, Row6& J_A, Row6& J_B) const override;

  /// the sliding axis in A's body frame (unit)
  [[nodiscard]] const Vec3& axis_A() const { return t_A_[0]; }
  /// the initial relative rotation q_A0⁻¹ q_B0
  [[nodiscard]] const Quat& initial_relative_rotation() const { return q_rel0_; }

 private:
  /// t·(p_B − p_A) for the A-fixed direction t_A and its rate row (j_A, j_B)
  double along(const Pose& A, const Pose& B, const Vec3& t_A, Eigen::Matrix<double, 1, 6>* j_A,
               Eigen::Matrix<double, 1, 6>* j_B) const;

  Vec3 anchor_A_, anchor_B_;
  Vec3 t_A_[3];  // axis t0 and perpendiculars t1, t2, in A
  Quat q_rel0_;
  std::optional<JointLimits> limits_;
  std::optional<JointMotor> motor_;
  JointDynamics dynamics_;
};

}  // namespace pivot
