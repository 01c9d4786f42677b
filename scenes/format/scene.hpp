#pragma once
// Scenes: the JSON scene format, version 1 (docs/scene-format.md, the JSON Schema in
// scenes/schema/pivot-scene-1.schema.json), read into plain settings structs and built into a
// World.
//
//   pivot::Scene scene = pivot::load_scene("scenes/pendulum.json");
//   pivot::World world = pivot::build_world(scene);
//   while (world.time() < scene.settings.duration) world.step();
//   std::uint64_t hash = pivot::state_hash(world);
//
// A Scene is the model as the file says it, with every default filled in and every name
// resolved to an index; it owns no simulation state, so one Scene can build many Worlds.
// Loading is strict: an unknown key, a wrong type or a bad value throws pivot::Error whose
// message is one line naming the file, the JSON pointer and what was expected; the error's
// source() is the file and its place() the pointer (or line and column).

#include <array>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "pivot/collision/bezier_surface.hpp"
#include "pivot/collision/shape.hpp"
#include "pivot/constraints/ball_joint.hpp"
#include "pivot/constraints/fixed_joint.hpp"
#include "pivot/constraints/hinge_joint.hpp"
#include "pivot/constraints/planar_joint.hpp"
#include "pivot/constraints/slider_joint.hpp"
#include "pivot/constraints/universal_joint.hpp"
#include "pivot/core/error.hpp"
#include "pivot/engine/forces.hpp"
#include "pivot/engine/actuator.hpp"
#include "pivot/engine/animator.hpp"
#include "pivot/engine/rigid_body.hpp"
#include "pivot/engine/sensors.hpp"
#include "pivot/engine/world.hpp"
#include "pivot/scenes/character.hpp"
#include "pivot/scenes/interaction.hpp"

namespace pivot {

/// the scene format version this library reads and writes ("pivot_scene": 1)
inline constexpr int kSceneFormatVersion = 1;

/// the largest scene file load_scene reads, bytes (64 MiB; docs/limits.md): a larger file, or an
/// endless one such as /dev/zero, is refused after reading one byte more than this
inline constexpr std::size_t kMaxSceneBytes = std::size_t{64} << 20;

/// run settings of a scene ("settings" in the file) together with the World's settings
struct SceneSettings {
  double duration = 1.0;  ///< simulated time, s, > 0
  double output_rate_hz =
      100.0;  ///< trajectory frames per simulated second, ≥ 0 (0: first and last only)
  /// time_step (dt), gravity, stabilization, the hybrid mode ("hybrid" is world.hybrid), ...
  /// (WorldSettings's defaults are the file's)
  WorldSettings world{};
  /// "mode": "animator": the scene is a key-framed animation; `pivot run` runs it as
  /// `pivot animate` does (docs/animator.md). "dynamics" (the default): false
  bool animator = false;
};

/// the kinds of smooth surface a scene can give a body ("smooth_surface"/"type")
enum class SceneSurfaceType { bezier, torus, paraboloid, ellipsoid, sphere, plane, loop };

/// "bezier", "torus", ... as written in scene files
[[nodiscard]] const char* to_string(SceneSurfaceType type);

/// A body's smooth surface for the hybrid mode as the file describes it (docs/scene-format.md
/// "Smooth surfaces"; only the fields of its type are meaningful), placed in the body's shape
/// frame, together with the surface built from it (collision/*_surface.hpp).
struct SceneSmoothSurface {
  SceneSurfaceType type = SceneSurfaceType::bezier;
  std::vector<BezierPatch> patches;     ///< bezier: the control points as written, m
  Vec3 scale = Vec3::Ones();            ///< bezier, loop: control points scaled by this first
  double major_radius = 0.0;            ///< torus, m
  double minor_radius = 0.0;            ///< torus, m
  Vec2 curvature_radii = Vec2::Zero();  ///< paraboloid: (R_u, R_v) at the apex, m
  Vec2 half_extents = Vec2::Zero();     ///< paraboloid: domain |u| ≤ a, |v| ≤ b, m
  Vec3 radii = Vec3::Zero();            ///< ellipsoid semi-axes, m
  double radius = 0.0;                  ///< sphere, m
  Vec3 normal = Vec3::UnitZ();          ///< plane, unit (out of the solid)
  double offset = 0.0;                  ///< plane: n·x = offset, m
  std::string obj;                      ///< loop: the control mesh file as written ("file")
  std::filesystem::path obj_path;       ///< loop: that path resolved against the scene's folder
  Vec3 position = Vec3::Zero();         ///< placement in the shape frame, m
  Quat orientation = Quat::Identity();  ///< surface → shape frame rotation
  SmoothSurfacePtr built;               ///< the placed surface
};

struct SceneShape;

/// one child of a compound shape, placed in the compound's frame
struct SceneCompoundChild {
  std::vector<SceneShape> shape;        ///< exactly one element (a vector only to allow recursion)
  Vec3 position = Vec3::Zero();         ///< m, in the compound's frame
  Quat orientation = Quat::Identity();  ///< child → compound, normalized
};

/// a shape as the file describes it (only the fields of its type are meaningful), together
/// with the collision shape built from it by the factories of collision/shape.hpp
struct SceneShape {
  ShapeType type = ShapeType::sphere;
  double radius = 0.0;                       ///< sphere, capsule, cylinder, m
  Vec3 half_extents = Vec3::Zero();          ///< box, m
  double half_length = 0.0;                  ///< capsule, cylinder, m
  Vec3 radii = Vec3::Zero();                 ///< ellipsoid, m
  std::vector<Vec3> points;                  ///< convex, m
  Vec3 normal = Vec3::UnitZ();               ///< plane, unit
  double offset = 0.0;                       ///< plane, m
  std::string obj;                           ///< mesh, sdf, convex: the mesh file as written ("file")
  std::filesystem::path obj_path;            ///< that path resolved against the scene's folder
  Vec3 scale = Vec3::Ones();                 ///< mesh, sdf, convex: the mesh file's scale per axis
  /// mesh: "collision" as written; none: triangles on a fixed body, else the hull
  std::optional<MeshCollision> collision;
  SdfShapeSettings sdf;                      ///< sdf: voxel, points, node budget (0: defaults)
  std::vector<SceneCompoundChild> children;  ///< compound
  /// convex: > 0 when the points are the body's smooth surface sampled on an n × n grid per
  /// patch (collision/smooth_surface.hpp surface_grid_points) instead of given
  int surface_samples = 0;
  std::shared_ptr<const PlanarShape> planar;  ///< planar: the 2-D shape (a planar scene)
  ShapePtr built;                             ///< the collision shape
};

/// what a viewer draws of a body instead of its collision shape ("visual", e.g. a URDF link's
/// <visual> geometry with its material colour; docs/models.md): never collides, has no mass
struct SceneVisual {
  ShapeType type = ShapeType::box;      ///< box, sphere, cylinder or mesh
  Vec3 half_extents = Vec3::Zero();     ///< box, m
  double radius = 0.0;                  ///< sphere, cylinder, m
  double half_length = 0.0;             ///< cylinder (along z), m
  std::string file;                     ///< mesh: the path as written in the file
  std::filesystem::path file_path;      ///< mesh: resolved against the scene's folder
  Vec3 scale = Vec3::Ones();            ///< mesh: per-axis scale of its coordinates
  Vec3 position = Vec3::Zero();         ///< m, in the body's shape frame
  Quat orientation = Quat::Identity();  ///< visual → shape frame
  /// red, green, blue, alpha in [0, 1]; none: the viewer's colour for the body
  std::optional<std::array<double, 4>> colour;
};

/// a body: its settings for World::add_body and the shape as described
struct SceneBody {
  BodySettings settings;            ///< settings.shape is shape->built
  std::optional<SceneShape> shape;  ///< none: the body never collides
  bool has_density = false;         ///< mass properties from "density" (else from "mass")
  /// settings.smooth_surface is smooth_surface->built; none: the shape's automatic surface
  std::optional<SceneSmoothSurface> smooth_surface;
  /// the key frames of a kinematic body (settings.kinematic points to the same track)
  std::optional<KinematicTrack> kinematic;
  /// the animator controls (`pivot animate`, docs/animator.md); none: the defaults
  std::optional<AnimatorBodySettings> animator;
  /// a planar scene's body: its angle about +y as the file gives it, rad (settings.q_WB is the
  /// rotation by it; the resolved form writes this number back, so it reads back unchanged)
  double planar_angle = 0.0;
  /// what a viewer draws instead of the collision shape ("visual"); empty: the shape
  std::vector<SceneVisual> visuals;
};

/// the settings of any joint type
using JointSettingsVariant =
    std::variant<BallJointSettings, HingeJointSettings, UniversalJointSettings, SliderJointSettings,
                 FixedJointSettings, PlanarJointSettings>;

/// a joint between two bodies of the scene (body_b may be the world)
struct SceneJoint {
  JointSettingsVariant settings;
  std::string body_a;             ///< body name
  std::string body_b;             ///< body name or "world"
  int body_a_index = 0;           ///< index in Scene::bodies
  int body_b_index = kWorldBody;  ///< index in Scene::bodies, or kWorldBody
  bool collide = false;           ///< let the joined bodies collide (World::set_joint_collision)
  /// hinge, slider: the largest torque (N·m) or force (N) an actuator may apply ("effort_limit",
  /// e.g. a URDF's <limit effort>), kept for actuators; none: not given
  std::optional<double> effort_limit;
  /// hinge, slider: the largest joint speed, rad/s or m/s ("velocity_limit"), kept for
  /// actuators; none: not given
  std::optional<double> velocity_limit;

  [[nodiscard]] JointType type() const;
  [[nodiscard]] const std::string& name() const;
};

/// a spring-damper ("springs" in the file)
struct SceneSpring {
  SpringSettings settings;  ///< body indices resolved (kWorldBody for the world)
  std::string body_a;       ///< body name
  std::string body_b;       ///< body name or "world"
};

/// a trajectory-driven manipulandum ("manipulanda" in the file; engine/trajectory_coupling.hpp,
/// Barbič 2007 §4.3, §4.9): the body's point G and orientation pulled to a recorded target pose
struct SceneManipulandum {
  std::string body;                            ///< body name (a dynamic body)
  int body_index = 0;                          ///< index in Scene::bodies
  std::string trajectory;                      ///< the trajectory file as written in the scene
  std::filesystem::path trajectory_path;       ///< resolved against the scene's folder
  std::shared_ptr<const KinematicTrack> path;  ///< the file's poses (trajectory_file.hpp)
  Vec3 point = Vec3::Zero();                   ///< G in the body's shape frame, m ("point")
  double stiffness = 0.0;                      ///< k, N/m
  double damping = 0.0;                        ///< c, N·s/m
  double rotational_stiffness = 0.0;           ///< κ, N·m/rad
  double rotational_damping = 0.0;             ///< c_r, N·m·s/rad
};

/// a motion-capture-driven character ("character" in the file; docs/character.md)
struct SceneCharacter {
  std::string bvh;                 ///< the BVH path as written in the file
  std::filesystem::path bvh_path;  ///< resolved against the scene's folder
  BvhMapping mapping{};            ///< "scale", "up", "origin"
  CharacterSettings settings{};    ///< "name", "density", "thickness", "gains", ...
  std::shared_ptr<const BvhMotion> motion;  ///< the clip read at load time, splines fitted
};

/// the largest rotation error of the scene's character against its motion at the World's time,
/// rad (its joints' relative rotations |log(R_PC,d R_PCᵀ)|, from the bodies named NAME/JOINT)
[[nodiscard]] double character_tracking_error(const World& world, const SceneCharacter& character);

/// an actuator on a hinge or slider joint ("actuators" in the file; engine/actuator.hpp)
struct SceneActuator {
  ActuatorSettings settings;  ///< the joint index resolved
  std::string joint;          ///< the joint's name as written
  std::string csv;            ///< "target": {"csv": FILE} as written; empty otherwise
};

struct Scene {
  std::string name;         ///< "name" (default: the file's stem, or "unnamed")
  std::string description;  ///< free text ("description"), default empty
  /// "dimension": 3, or 2 for a planar scene (docs/planar.md); settings.world.dimension too
  int dimension = 3;
  /// the file it was read from, or parse_scene's `source`; names the scene in messages
  std::string source;
  SceneSettings settings;
  std::vector<SceneBody> bodies;   ///< in file order: World body index i is bodies[i]
  std::vector<SceneJoint> joints;  ///< in file order: World joint index j is joints[j]
  std::vector<SceneSpring> springs;
  /// actuators, added after the joints and springs (World actuator index a is actuators[a])
  std::vector<SceneActuator> actuators;
  /// sensors ("sensors" in the file; engine/sensors.hpp), their body, joint and actuator
  /// indices resolved; a run samples them into sensors.csv (docs/sensors.md)
  std::vector<SensorSettings> sensors;
  /// trajectory couplings, added after the springs
  std::vector<SceneManipulandum> manipulanda;
  /// the character, added after the bodies, joints and springs (its bodies follow theirs)
  std::optional<SceneCharacter> character;
  /// what a user did to a live run, with step numbers (interaction.hpp); `pivot run` applies
  /// them in order and, with an "end" event, stops there
  std::vector<SceneInteraction> interactions;
  /// what a URDF model says that the scene does not simulate (joint damping, friction, mimic;
  /// docs/models.md), one line each: the CLI prints them as warnings
  std::vector<std::string> warnings;

  /// index of the body with this name, or −1
  [[nodiscard]] int find_body(std::string_view name) const;
};

/// Reads and validates a scene file. Relative mesh paths are resolved against the file's
/// folder; mesh files are read now. Throws pivot::Error (also for an unreadable file, a folder,
/// or a file larger than kMaxSceneBytes), one line:
///   `FILE: /bodies/2/mass: expected a positive number (got -1)`  (a value), or
///   `FILE: line 3, column 7: syntax error: ...`                  (malformed JSON).
[[nodiscard]] Scene load_scene(const std::filesystem::path& file);

/// What a listing shows of a scene file, read without building its bodies, shapes or meshes.
struct SceneSummary {
  std::string name;         ///< "name" (default: the file's stem)
  std::string description;  ///< "description", default empty
  double duration = 1.0;    ///< "settings.duration", s (SceneSettings's default when absent)
};

/// Reads a scene file's header: the format version, "name", "description" and "settings"
/// (checked as load_scene checks them), not its bodies, joints or other sections, so a listing
/// of many scenes reads no mesh file. Throws pivot::Error as load_scene does; a file it accepts
/// may still be refused by load_scene for a section it does not read.
[[nodiscard]] SceneSummary load_scene_summary(const std::filesystem::path& file);

/// Parses a scene from JSON text. `base_dir` resolves relative mesh paths; `source` names the
/// text in error messages (a file name, or e.g. "<built-in default scene>"). Throws pivot::Error.
[[nodiscard]] Scene parse_scene(std::string_view json_text, const std::filesystem::path& base_dir,
                                std::string_view source = "<scene>");

/// One event of a scene's "interactions" from its JSON text (e.g. a live viewer's message,
/// docs/cli.md "pivot serve"), read as strictly as a scene file: throws pivot::Error naming
/// `source` and the JSON pointer (`message: /target: expected an array of 3 numbers ...`).
[[nodiscard]] SceneInteraction parse_interaction(std::string_view json_text,
                                                 std::string_view source);

/// Builds the World: settings, then bodies, joints (with their collision switch), springs and
/// manipulanda (each a TrajectoryCoupling with lead = the time step) in file order. Errors of the
/// engine are rethrown as pivot::Error with the JSON pointer of the offending entry (`/bodies/2:
/// body "link3": ...`).
[[nodiscard]] World build_world(const Scene& scene);
/// the scene's sensors (Scene::sensors) in a SensorSet, for a World that build_world made;
/// pivot::Error naming the entry ("/sensors/i") for a bad one
[[nodiscard]] SensorSet build_sensors(const Scene& scene);

/// The scene as pretty-printed JSON (2-space indent), every default filled in, canonical keys
/// only (radians, no *_deg keys), quaternions normalized; it loads back to the same scene.
[[nodiscard]] std::string resolved_scene_json(const Scene& scene);

/// The built-in default scene's JSON text (scenes/default.json has the same content): a
/// chain of six boxes hanging from a ball joint, swinging in 3-D, 2 s; needs no contacts.
[[nodiscard]] std::string_view default_scene_json();

/// FNV-1a 64 over the state of every body in body order: for body i, the 7 doubles of its
/// position (x, y, z, then the quaternion in Eigen's storage order qx, qy, qz, qw) followed by
/// the 6 doubles of its twist (ωx, ωy, ωz, vx, vy, vz), each double as its IEEE-754 binary64
/// bit pattern in little-endian byte order (so the hash is the same on every platform; note
/// that 0.0 and −0.0 differ). Offset basis 0xcbf29ce484222325, prime 0x100000001b3.
[[nodiscard]] std::uint64_t state_hash(const World& world);

/// the hash as 16 lower-case hexadecimal digits
[[nodiscard]] std::string hash_to_hex(std::uint64_t hash);

}  // namespace pivot
