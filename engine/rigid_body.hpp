#pragma once
// A rigid body's model: what the scene says about it (mass, inertia, material), apart from its
// state (pose and twist, stored in the RigidBodySet) — the model/state split of MuJoCo.

#include <string>

#include "engine/spatial.hpp"

namespace pivot {

/// Everything needed to create a body. Units SI; vectors in world coordinates.
struct BodySettings {
  std::string name;                     ///< unique within a world; may be empty
  bool fixed = false;                   ///< fixed bodies have infinite mass and never move
  double mass = 1.0;                    ///< kg, > 0 (ignored when fixed)
  Vec3 inertia_diag = Vec3::Ones();     ///< principal inertia in the body frame, kg·m², > 0
  Vec3 position = Vec3::Zero();         ///< centre of mass in world, m
  Quat orientation = Quat::Identity();  ///< body → world rotation (normalized on creation)
  Vec3 velocity = Vec3::Zero();         ///< of the centre of mass, world, m/s
  Vec3 angular_velocity = Vec3::Zero(); ///< world, rad/s
  double friction = 0.5;                ///< Coulomb coefficient μ ≥ 0; a pair uses √(μ_A μ_B)
  double restitution = 0.0;             ///< Newton coefficient e ∈ [0, 1]; a pair uses max
};

/// the model part of a body, fixed after creation
struct RigidBody {
  std::string name;
  bool fixed = false;
  double mass = 0.0;          ///< kg (0 for fixed bodies)
  double inverse_mass = 0.0;  ///< 1/kg (0 for fixed bodies)
  Vec3 inertia_diag_B = Vec3::Zero();          ///< principal inertia, body frame, kg·m²
  Vec3 inverse_inertia_diag_B = Vec3::Zero();  ///< 0 for fixed bodies
  double friction = 0.5;
  double restitution = 0.0;

  /// world inertia R I_B Rᵀ at orientation q_WB (Cline eq. 2.15)
  [[nodiscard]] Mat3 inertia_W(const Quat& q_WB) const;
  /// its inverse, R I_B⁻¹ Rᵀ (zero for fixed bodies)
  [[nodiscard]] Mat3 inverse_inertia_W(const Quat& q_WB) const;
};

/// validates settings (positive finite mass and inertia, finite state, μ ≥ 0, e ∈ [0,1],
/// triangle inequality of the principal moments) and builds the model; throws pivot::Error
[[nodiscard]] RigidBody make_rigid_body(const BodySettings& settings);

}  // namespace pivot
