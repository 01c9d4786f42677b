#pragma once
// Collision shapes and their mass properties. A shape is described in its own frame S; the body
// that carries it puts its centre of mass at the shape's centroid (com_S) with axes parallel to
// S, so for the symmetric primitives the body frame and S coincide.
//
// Conventions: capsule and cylinder are along the shape's z axis; a plane is {x : n·x = offset}
// with solid below (n points out of the solid); mesh and plane are for fixed bodies only (a
// moving body carries a mesh file as its hull, its sdf shape or its convex parts, make_mesh_shape).

#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pivot/core/spatial.hpp"

namespace pivot {

enum class ShapeType {
  sphere,
  box,
  capsule,
  cylinder,
  ellipsoid,
  convex,
  plane,
  mesh,
  compound,
  sdf,
  /// a 2-D shape of a planar world (Shape::planar; collision/planar_shape.hpp, docs/planar.md):
  /// not a type of 3-D scene files, which is why kShapeTypeNames does not list it
  planar
};

/// the one table of shape names, as written in scene files, in no particular order
struct ShapeTypeName {
  ShapeType type;
  const char* name;
};
inline constexpr std::array<ShapeTypeName, 10> kShapeTypeNames = {{
    {ShapeType::sphere, "sphere"},
    {ShapeType::box, "box"},
    {ShapeType::capsule, "capsule"},
    {ShapeType::cylinder, "cylinder"},
    {ShapeType::ellipsoid, "ellipsoid"},
    {ShapeType::convex, "convex"},
    {ShapeType::plane, "plane"},
    {ShapeType::mesh, "mesh"},
    {ShapeType::compound, "compound"},
    {ShapeType::sdf, "sdf"},
}};

/// "sphere", "box", ... as written in scene files (kShapeTypeNames)
[[nodiscard]] const char* to_string(ShapeType type);
/// the shape type of a name of kShapeTypeNames; none for any other text
[[nodiscard]] std::optional<ShapeType> shape_type_from_name(std::string_view name);

namespace detail {
struct SdfModel;      // collision/sdf_model.hpp
struct TriangleMesh;  // collision/mesh_file.hpp
struct ConvexHull;    // collision/convex_hull.hpp
}  // namespace detail
struct PlanarShape;  // collision/planar_shape.hpp

struct Shape;
using ShapePtr = std::shared_ptr<const Shape>;

struct CompoundChild {
  ShapePtr shape;
  Vec3 position = Vec3::Zero();         ///< child frame origin in the compound's frame, m
  Quat orientation = Quat::Identity();  ///< child → compound rotation
};

/// a shape: the fields its type uses are set, the others keep their defaults
struct Shape {
  ShapeType type = ShapeType::sphere;
  double radius = 0.0;               ///< sphere, capsule, cylinder, m
  Vec3 half_extents = Vec3::Zero();  ///< box, m
  double half_length = 0.0;          ///< capsule (cylinder part), cylinder, m
  Vec3 radii = Vec3::Zero();         ///< ellipsoid semi-axes, m
  std::vector<Vec3> points;          ///< convex: the hull's points; mesh: vertices, m
  /// convex: the hull of `points`, built once by make_convex (mass properties and the collision
  /// shape use it; a Shape filled in by hand without it gets its hull built where needed)
  std::shared_ptr<const detail::ConvexHull> hull;
  std::vector<std::array<int, 3>> triangles;  ///< mesh: vertex indices, counter-clockwise out
  Vec3 normal = Vec3::UnitZ();                ///< plane: unit outward normal
  double offset = 0.0;                        ///< plane: n·x = offset, m
  std::vector<CompoundChild> children;        ///< compound
  std::string source;  ///< mesh, sdf: the file it was read from (for messages)
  /// convex, compound made of a closed mesh (make_mesh_shape): that mesh, whose volume integrals
  /// are the mass properties (the hull or the convex parts are only what collides); null else
  std::shared_ptr<const detail::TriangleMesh> solid;
  /// sdf: the distance field and point shell of the closed mesh in `points`/`triangles`
  std::shared_ptr<const detail::SdfModel> sdf;
  std::shared_ptr<const PlanarShape> planar;  ///< planar: the 2-D shape in the frame's x–z plane
};

/// the default grid of an sdf shape: its bounding box's largest side over this many voxels
inline constexpr double kSdfDefaultCells = 64.0;
/// the default point count of an sdf shape's point shell is area / voxel² (Barbič 2007, §3.8:
/// points no coarser than voxels), within these bounds
inline constexpr int kSdfMinDefaultPoints = 512;
inline constexpr int kSdfMaxDefaultPoints = 16384;
/// the most points a shell may have (farthest-point ordering is O(points²))
inline constexpr int kSdfMaxPoints = 65536;

/// how an sdf shape is built from its closed triangle mesh (docs/distributed-contact.md)
struct SdfShapeSettings {
  double voxel = 0.0;    ///< grid spacing, m; 0: the bounding box's largest side / 64
  int points = 0;        ///< point-shell size; 0: area / voxel² within [512, 16384]
  long node_budget = 0;  ///< visited tree nodes per pair and step (V_W); 0: unlimited
};

// Factories: validate (positive finite sizes, enough non-degenerate points, unit-able normal)
// and throw pivot::Error naming the problem.
[[nodiscard]] ShapePtr make_sphere(double radius);
[[nodiscard]] ShapePtr make_box(const Vec3& half_extents);
/// a capsule along the body z axis: a cylinder of `half_length` (≥ 0; 0 is a sphere) capped by
/// two hemispheres of `radius` (> 0)
[[nodiscard]] ShapePtr make_capsule(double radius, double half_length);
[[nodiscard]] ShapePtr make_cylinder(double radius, double half_length);
[[nodiscard]] ShapePtr make_ellipsoid(const Vec3& radii);
/// keeps the points as given (interior points allowed); the hull is computed from them
/// (collision/convex_hull.hpp) for the mass properties and the collision shape
[[nodiscard]] ShapePtr make_convex(std::vector<Vec3> points);
/// the normal is normalized (it must not be zero); the offset is kept as given, i.e. it is the
/// plane's signed distance from the origin along the unit normal
[[nodiscard]] ShapePtr make_plane(const Vec3& normal, double offset);
/// a planar world's shape (docs/planar.md); throws pivot::Error for a null shape
[[nodiscard]] ShapePtr make_planar(std::shared_ptr<const PlanarShape> shape);
[[nodiscard]] ShapePtr make_mesh(std::vector<Vec3> vertices,
                                 std::vector<std::array<int, 3>> triangles, std::string source);
/// a fixed body's triangle mesh read from a mesh file of any format (collision/mesh_file.hpp
/// read_mesh_file: STL, OBJ, PLY, Collada, glTF), its vertices scaled by `scale` (> 0 per
/// axis); throws pivot::Error naming the file and what is wrong
[[nodiscard]] ShapePtr load_mesh_file(const std::string& path, const Vec3& scale = Vec3::Ones());
/// the vertices of a mesh file of any format, scaled (a convex shape's points from a file)
[[nodiscard]] std::vector<Vec3> load_mesh_points(const std::string& path,
                                                 const Vec3& scale = Vec3::Ones());
[[nodiscard]] ShapePtr make_compound(std::vector<CompoundChild> children);
/// a shape for complex, non-convex bodies, fixed or moving: a closed, outward-oriented triangle
/// mesh, given its signed distance field and point shell now (Barbič 2007, ch. 3); throws
/// pivot::Error naming `source` for an open or inverted mesh or bad settings
[[nodiscard]] ShapePtr make_sdf_shape(std::vector<Vec3> vertices,
                                      std::vector<std::array<int, 3>> triangles,
                                      const SdfShapeSettings& settings, std::string source);
/// the same from a mesh file of any format (read_mesh_file), scaled by `scale`
[[nodiscard]] ShapePtr load_sdf_shape(const std::string& path, const SdfShapeSettings& settings,
                                      const Vec3& scale = Vec3::Ones());

/// how a mesh file collides (a scene's "collision" key; docs/meshes.md)
enum class MeshCollision {
  triangles,     ///< the triangles themselves (ShapeType::mesh): fixed bodies only
  hull,          ///< the convex hull of the vertices (ShapeType::convex)
  sdf,           ///< distance field and point shell (ShapeType::sdf)
  decomposition  ///< convex parts (a ShapeType::compound of convex shapes)
};
/// "triangles", "hull", "sdf", "decomposition"
[[nodiscard]] const char* to_string(MeshCollision collision);
/// the MeshCollision of one of those names; none for any other text
[[nodiscard]] std::optional<MeshCollision> mesh_collision_from_name(std::string_view name);

/// a shape from a triangle mesh, colliding as `collision` says. For hull, sdf and
/// decomposition the mesh must be closed and outward-oriented (check_closed_mesh), and the
/// mass properties are the closed mesh's (Shape::solid; for sdf its own mesh). `sdf` is used by
/// the sdf mode only. Throws pivot::Error naming `source`.
[[nodiscard]] ShapePtr make_mesh_shape(std::vector<Vec3> vertices,
                                       std::vector<std::array<int, 3>> triangles,
                                       MeshCollision collision, const SdfShapeSettings& sdf,
                                       std::string source);
/// the same from a mesh file of any format (read_mesh_file), scaled by `scale`
[[nodiscard]] ShapePtr load_mesh_shape(const std::string& path, MeshCollision collision,
                                       const Vec3& scale = Vec3::Ones(),
                                       const SdfShapeSettings& sdf = {});

/// mass, centre of mass and inertia of a solid shape of uniform density
struct MassProperties {
  double mass = 0.0;            ///< kg
  Vec3 com_S = Vec3::Zero();    ///< centre of mass in the shape frame, m
  Mat3 inertia = Mat3::Zero();  ///< about the centre of mass, axes of the shape frame, kg·m²
  double volume = 0.0;          ///< m³
};

/// for density ρ > 0 (kg/m³), of Shape::solid when it is set; throws pivot::Error for plane and
/// mesh (no finite volume)
[[nodiscard]] MassProperties mass_properties(const Shape& shape, double density);
/// the same scaled to a given total mass (kg)
[[nodiscard]] MassProperties mass_properties_for_mass(const Shape& shape, double mass);

}  // namespace pivot
