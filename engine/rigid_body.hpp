#pragma once
// A rigid body's model: what the scene says about it (mass, inertia, material), apart from its
// state (pose and twist, stored in the RigidBodySet) — the model/state split of MuJoCo.

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "pivot/collision/shape.hpp"
#include "pivot/collision/smooth_surface.hpp"
#include "pivot/core/spatial.hpp"
#include "pivot/engine/kinematic_track.hpp"

namespace pivot {

/// Everything needed to create a body. Units SI; vectors in world coordinates.
/// Mass properties: from `density` and the shape when density > 0; else `mass` with the
/// shape's inertia for that mass; `inertia_diag` (principal moments, body frame) overrides the
/// shape's inertia; with neither shape nor inertia_diag the inertia is the identity (kg·m²).
struct BodySettings {
  std::string name{};                  ///< unique within a world; may be empty
  bool fixed = false;                  ///< fixed bodies have infinite mass and never move
  double mass = 1.0;                   ///< kg, > 0 (ignored when fixed or density > 0)
  double density = 0.0;                ///< kg/m³; > 0 means mass from the shape's volume
  std::optional<Vec3> inertia_diag{};  ///< principal inertia, body frame, kg·m², > 0
  /// centre of mass in the shape frame, m (needs a shape); none: the shape's centroid (uniform
  /// density). The shape's inertia (without inertia_diag) is moved to it by parallel axes.
  /// For bodies of non-uniform density, e.g. Kry's rattleback (docs/hybrid.md)
  std::optional<Vec3> centre_of_mass{};
  ShapePtr shape{};  ///< collision shape (none: the body never collides)
  /// p_WS: the origin of the body's shape frame S, from the world origin, in world, m (the
  /// centre of mass for symmetric primitives; scene key "position")
  Vec3 p_WS = Vec3::Zero();
  /// q_WB: body → world rotation (normalized on creation; the shape frame S has the same axes)
  Quat q_WB = Quat::Identity();
  Vec3 v_WB = Vec3::Zero();           ///< v_WB: the velocity of the centre of mass, in world, m/s
  Vec3 w_WB = Vec3::Zero();           ///< w_WB: the angular velocity, in world, rad/s
  double friction = 0.5;              ///< Coulomb coefficient μ ≥ 0; a pair uses √(μ_A μ_B)
  double restitution = 0.0;           ///< Newton coefficient e ∈ [0, 1]; a pair uses max
  std::uint32_t collision_group = 1;  ///< group bits
  std::uint32_t collision_mask = 0xffffffffu;  ///< groups it collides with
  /// smooth surface for the hybrid (reduced contact-coordinate) mode, in the shape frame (the
  /// collision shape is unchanged). None: a sphere, ellipsoid or plane shape gets its own
  /// (collision/ellipsoid_surface.hpp, plane_surface.hpp); other shapes get none and never
  /// enter reduced mode.
  SmoothSurfacePtr smooth_surface{};
  /// a key-frame track (kinematic_track.hpp): the body follows it instead of its dynamics. It
  /// has infinite mass in both LCPs (like a fixed body) and its mass properties are still
  /// computed (the animator's metric uses them); p_WS, q_WB, v_WB and w_WB are ignored: the pose
  /// is the track's, the twist the track's step average (docs/step.md "Kinematic bodies").
  /// Needs fixed = false. check_track is applied to a copy.
  std::shared_ptr<const KinematicTrack> kinematic{};
};

/// the model part of a body, fixed after creation
struct RigidBody {
  std::string name;
  bool fixed = false;
  double mass = 0.0;                      ///< kg (0 for fixed bodies)
  double inverse_mass = 0.0;              ///< 1/kg (0 for fixed bodies)
  Mat3 inertia_B = Mat3::Zero();          ///< about the COM, body axes, kg·m²
  Mat3 inverse_inertia_B = Mat3::Zero();  ///< 0 for fixed bodies
  double friction = 0.5;
  double restitution = 0.0;
  ShapePtr shape;                    ///< may be null
  Vec3 shape_offset = Vec3::Zero();  ///< the shape frame's origin in the body (COM) frame, m
  std::uint32_t collision_group = 1;
  std::uint32_t collision_mask = 0xffffffffu;
  /// smooth surface for the hybrid mode in the shape frame (may be null; see BodySettings)
  SmoothSurfacePtr smooth_surface;
  /// the key-frame track of a kinematic body (then `fixed` is true as well: infinite mass, with
  /// `mass` and `inertia_B` still the shape's); null for dynamic and fixed bodies
  std::shared_ptr<const KinematicTrack> kinematic;

  /// true for dynamic and kinematic bodies: the ones with a trajectory row, a final state and a
  /// pose in a live view (a kinematic body is `fixed` to the LCPs but still moves)
  [[nodiscard]] bool moves() const { return !fixed || kinematic != nullptr; }

  /// true when inertia_B is a multiple of the identity (a sphere's, a cube's): every rotation
  /// leaves it unchanged and ω × (I ω) = 0
  [[nodiscard]] bool isotropic() const;
  /// world inertia R I_B Rᵀ at orientation q_WB (Cline eq. 2.15); I_B itself when isotropic
  /// (R k 1 Rᵀ = k 1 exactly, not up to the rounding of the products)
  [[nodiscard]] Mat3 inertia_W(const Quat& q_WB) const;
  /// its inverse, R I_B⁻¹ Rᵀ (zero for fixed bodies); I_B⁻¹ itself when isotropic
  [[nodiscard]] Mat3 inverse_inertia_W(const Quat& q_WB) const;
};

/// validates settings (positive finite mass and inertia, finite state, μ ≥ 0, e ∈ [0,1],
/// triangle inequality of the principal moments), computes the mass properties and builds the
/// model; throws pivot::Error
[[nodiscard]] RigidBody make_rigid_body(const BodySettings& settings);

}  // namespace pivot
