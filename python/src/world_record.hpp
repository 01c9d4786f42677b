#pragma once
// How a Python World is rebuilt (docs/python.md "Copies and checkpoints"): each call that
// changes its structure (add_body, add_*_joint, add_force, add_spring, add_actuator,
// add_sensor) is written as bytes, an op, and performed by reading those bytes back
// (apply_op), so the call and its replay are one code path. World.save() writes the ops with
// the engine's checkpoint (World::save_state); World.load() replays the ops on a new World and
// restores the checkpoint. A structural call that follows a change of state (a step, set_state,
// apply_impulse, set_hybrid) is preceded by a snapshot op, a checkpoint that the replay
// restores there, so a joint added after steps is made at the same poses.
//
// Bytes of World.save(), integers 64-bit little-endian, doubles as their bits
// (engine/checkpoint_bytes.hpp):
//   "PIVOTPYW", version 1, has_scene (0/1) [, the scene's resolved JSON, its source], the ops,
//   per actuator its target keys and last effort, the engine checkpoint, FNV-1a 64 of all
//   bytes before it.

#include <memory>
#include <string>
#include <string_view>

#include "pivot/collision/shape.hpp"
#include "world_handle.hpp"

namespace pivot::python {

/// a Python pivot.Shape: the collision shape and the factory call that made it, as bytes
struct ShapeRecipe {
  std::shared_ptr<Shape> shape;
  std::string recipe;
};

/// the factories of pivot.shapes (the shape made from its recipe)
ShapeRecipe sphere_shape(double radius);
ShapeRecipe box_shape(const Vec3& half_extents);
ShapeRecipe capsule_shape(double radius, double half_length);
ShapeRecipe cylinder_shape(double radius, double half_length);
ShapeRecipe ellipsoid_shape(const Vec3& radii);
ShapeRecipe convex_shape(const std::vector<Vec3>& points);
ShapeRecipe plane_shape(const Vec3& normal, double offset);
ShapeRecipe mesh_shape(const std::string& path);

/// the ops of the structural calls (their arguments as bytes)
std::string body_op(const BodySettings& settings, const ShapeRecipe* shape);
std::string joint_op(const BallJointSettings& s, int body_a, int body_b);
std::string joint_op(const HingeJointSettings& s, int body_a, int body_b);
std::string joint_op(const SliderJointSettings& s, int body_a, int body_b);
std::string joint_op(const UniversalJointSettings& s, int body_a, int body_b);
std::string joint_op(const FixedJointSettings& s, int body_a, int body_b);
std::string force_op(const ConstantForceSettings& s);
std::string spring_op(const SpringSettings& s);
std::string actuator_op(const ActuatorSettings& s);
std::string sensor_op(const SensorSettings& s);

/// a new handle: a World of these settings, or a World built from the scene (its sensors added)
std::unique_ptr<WorldHandle> new_world(const WorldSettings& settings);
std::unique_ptr<WorldHandle> new_scene_world(std::shared_ptr<const Scene> scene);
/// a handle of a World that a run of the scene stepped (pivot.run_scene), its sensors new
std::unique_ptr<WorldHandle> ran_scene_world(World world, std::shared_ptr<const Scene> scene);

/// performs a structural op on the held World (a snapshot first when its state changed since
/// the last op) and records it; returns the index the op made (body, joint, actuator, sensor).
/// Throws pivot::Error from the engine, recording nothing
int record_op(const WorldHandle::Use& world, std::string op);
/// a change of the held World's state (a step, set_state, ...): the next op takes a snapshot
void state_changed(const WorldHandle::Use& world);

/// World.save(): the record and the state. Throws pivot::Error when the World cannot be saved
/// (a hybrid pair in reduced mode now or at a structural call)
std::string save_world(const WorldHandle::Use& world);
/// World.load(): a new World from save_world's bytes, its sensors new (observed first at its
/// next step). Throws pivot::Error for bytes that are not a saved World, truncated or corrupt
std::unique_ptr<WorldHandle> load_world(std::string_view bytes);
/// World.restore(): puts the state of save_world's bytes back into this World, which must have
/// been built by the same calls (else pivot::Error, the World unchanged)
void restore_world(const WorldHandle::Use& world, std::string_view bytes);

}  // namespace pivot::python
