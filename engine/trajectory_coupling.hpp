#pragma once
// The trajectory-driven manipulandum (Barbič 2007 §4.3, §4.9): a target pose that follows a
// recorded trajectory (a key-frame track, linear positions and slerp orientations) pulls a
// dynamic body through a 6-DoF spring-damper, the thesis' virtual coupling. The thesis solves a
// quasi-static 6 × 6 Newton step per haptic cycle; here the coupling is an external force of
// the linearly implicit step (Cline 2002 §2.7.4, eq. 2.55), so a recorded manipulation is a
// deterministic scene.
//
// A grasp point G fixed in the body (p_BG from the COM, body frame; r = R_WB p_BG) is pulled
// to the target position p_WT(t), and the body's orientation q_WB to the target q_WT(t):
//
//   F = k (p_WT − p_WG) − c (ṗ_WG − v_T),       ṗ_WG = v + ω × r
//   q_e = toPositiveHemisphere(q_WT q_WB⁻¹)      (negated when its scalar part w_e < 0)
//   T = 2κ vec(q_e) − c_r (ω − ω_T)             (Barbič §4.3: |2κ vec(q_e)| = 2κ sin(θ/2))
//   wrench on the body, world-aligned at the COM:  (r × F + T;  F)
//
// with (v_T, ω_T) the target's velocity on its linear segment, v_T = (p_i+1 − p_i)/Δ,
// ω_T = log(q_i+1 q_i⁻¹)/Δ (world axes; zero before the first and after the last key frame).
// κ is the small-angle rotational stiffness (N·m/rad: 2κ sin(θ/2) ≈ κθ); the thesis writes
// k_VC,torque = 2κ. Without the positive hemisphere the torque of an error past 180° in the
// quaternion's double cover points the long way round (the thesis' "difficult implementation
// bug"). The potential is ½ k |p_WT − p_WG|² + 4κ (1 − |w_e|) (∫ 2κ sin(θ/2) dθ).
//
// Gradients for the linearly implicit step, with J_G = [−[r]  I] (δp_WG = J_G (δθ; δx)):
//
//   ∂W/∂p = −k J_Gᵀ J_G + [[F][r] − κ (w_e I + [v_e])   0;  0  0]
//   ∂W/∂v = −c J_Gᵀ J_G − [c_r I  0;  0  0]
//
// The first extra term is the lever arm turning with the body (δτ = δr × F = [F][r] δθ, as for
// the pull, pull_force.hpp); the second is the torque's own gradient: with δq_WB = ½ δθ q_WB,
// q_e ← q_e (1, −δθ/2), so δvec(q_e) = −½ (w_e I + [v_e]) δθ (Barbič §4.3, ∂T_VC/∂ω =
// −½(k cos(θ/2) I + T̃_VC)), exact at any angle and singular only at 180°. The damping's
// dependence on r through the rotation is neglected, as for the springs.
//
// The target is sampled at t + lead (World-built couplings: lead = h, the step's end), so the
// force of the step's end sees where the target then is: a body dragged at constant velocity
// against a constant resistance R settles at the lag R/k exactly, with no O(h v) term.

#include <memory>

#include "pivot/engine/forces.hpp"
#include "pivot/engine/kinematic_track.hpp"

namespace pivot {

/// a 6-DoF spring-damper from a body to a target pose on a trajectory
struct TrajectoryCouplingSettings {
  int body = 0;                                ///< the driven body (a dynamic body's index)
  std::shared_ptr<const KinematicTrack> path;  ///< the target: p_WT and q_WT; linear, checked
  Vec3 p_BG = Vec3::Zero();                    ///< the grasp point G from the COM, body frame, m
  double stiffness = 0.0;                      ///< k, N/m, ≥ 0
  double damping = 0.0;                        ///< c, N·s/m, ≥ 0
  double rotational_stiffness = 0.0;           ///< κ, N·m/rad (small angles), ≥ 0
  double rotational_damping = 0.0;             ///< c_r, N·m·s/rad, ≥ 0
  double lead = 0.0;  ///< s, ≥ 0: the target is sampled at t + lead (build_world: h)
};

/// the target's pose and twist at time t on a linear track (see above)
struct TargetState {
  Vec3 p_WT = Vec3::Zero();
  Quat q_WT = Quat::Identity();
  Vec3 v_T = Vec3::Zero();  ///< m/s
  Vec3 w_T = Vec3::Zero();  ///< rad/s, world axes
};

/// the state of a checked linear track at t: its pose (sample_track) and its segment's velocity
[[nodiscard]] TargetState target_state(const KinematicTrack& track, double t);

/// the coupling's elastic torque 2κ vec(toPositiveHemisphere(q_WT q_WB⁻¹)), N·m: the same for
/// ±q_WT and ±q_WB; |T| = 2κ sin(θ/2) about the axis of the shortest rotation from q_WB to q_WT
[[nodiscard]] Vec3 coupling_torque(const Quat& q_WT, const Quat& q_WB, double kappa);

class TrajectoryCoupling final : public ExternalForce {
 public:
  /// validated: a linear track (kinematic_track.hpp's check_track applied to it), finite point,
  /// finite non-negative gains and lead, body ≥ 0; throws pivot::Error
  explicit TrajectoryCoupling(const TrajectoryCouplingSettings& s);

  [[nodiscard]] const TrajectoryCouplingSettings& settings() const { return s_; }
  /// the wrench (τ; f) on the body at time t (the target at t + lead), world-aligned at the COM
  [[nodiscard]] Vec6 wrench(const RigidBodySet& set, double t) const;

  void apply(const RigidBodySet& set, double t, Eigen::VectorXd& wrenches) const override;
  bool add_gradients(const RigidBodySet& set, double t, Triplets& dfdp,
                     Triplets& dfdv) const override;
  [[nodiscard]] std::span<const int> coupled_bodies() const override { return {&s_.body, 1}; }
  /// ½ k |p_WT − p_WG|² + 4κ (1 − |w_e|), the target at the last time `apply` saw (t + lead);
  /// before any step, at lead
  [[nodiscard]] double potential_energy(const RigidBodySet& set) const override;
  /// a lead equal to the old step follows the new one
  void time_step_changed(double old_h, double new_h) override;

 private:
  TrajectoryCouplingSettings s_;
  mutable double last_t_ = 0.0;  // the time of the last apply (for potential_energy)
};

}  // namespace pivot
