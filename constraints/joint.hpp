#pragma once
// The joint interface shared by every joint type (one file per type in constraints/).
//
// A joint couples body A and body B (B may be the world). At poses (A, B) it gives
//   equality rows:   g_e(p) = 0 wanted,  with Jacobian blocks J_A, J_B
//   limit rows:      g_l(p) ≥ 0 wanted (unilateral), only those within a margin of their bound
//   a motor row:     J_m v⁺ = target, with |λ_m| ≤ max_impulse
// Every Jacobian is a twist Jacobian (angular first, world-aligned at each body's centre of
// mass, Cline 2002 §2.5.2), consistent in sign with its g:  d/dt g = J_A v_A + J_B v_B.
// tests/constraints checks this by finite differences for every joint; the post-stabilization
// step J dp = −g relies on it (the printed sign of J_B in Cline eq. 4.6 is wrong; checked by finite
// differences in tests/constraints).

#include <Eigen/Core>
#include <optional>
#include <string>

#include "pivot/core/spatial.hpp"

namespace pivot {

/// index of the world (a fixed body with the identity pose) where a body index is expected
inline constexpr int kWorldBody = -1;

/// rows of a constraint evaluated at a pose pair
struct ConstraintRows {
  using Jacobian = Eigen::Matrix<double, Eigen::Dynamic, 6, Eigen::RowMajor>;
  Eigen::VectorXd g;  ///< g(p), one entry per row
  Jacobian J_A;       ///< ∂ġ/∂v_A, rows × 6
  Jacobian J_B;       ///< ∂ġ/∂v_B, rows × 6 (ignored when B is the world)

  void resize(int rows) {
    g.setZero(rows);
    J_A.setZero(rows, 6);
    J_B.setZero(rows, 6);
  }
  /// the size alone, the entries left as they are: for a writer that sets every entry
  void resize_for_overwrite(int rows) {
    g.resize(rows);
    J_A.resize(rows, 6);
    J_B.resize(rows, 6);
  }
  [[nodiscard]] int rows() const { return static_cast<int>(g.size()); }
};

/// a velocity motor on a joint's free coordinate: J_A v_A + J_B v_B = target_velocity,
/// with the motor impulse bounded by ±max_impulse
struct MotorRow {
  Eigen::Matrix<double, 1, 6> J_A = Eigen::Matrix<double, 1, 6>::Zero();
  Eigen::Matrix<double, 1, 6> J_B = Eigen::Matrix<double, 1, 6>::Zero();
  double target_velocity = 0.0;  ///< rad/s (hinge) or m/s (slider)
  double max_impulse = 0.0;      ///< N·m·s (hinge) or N·s (slider), ≥ 0
};

/// optional limits on a joint's free coordinate, lower ≤ upper
struct JointLimits {
  double lower = 0.0;  ///< rad (hinge) or m (slider)
  double upper = 0.0;  ///< rad (hinge) or m (slider)
};

/// optional motor settings
struct JointMotor {
  double target_velocity = 0.0;  ///< rad/s or m/s
  double max_impulse = 0.0;      ///< per step: N·m·s or N·s, ≥ 0
};

/// passive dynamics of a joint's free coordinate q (URDF's <dynamics damping friction>): a
/// viscous effort −d q̇ and a Coulomb friction effort of magnitude ≤ f that opposes motion (it
/// holds q̇ = 0 while the other efforts on q stay below f). The engine makes each a bounded row
/// of the step's LCP on q̇'s row (engine/world_joint_dynamics.cpp); zero means none (no row)
struct JointDynamics {
  double damping = 0.0;   ///< d: N·m·s/rad (hinge) or N·s/m (slider), finite, ≥ 0
  double friction = 0.0;  ///< f: N·m (hinge) or N (slider), finite, ≥ 0
};

enum class JointType { ball, hinge, universal, slider, fixed, planar };

/// name of a joint type as written in scene files ("ball", "hinge", ...)
[[nodiscard]] const char* to_string(JointType type);

class Joint {
 public:
  Joint(std::string name, int body_a, int body_b)
      : name_(std::move(name)), body_a_(body_a), body_b_(body_b) {}
  virtual ~Joint() = default;
  Joint(const Joint&) = delete;
  Joint& operator=(const Joint&) = delete;

  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] int body_a() const { return body_a_; }
  /// the second body, or kWorldBody
  [[nodiscard]] int body_b() const { return body_b_; }

  [[nodiscard]] virtual JointType type() const = 0;
  /// number of equality rows (ball 3, hinge 5, universal 4, slider 5, fixed 6, planar 3)
  [[nodiscard]] virtual int equality_rows() const = 0;
  /// equality rows at poses A, B (B is the identity pose for the world); out is resized
  virtual void equality(const Pose& A, const Pose& B, ConstraintRows& out) const = 0;
  /// max |g_e| of the equality rows at poses A, B, the same value (to the bit) as equality()'s
  /// g gives, NaN when an entry is NaN; `scratch` is storage an implementation may use for the
  /// rows. The joints whose g is cheaper alone (ball, hinge, universal, fixed) compute it
  /// without the Jacobians.
  [[nodiscard]] virtual double equality_error(const Pose& A, const Pose& B,
                                              ConstraintRows& scratch) const;

  /// the joint's free coordinate (hinge angle in rad, slider displacement in m) measured from
  /// the initial configuration; 0 for joints without a single free coordinate
  [[nodiscard]] virtual double coordinate(const Pose& /*A*/, const Pose& /*B*/) const {
    return 0.0;
  }
  /// the rate of coordinate() at poses A, B and twists v_A, v_B (rad/s or m/s; 0 for joints
  /// without a single free coordinate): J_A v_A + J_B v_B with the rows of coordinate_row
  [[nodiscard]] double coordinate_rate(const Pose& A, const Pose& B, const Vec6& v_A,
                                       const Vec6& v_B) const {
    Row6 J_A, J_B;
    if (!coordinate_row(A, B, J_A, J_B)) return 0.0;
    return (J_A * v_A + J_B * v_B)(0);
  }
  /// the anchor point fixed in body A, in A's frame (m): where the joint's reaction is reported
  [[nodiscard]] virtual Vec3 anchor_in_A() const { return Vec3::Zero(); }
  /// limit rows whose bound is within `margin` of being reached (0, 1 or 2 rows),
  /// g = coordinate − lower ≥ 0 and g = upper − coordinate ≥ 0; out is resized
  virtual void limits(const Pose& /*A*/, const Pose& /*B*/, double /*margin*/,
                      ConstraintRows& out) const {
    out.resize(0);
  }
  /// the rate row of the joint's free coordinate, q̇ = J_A v_A + J_B v_B (hinge angle θ in
  /// rad, slider displacement in m); false for joints without a single free coordinate
  virtual bool coordinate_row(const Pose& /*A*/, const Pose& /*B*/, Row6& /*J_A*/,
                              Row6& /*J_B*/) const {
    return false;
  }
  /// the damping and friction of the free coordinate (zero for joints without one)
  [[nodiscard]] virtual JointDynamics dynamics() const { return {}; }
  /// the motor row, if this joint has a motor
  [[nodiscard]] virtual std::optional<MotorRow> motor(const Pose& /*A*/, const Pose& /*B*/) const {
    return std::nullopt;
  }

 private:
  std::string name_;
  int body_a_;
  int body_b_;
};

}  // namespace pivot
