#pragma once
// Muscles of a motion-capture-driven character (Cline 2002 §5.1; docs/character.md).
//
// Each joint between a parent body P and a child body C has free rotation axes a_i, fixed in
// P's frame (three for a ball joint, the hinge axis for a hinge). The muscle basis H (eq. 5.1)
// has one row per free axis: an equal and opposite torque about a_i, +a_i on C and −a_i on P
// (no force), so f_m = Hᵀ τ. Per free axis the torque is (eqs. 5.6–5.8)
//
//   τ_i = ψ_i + γ_i,   γ_i = g_i (k_s (θ_di − θ_i) + k_d (θ̇_di − θ̇_i)),   g_i = max(|ψ_i|, τ_min)
//
// with ψ_i the feed-forward torque from inverse dynamics (stored per sample in P's frame, "body
// coordinates"), the gain scaled by the feed-forward torque's magnitude as in eq. 5.7
// (γ_i = h_i |τ_i| (…)); τ_min is a floor of that scale (not in the thesis; 0 gives eq. 5.7
// exactly, where the gain vanishes with the feed-forward torque). The angle error is the
// rotation vector of the desired relative rotation against the actual one, in P's frame,
//
//   e_P = log(R_PC,d R_PCᵀ),  θ_di − θ_i := a_i · e_P,
//   θ̇_di − θ̇_i := a_i · (ω_PC,d − R_WPᵀ (ω_C − ω_P)),
//
// (the desired values taken a little ahead of t: MuscleTable's leads),
//
// and the joint's torque in world is τ_W = R_WP Σ_i a_i τ_i, +τ_W on C, −τ_W on P.
//
// Gradients for the linearly implicit step (Cline §2.7.4, eq. 2.55): a small rotation δθ_C of
// the child (world) changes e_P by −R_WPᵀ δθ_C and δθ_P by +R_WPᵀ δθ_P, so with
// K = R_WP (Σ_i g_i a_i a_iᵀ) R_WPᵀ:
//
//   ∂τ_W/∂θ_C = −k_s K,  ∂τ_W/∂θ_P = +k_s K,  ∂τ_W/∂ω_C = −k_d K,  ∂τ_W/∂ω_P = +k_d K
//
// (the turning of the axes a_i with P is neglected, as the springs neglect theirs). Kinematic
// and fixed bodies get no gradient rows (they have no velocity unknowns).

#include <vector>

#include "pivot/engine/forces.hpp"

namespace pivot {

/// one joint's muscles: the bodies and the free axes
struct MuscleJoint {
  int parent = 0;           ///< body index of P (may be a kinematic body)
  int child = 0;            ///< body index of C (a dynamic body)
  std::vector<Vec3> axes_P; ///< unit free axes in P's frame (1 for a hinge, 3 for a ball joint)
};

/// one joint at one sample: the feed-forward torque and the desired relative motion
struct MuscleSample {
  Vec3 psi_P = Vec3::Zero();     ///< ψ: feed-forward torque on C, P's frame, N·m (free axes only)
  Quat q_PC = Quat::Identity();  ///< desired rotation C → P
  Vec3 w_PC_P = Vec3::Zero();    ///< desired ω_C − ω_P in P's frame, rad/s
};

/// the feed-forward table: samples at t0 + k dt, one row of joints each
struct MuscleTable {
  double t0 = 0.0;  ///< s
  double dt = 1e-3; ///< s, > 0
  std::vector<std::vector<MuscleSample>> samples;  ///< [k][joint]
  /// the feedback's desired angle is taken at t + position_lead and its desired rate at
  /// t + velocity_lead, s. For the linearly implicit step of size h, h and h/2: it evaluates
  /// the feedback at (p + h v⁺, v⁺), and v⁺ of the symplectic Euler step is the velocity of
  /// t + h/2, so the feedback is zero on the reference motion to O(h²) (docs/character.md)
  double position_lead = 0.0;
  double velocity_lead = 0.0;
};

/// feedback gains (eq. 5.7)
struct MuscleGains {
  double stiffness = 100.0;  ///< k_s, 1/rad: γ = g k_s e (g in N·m)
  double damping = 10.0;     ///< k_d, s/rad
  double min_torque = 1.0;   ///< τ_min, N·m: the gain scale g_i = max(|ψ_i|, τ_min), ≥ 0
};

class MuscleForce final : public ExternalForce {
 public:
  /// validated (finite gains ≥ 0, dt > 0, one sample row per joint, unit axes); throws
  /// pivot::Error
  MuscleForce(std::vector<MuscleJoint> joints, MuscleTable table, MuscleGains gains);

  /// the table interpolated at t (linear in ψ and ω, slerp in q), held outside its range
  [[nodiscard]] MuscleSample sample(int joint, double t) const;
  /// the joint's torque on C in world (the row of Hᵀ τ that acts on C), N·m, at time t
  [[nodiscard]] Vec3 torque_W(const RigidBodySet& set, int joint, double t) const;
  /// the rotation error |log(R_PC,d R_PCᵀ)| of a joint at time t, rad
  [[nodiscard]] double angle_error(const RigidBodySet& set, int joint, double t) const;
  [[nodiscard]] const std::vector<MuscleJoint>& joints() const { return joints_; }
  [[nodiscard]] const MuscleGains& gains() const { return gains_; }
  void set_gains(const MuscleGains& gains);

  void apply(const RigidBodySet& set, double t, Eigen::VectorXd& wrenches) const override;
  bool add_gradients(const RigidBodySet& set, double t, Triplets& dfdp,
                     Triplets& dfdv) const override;
  /// the joints' children and parents, ascending, each once
  [[nodiscard]] std::span<const int> coupled_bodies() const override { return coupled_; }
  /// the feed-forward table and the feedback's leads
  [[nodiscard]] const MuscleTable& table() const { return table_; }
  /// the leads are h and ±h/2 of the step they were made for: scaled by new_h / old_h
  void time_step_changed(double old_h, double new_h) override;

 private:
  std::vector<MuscleJoint> joints_;
  std::vector<int> coupled_;  // coupled_bodies(), made with the joints
  MuscleTable table_;
  MuscleGains gains_;
};

}  // namespace pivot
