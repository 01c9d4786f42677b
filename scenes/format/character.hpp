#pragma once
// The motion-capture-driven character (Cline 2002 §5.1; docs/character.md): rigid bodies from a
// BVH skeleton, joints per the skeleton's channels, the root following the captured path, and
// muscles (engine/muscle_force.hpp) whose feed-forward torques come from inverse dynamics of the
// smoothed motion.
//
//   BvhMotion motion(load_bvh("scenes/mocap/walk.bvh"), {.scale = 0.01, .y_up = true});
//   Character c = add_character(world, motion, {});
//   while (world.time() < motion.duration()) { world.step(); err = c.tracking_error(world); }
//
// Bodies: one per BVH joint, the segment from the joint's origin to its children's origins (or
// its End Site), as a convex polyhedron (the hull of two small cuboctahedra per bone, radius
// `thickness` × the longest bone, clamped to [2 cm, 8 cm]) at `density` (water: Cline §5.1).
// Its body frame is the BVH joint's frame. The root (ROOT) is a kinematic body that follows the
// capture path exactly (key frames at every time step): Cline's simplification, no floor
// contact. Other joints need 3 rotation channels (a ball joint) or 1 (a hinge about that
// channel's axis) and no position channels. The character's bodies do not collide with one
// another (collision group 2, masked out of itself); they collide with everything else.
//
// Inverse dynamics (eq. 5.3, [Jᵀ Hᵀ](λ; τ) = M v̇ − f_ext) is solved per time step of the run
// from the spline's closed-form accelerations, from the leaves to the root: the wrench a joint
// passes to its child body is
//   f_j = m (a − g) + Σ_k f_k,
//   τ_j = I α + ω × I ω − (p_j − x) × f_j + Σ_k (τ_k + (p_k − x) × f_k)
// (x the body's centre of mass, k its child joints, p the joint origins); the muscle torque ψ is
// τ_j's part along the free axes, in the parent's frame, and the rest is the joint's λ.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "pivot/engine/muscle_force.hpp"
#include "pivot/engine/world.hpp"
#include "pivot/scenes/bvh_motion.hpp"

namespace pivot {

/// the most samples per joint of a character's root track and muscle table (one per time step
/// of the clip): 10⁶, 1000 s at h = 1 ms; add_character refuses more
inline constexpr long kMaxCharacterSamples = 1'000'000;

/// what a character is made of, with the scene key's defaults (docs/scene-format.md
/// "Characters")
struct CharacterSettings {
  std::string name = "character";  ///< body names are NAME/JOINT
  double density = 1000.0;         ///< kg/m³ (water), > 0
  double thickness = 0.2;          ///< a bone's radius / its length, > 0
  MuscleGains gains{};             ///< feedback gains (eq. 5.7)
  double friction = 0.5;           ///< of every body
  double restitution = 0.0;        ///< of every body
  /// start with the velocities of t = −h/2 (v(0) − ½ h v̇(0)) instead of t = 0: the step is
  /// symplectic Euler, whose velocities live at half steps (docs/character.md)
  bool staggered_start = true;
};

/// a character added to a World
struct Character {
  std::shared_ptr<const BvhMotion> motion;
  std::vector<int> body;     ///< World body per BVH joint
  std::vector<int> joint;    ///< World joint per BVH joint (−1 for the root)
  std::vector<int> muscle;   ///< MuscleForce joint per BVH joint (−1 for the root)
  MuscleForce* muscles = nullptr;  ///< owned by the World

  /// the largest joint rotation error |log(R_PC,d R_PCᵀ)| against the motion at the World's
  /// time, rad
  [[nodiscard]] double tracking_error(const World& world) const;
  /// the rotation error of each BVH joint (0 for the root), rad
  [[nodiscard]] std::vector<double> joint_errors(const World& world) const;
};

/// the bodies' mass properties as add_character makes them (for inverse dynamics by hand)
struct SegmentMass {
  double mass = 0.0;          ///< kg
  Vec3 com_J = Vec3::Zero();  ///< centre of mass in the joint frame, m
  Mat3 inertia_J = Mat3::Zero();  ///< about the centre of mass, joint axes, kg·m²
};

/// the feed-forward table by inverse dynamics (eq. 5.3) at t = k dt, k = 0 … ⌈T/dt⌉; the
/// joints in muscle order are the BVH joints after the root; `gravity` in world, m/s²
[[nodiscard]] MuscleTable inverse_dynamics(const BvhMotion& motion,
                                           const std::vector<SegmentMass>& segments,
                                           const Vec3& gravity, double dt);

/// the convex shape of a BVH joint's segment, in its joint frame, scaled to metres
[[nodiscard]] ShapePtr segment_shape(const BvhClip& clip, int joint, double scale, double thickness);

/// adds the character to the World at the motion's pose at t = 0 (the motion's time is the
/// World's): bodies, joints, the root's track and the muscles. Throws pivot::Error naming the
/// BVH joint for a skeleton it cannot build (a joint with 2 rotation channels, position channels
/// below the root), for bad settings, for a body or joint name already in the World, or when the
/// World has already stepped; on any error the World is left as it was (nothing is added)
Character add_character(World& world, std::shared_ptr<const BvhMotion> motion,
                        const CharacterSettings& settings);

}  // namespace pivot
