#pragma once
// The pull: a mouse attractor (Cline 2002 §4.7) as a spring-damper from a point P fixed in a
// body to a target point T in the world, which the user moves:
//
//   F = k (T − p_WP) − c ṗ_WP,   p_WP = p_WB + r,  r = R_WB p_BP,  ṗ_WP = v + ω × r
//
// applied at P (wrench on the body, world-aligned at the COM: (r × F; F)). The damping is
// isotropic (the whole point velocity), so with rest length 0 the force has no direction
// singularity at T = P. Its gradients enter the linearly implicit step (Cline §2.7.4, eq. 2.55)
// so that stiff pulls stay stable:
//
//   J_P = [−[r]  I]               (ṗ_WP = J_P (ω; v), and δp_WP = J_P (δθ; δx))
//   ∂W/∂p = −k J_Pᵀ J_P + [[F][r]  0; 0  0]     (the second term: the lever arm r turns with
//                                                 the body, δτ = δr × F = [F][r] δθ)
//   ∂W/∂v = −c J_Pᵀ J_P
//
// (the damping force's dependence on r through the rotation is neglected, as for springs in
// forces.cpp). An inactive pull adds no force and no gradient.

#include "pivot/engine/forces.hpp"

namespace pivot {

/// what a pull holds; every field may change between steps (PullForce::set)
struct PullSettings {
  int body = 0;                   ///< the pulled body (a free body's index)
  Vec3 p_BP = Vec3::Zero();       ///< the grabbed point P from the COM, body frame, m
  Vec3 p_WT = Vec3::Zero();       ///< the target T, world, m
  double stiffness = 0.0;         ///< k, N/m, ≥ 0
  double damping = 0.0;           ///< c, N·s/m, ≥ 0
};

/// a pull the owner switches on, moves and switches off between steps (World::add_force hands
/// the World ownership and returns the object)
class PullForce final : public ExternalForce {
 public:
  /// starts pulling; validated (finite point and target, finite k, c ≥ 0); throws pivot::Error
  void start(const PullSettings& s);
  /// moves the target T (world, m); finite, else pivot::Error
  void move(const Vec3& p_WT);
  /// stops pulling
  void release() { active_ = false; }
  [[nodiscard]] bool active() const { return active_; }
  [[nodiscard]] const PullSettings& settings() const { return s_; }
  /// the force F on P at the current state (zero when inactive), N
  [[nodiscard]] Vec3 force(const RigidBodySet& set) const;

  void apply(const RigidBodySet& set, double t, Eigen::VectorXd& wrenches) const override;
  bool add_gradients(const RigidBodySet& set, double t, Triplets& dfdp,
                     Triplets& dfdv) const override;
  [[nodiscard]] std::span<const int> coupled_bodies() const override;
  /// ½ k |T − p_WP|² while active
  [[nodiscard]] double potential_energy(const RigidBodySet& set) const override;

 private:
  PullSettings s_{};
  bool active_ = false;
};

}  // namespace pivot
