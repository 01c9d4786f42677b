#pragma once
// Shapes of a planar world ("dimension": 2, docs/planar.md): 2-D shapes in the world x–z plane,
// their planar poses and their mass properties as laminae.
//
// Coordinates: a Vec2 holds (x, z). "Counter-clockwise" means counter-clockwise when drawn with
// x to the right and z up: cross(a, b) = a.x b.z − a.z b.x > 0 turns a toward b. An edge e of a
// counter-clockwise polygon has the outward normal (e.z, −e.x)/|e|.
//
// A planar pose (θ, p) is the 3-D rotation by θ about the world +y axis and a translation in the
// plane, so a shape point b = (bx, bz) sits at
//   x = p.x + cos θ bx + sin θ bz,   z = p.z − sin θ bx + cos θ bz,
// which is R_y(θ) applied to (bx, 0, bz): positive θ turns +z toward +x (clockwise as drawn).
//
// Core representation (Box2D's rounded polygons, Catto, Box2D v3 `b2Polygon`): every shape but
// the half-plane is a convex "core" polygon swept by a rounding radius r:
//   circle = 1 vertex (the origin) + r,  capsule = 2 vertices (±half_length, 0) + r,
//   box and polygon = their counter-clockwise vertices + 0.
// A 2-vertex core is a segment with two directed edges (v0→v1 and v1→v0) and two opposite
// normals; a 1-vertex core has no edges.

#include <cmath>
#include <vector>

#include "pivot/core/spatial.hpp"

namespace pivot {

/// a 2-D point or vector (x, z); the same alias as collision/surface_jet.hpp's
using Vec2 = Eigen::Vector2d;

/// cross(a, b) = a.x b.z − a.z b.x: positive when b is counter-clockwise of a (x right, z up)
[[nodiscard]] inline double cross2(const Vec2& a, const Vec2& b) {
  return a.x() * b.y() - a.y() * b.x();
}

/// the pose of a planar body: rotation θ (rad) about world +y, then translation p = (x, z) (m)
struct PlanarPose {
  double theta = 0.0;     ///< rad, about world +y (positive turns +z toward +x)
  Vec2 p = Vec2::Zero();  ///< m, the frame's origin in world (x, z)

  /// a direction given in the shape frame, in world axes: R_y(θ) on (dx, 0, dz)
  [[nodiscard]] Vec2 rotate(const Vec2& d) const {
    const double c = std::cos(theta), s = std::sin(theta);
    return Vec2(c * d.x() + s * d.y(), -s * d.x() + c * d.y());
  }
  /// a point given in the shape frame, in world coordinates
  [[nodiscard]] Vec2 to_world(const Vec2& b) const { return p + rotate(b); }
};

enum class PlanarShapeType { circle, box, capsule, polygon, half_plane };

/// A planar shape in its own frame. Make one with the make_planar_* factories, which validate.
/// Only the fields of its type are meaningful.
struct PlanarShape {
  PlanarShapeType type = PlanarShapeType::circle;
  double radius = 0.0;               ///< m, circle and capsule (> 0)
  Vec2 half_extents = Vec2::Zero();  ///< m, box: (hx, hz) (> 0), centred, axis-aligned
  double half_length = 0.0;     ///< m, capsule: segment (−half_length, 0)…(+half_length, 0)
  std::vector<Vec2> points;     ///< m, polygon: the convex hull, counter-clockwise, no
                                ///< collinear vertices, starting at the least (x, z)
  Vec2 normal = Vec2::UnitY();  ///< half_plane: unit outward normal n (default +z)
  double offset = 0.0;          ///< m, half_plane: the solid is {p : n·p ≤ offset}
};

/// a circle of radius r (m) centred at the origin; throws pivot::Error unless r > 0 and finite
[[nodiscard]] PlanarShape make_planar_circle(double radius);
/// a box of half extents (hx, hz) (m), centred, axis-aligned; throws unless both are > 0, finite
[[nodiscard]] PlanarShape make_planar_box(double hx, double hz);
/// the segment (−half_length, 0)…(half_length, 0) swept by radius (m); throws unless both are
/// > 0 and finite (a zero-length capsule is a circle: use make_planar_circle)
[[nodiscard]] PlanarShape make_planar_capsule(double radius, double half_length);
/// the convex hull of the points (any order; interior and collinear points dropped), stored
/// counter-clockwise. Throws pivot::Error for a non-finite coordinate or fewer than 3
/// non-collinear points (zero area).
[[nodiscard]] PlanarShape make_planar_polygon(const std::vector<Vec2>& points);
/// the half-plane {p : n̂·p ≤ offset} with n̂ = normal/|normal| (offset is a distance along n̂,
/// m); throws unless both are finite and the normal is not (nearly) zero. Fixed bodies only.
[[nodiscard]] PlanarShape make_planar_half_plane(const Vec2& normal, double offset);

/// a shape's core: a convex polygon (shape frame) swept by a rounding radius
struct PlanarCore {
  std::vector<Vec2> vertices;  ///< counter-clockwise; 1 (circle), 2 (capsule) or ≥ 3
  std::vector<Vec2> normals;   ///< unit outward normal of edge i (vertex i → i+1, cyclic);
                               ///< empty for 1 vertex, 2 opposite ones for 2 vertices
  double radius = 0.0;         ///< m, the rounding radius
};

/// the core of a shape (see the header comment); throws pivot::Error for a half-plane
[[nodiscard]] PlanarCore planar_core(const PlanarShape& shape);

/// the largest distance of a point of the shape from its frame's origin (m): a bounding circle
/// for the broad phase; throws pivot::Error for a half-plane (unbounded)
[[nodiscard]] double planar_bounding_radius(const PlanarShape& shape);

/// the mass properties of a shape as a uniform lamina in its frame's x–z plane
struct PlanarMassProperties {
  double mass = 0.0;             ///< kg
  double area = 0.0;             ///< m²
  Vec2 centroid = Vec2::Zero();  ///< m, the centre of mass in the shape frame (x, z)
  /// kg m², about the centroid in the shape frame's 3-D axes (x, y, z), the lamina in y = 0:
  /// I_xx = ∫z² dm, I_zz = ∫x² dm, I_xz = I_zx = −∫x z dm, I_yy = I_xx + I_zz, I_xy = I_yz = 0
  Mat3 inertia = Mat3::Zero();
};

/// mass properties at areal density ρ (kg/m², > 0 and finite); throws pivot::Error for a
/// half-plane (no finite area) or a bad density
[[nodiscard]] PlanarMassProperties planar_mass_properties(const PlanarShape& shape,
                                                          double areal_density);
/// mass properties for a total mass (kg, > 0 and finite): the density mass/area
[[nodiscard]] PlanarMassProperties planar_mass_properties_for_mass(const PlanarShape& shape,
                                                                   double mass);

}  // namespace pivot
