#pragma once
// External forces (Cline 2002 §4.6): each adds wrenches (τ; f), world-aligned at the COM, and
// may give analytic gradients for the linearly implicit step (Cline §2.7.4):
//   ∂f/∂p  with respect to a twist displacement (δθ; δx) of each body,
//   ∂f/∂v  with respect to each body's twist (ω; v).
// Wrench and gradient vectors are indexed 6 per body, in the order of the RigidBodySet.

#include <Eigen/SparseCore>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "pivot/engine/rigid_body_set.hpp"

namespace pivot {

using Triplets = std::vector<Eigen::Triplet<double>>;

/// J_P, a body's twist (ω; v) to the velocity of a point at offset r from its centre of mass
/// (or a twist displacement to the point's displacement): ṗ = v + ω × r = [−[r]  I] (ω; v)
[[nodiscard]] Eigen::Matrix<double, 3, 6> point_jacobian(const Vec3& r);
/// adds a 6 × 6 gradient block at (row body, column body) to triplets over the 6n indices;
/// exact zeros are left out
void add_gradient_block(Triplets& t, int row_body, int col_body, const Mat6& block);

class ExternalForce {
 public:
  virtual ~ExternalForce() = default;
  /// adds this force's wrenches at time t into `wrenches` (size 6 × bodies)
  virtual void apply(const RigidBodySet& set, double t, Eigen::VectorXd& wrenches) const = 0;
  /// adds analytic ∂f/∂p and ∂f/∂v as triplets over the 6n indices; forces that return false
  /// contribute no gradient (they are then integrated explicitly)
  virtual bool add_gradients(const RigidBodySet& /*set*/, double /*t*/, Triplets& /*dfdp*/,
                             Triplets& /*dfdv*/) const {
    return false;
  }
  /// the bodies this force couples (an island holds them together), a view of the force's own
  /// list, valid until the force changes (read each step, so it makes no list of its own)
  [[nodiscard]] virtual std::span<const int> coupled_bodies() const { return {}; }
  /// the potential energy of a conservative force at the current positions, J; 0 for forces
  /// without one (a spring: ½ k (L − L₀)², its damping dissipates)
  [[nodiscard]] virtual double potential_energy(const RigidBodySet& /*set*/) const { return 0.0; }
  /// World::set_time_step changed the step from `old_h` to `new_h` (s): forces that hold
  /// something sized by the step (MuscleForce's feedback leads) follow it
  virtual void time_step_changed(double /*old_h*/, double /*new_h*/) {}
};

/// a constant force and torque on one body, world frame, applied at the COM
struct ConstantForceSettings {
  int body = 0;                ///< body index
  Vec3 force = Vec3::Zero();   ///< N
  Vec3 torque = Vec3::Zero();  ///< N·m
};

/// a linear spring-damper between a point on A and a point on B (B may be the world, −1):
///   F_A = (k (L − L₀) + c L̇) n,  n = (p_B − p_A)/L,  L = |p_B − p_A|;  F_B = −F_A
struct SpringSettings {
  int body_a = 0;
  Vec3 p_APa = Vec3::Zero();  ///< the point Pa on A, from A's origin (COM), A's frame, m
  int body_b = -1;            ///< body index, or −1 for the world
  Vec3 p_BPb = Vec3::Zero();  ///< Pb on B, from B's origin, B's frame (world for the world), m
  double stiffness = 0.0;     ///< k, N/m, ≥ 0
  double damping = 0.0;       ///< c, N·s/m, ≥ 0
  double rest_length = 0.0;   ///< L₀, m, ≥ 0
};

/// a user callback: adds wrenches (6 per body) given the set and the time
using ForceCallback =
    std::function<void(const RigidBodySet& set, double t, Eigen::VectorXd& wrenches)>;

[[nodiscard]] std::unique_ptr<ExternalForce> make_constant_force(const ConstantForceSettings& s);
/// validated (finite, non-negative k, c, L₀; points finite); throws pivot::Error
[[nodiscard]] std::unique_ptr<ExternalForce> make_spring(const SpringSettings& s);
[[nodiscard]] std::unique_ptr<ExternalForce> make_callback_force(ForceCallback callback);

/// the spring's current length, for tests and metrics
[[nodiscard]] double spring_length(const RigidBodySet& set, const SpringSettings& s);

}  // namespace pivot
