#pragma once
// URDF robots as scene bodies and joints (docs/models.md), read with urdfdom.
//
//   // `pivot run robot.urdf`: the robot on a ground plane
//   pivot::Scene scene = pivot::load_scene("robots/arm.urdf");
//   // the same robot's bodies and joints as scene JSON, as a scene's "models" entry expands
//   std::string json = pivot::urdf_model_json("robots/arm.urdf", {.name = "arm"});
//
// A link becomes a body whose frame is the principal frame of its inertia at its centre of
// mass; links joined by fixed joints (and massless links) are welded into one body. Revolute,
// continuous and prismatic joints become hinges and sliders given in world coordinates at the
// zero joint configuration. Errors throw pivot::Error whose source is the URDF file and whose
// place names the link or joint and the element (`link "forearm": inertial: mass`).

#include <filesystem>
#include <string>
#include <vector>

#include "pivot/core/spatial.hpp"

namespace pivot {

struct Scene;

/// how one URDF model is placed in a scene (a scene's "models" entry, docs/scene-format.md)
struct UrdfModelOptions {
  /// prefix of the body and joint names, "NAME/link"; empty: the URDF's own names
  std::string name{};
  Vec3 position = Vec3::Zero();         ///< the root link's origin in world at zero joints, m
  Quat orientation = Quat::Identity();  ///< root link → world rotation
  /// the root link (with what is welded to it) is a fixed body; a root link named "world" is
  /// always fixed (the usual URDF way of saying so)
  bool fixed_base = false;
  /// let each link collide with its parent link (off by default: they touch at the joint)
  bool collide_with_parent = false;
};

/// the bodies and joints of the model, with what the import could not carry
struct UrdfModel {
  /// a JSON object {"bodies": [...], "joints": [...]} in the scene format's 3-D form
  std::string json;
  /// what the URDF says that the scene does not simulate (joint damping, friction, mimic),
  /// one line each naming the joint: the CLI prints them as warnings
  std::vector<std::string> warnings;
};

/// Reads the URDF file and converts it (docs/models.md). Mesh geometry becomes
/// {"type": "mesh", "file": PATH, "scale": ...} with PATH absolute: relative file names are
/// resolved against the URDF's folder, "package://PKG/rest" against the nearest ancestor folder
/// named PKG (or holding a folder PKG). Throws pivot::Error naming the file, the link or joint,
/// the element and the attribute.
[[nodiscard]] UrdfModel urdf_model(const std::filesystem::path& urdf,
                                   const UrdfModelOptions& options = {});

/// how `pivot run robot.urdf` makes a scene of one URDF
struct UrdfSceneOptions {
  /// a fixed plane z = 0 named "ground" under the model, which is raised so that its lowest
  /// collision geometry (primitives and meshes, scaled and posed) touches the plane
  bool ground = true;
};

/// the scene JSON text of the model alone (on the ground unless options.ground is false),
/// 5 s long; its warnings are appended to `warnings` when given
[[nodiscard]] std::string urdf_scene_json(const std::filesystem::path& urdf,
                                          const UrdfSceneOptions& options = {},
                                          std::vector<std::string>* warnings = nullptr);

/// true for a file name ending in ".urdf" (any case): load_scene reads such a file as a model
[[nodiscard]] bool is_urdf_path(const std::filesystem::path& file);

/// the scene of a URDF model alone: urdf_scene_json read as a scene file, its warnings in
/// Scene::warnings. load_scene(file) is this with the default options. Throws pivot::Error
[[nodiscard]] Scene load_urdf_scene(const std::filesystem::path& urdf,
                                    const UrdfSceneOptions& options = {});

}  // namespace pivot
