#pragma once
// The readers of the scene format's sections (internal), one file each: read_shape.cpp,
// read_smooth_surface.cpp, read_body.cpp, read_joint.cpp, read_spring.cpp, read_settings.cpp.
// Each reads one JSON value at the pointer `ptr` strictly (json_reader.hpp) into the plain
// structs of scene.hpp, and throws pivot::Error naming the pointer on bad input.

#include <optional>
#include <string>
#include <vector>

#include "pivot/scenes/json_reader.hpp"
#include "pivot/scenes/scene.hpp"

namespace pivot::detail {

/// a body's "shape"; `surface`: the body's smooth surface, for a convex shape sampled from it
/// (null in compounds); `fixed`: the body is fixed (a mesh then collides by its triangles)
SceneShape read_shape(const Context& ctx, const json& j, const std::string& ptr, bool in_compound,
                      const SmoothSurface* surface, bool fixed);
/// a mesh file's path under "file" or the older key `legacy` (not both), resolved against the
/// scene's folder and probed for reading; returns the key used
std::string read_mesh_path(const Context& ctx, const Object& o, const char* legacy,
                           std::string& as_written, std::filesystem::path& resolved);
/// a mesh file's "scale": a positive number or [sx, sy, sz] of positive numbers (default 1)
Vec3 read_mesh_scale(const Context& ctx, const Object& o);
/// a body's "smooth_surface"
SceneSmoothSurface read_smooth_surface(const Context& ctx, const json& j, const std::string& ptr);
/// a body's mass keys (read_body.cpp), shared by 3-D and planar bodies: a fixed body has none of
/// them (nor `inertia_key`, a centre of mass or velocities); a free one gets "mass" or "density"
/// (in `density_unit`), or 1 kg with a shape
void read_mass(const Context& ctx, const Object& o, const std::string& ptr, SceneBody& b,
               const char* inertia_key, const char* density_unit);
/// a body's "visual" (read_visual.cpp): drawn geometry, mesh files checked for existence only
std::vector<SceneVisual> read_visuals(const Context& ctx, const json& j, const std::string& ptr);
/// one entry of "bodies"
SceneBody read_body(const Context& ctx, const json& j, const std::string& ptr);
/// body_a (a body) and body_b (a body or "world", default "world") of a joint or spring
void read_body_pair(const Context& ctx, const Object& o, const Scene& scene, std::string& a,
                    std::string& b, int& ia, int& ib);
/// a joint's optional "limits" (angular: or "limits_deg") and "motor" members
std::optional<JointLimits> read_limits(const Context& ctx, const Object& o, bool angular);
std::optional<JointMotor> read_motor(const Context& ctx, const Object& o, bool angular);
/// one entry of "joints"; bodies are resolved by name in `scene`
SceneJoint read_joint(const Context& ctx, const json& j, const std::string& ptr,
                      const Scene& scene);
/// one entry of "actuators" (read_actuator.cpp); its joint is resolved by name in `scene`, a
/// CSV target read relative to the scene's folder
SceneActuator read_actuator(const Context& ctx, const json& j, const std::string& ptr,
                            const Scene& scene);
/// "sensors" (read_sensors.cpp): bodies, joints and actuators resolved by name in `scene`
std::vector<SensorSettings> read_sensors(const Context& ctx, const json& j, const Scene& scene);
/// one entry of "springs"; bodies are resolved by name in `scene`
SceneSpring read_spring(const Context& ctx, const json& j, const std::string& ptr,
                        const Scene& scene);
/// one entry of "manipulanda" (read_manipulandum.cpp): reads the trajectory file it names,
/// relative to the scene's folder; the body is resolved by name in `scene`
SceneManipulandum read_manipulandum(const Context& ctx, const json& j, const std::string& ptr,
                                    const Scene& scene);
/// a body's "kinematic" key-frame track (read_kinematic.cpp)
KinematicTrack read_kinematic(const Context& ctx, const json& j, const std::string& ptr);
/// a body's "animator" controls (read_kinematic.cpp)
AnimatorBodySettings read_animator(const Context& ctx, const json& j, const std::string& ptr);
/// "interactions": events in non-decreasing step order, "end" last (interaction.hpp)
std::vector<SceneInteraction> read_interactions(const Context& ctx, const json& j);
/// "character" (read_character.cpp): reads the BVH file it names, relative to the scene's folder
SceneCharacter read_character(const Context& ctx, const json& j, const std::string& ptr);
/// one entry of a scene's "models" expanded by the URDF importer (read_models.cpp)
struct SceneModel {
  std::string name;                   ///< "name": the prefix of its bodies and joints
  std::string urdf;                   ///< "urdf" as written
  std::string source;                 ///< names the model in messages: "FILE /models/i (URDF)"
  json entries;                       ///< {"bodies": [...], "joints": [...]}, scene format
  std::vector<std::string> warnings;  ///< what the import could not carry
};
/// "models": each URDF read and converted now, relative to the scene's folder
std::vector<SceneModel> read_models(const Context& ctx, const json& j);
/// "settings" (null: every default); `dimension` 2: a planar scene's (gravity [x, z], 2 friction
/// directions)
SceneSettings read_settings(const Context& ctx, const json* j, int dimension);
// a planar scene's entries ("dimension": 2; read_planar.cpp, docs/planar.md)
/// a body's 2-D "shape": circle, box, capsule, polygon or half_plane
SceneShape read_planar_shape(const Context& ctx, const json& j, const std::string& ptr);
/// one entry of "bodies" in 2-D form, lifted to the plane y = 0
SceneBody read_planar_body(const Context& ctx, const json& j, const std::string& ptr);
/// one entry of "joints" in 2-D form: revolute (a hinge about y), prismatic (a slider in the
/// plane) or fixed
SceneJoint read_planar_joint(const Context& ctx, const json& j, const std::string& ptr,
                             const Scene& scene);

}  // namespace pivot::detail
