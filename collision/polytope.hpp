#pragma once
// Convex polytopes (boxes and convex hulls) with their faces and edges, and the exact contact
// manifold between two of them: separating-axis test over face normals and Minkowski-face edge
// pairs (Gregorius, "The Separating Axis Test between Convex Polyhedra", GDC 2013), then
// Sutherland–Hodgman clipping of the incident face against the reference face's side planes.
// Internal to the collision module; independent of Bullet.

#include <cstddef>
#include <span>
#include <vector>

#include <boost/container/small_vector.hpp>

#include "pivot/collision/convex_hull.hpp"
#include "pivot/core/spatial.hpp"

namespace pivot::detail {

/// a contact point pair between bodies A and B (all world)
struct ContactPoint {
  Vec3 p_WCa = Vec3::Zero();    ///< Ca on A's surface
  Vec3 p_WCb = Vec3::Zero();    ///< Cb on B's surface
  Vec3 n_BA_W = Vec3::UnitZ();  ///< unit, from B to A
  double gap = 0.0;             ///< n_BA_W·(p_WCa − p_WCb)
};

/// the same contact seen with A and B swapped
[[nodiscard]] ContactPoint flipped(const ContactPoint& c);

/// a manifold's points, the first 8 stored inline (Boost.Container's small_vector, a
/// std::vector otherwise): a box's clipped face has at most 8 points, so the manifolds of boxes,
/// spheres and planes never touch the heap; a larger hull's lists spill to it
using ContactPoints = boost::container::small_vector<ContactPoint, 8>;
/// a polygon or a placed polytope's vertices, the first 16 inline (a box face clipped by a box
/// face has at most 8 points; a box has 8 vertices and 6 faces)
using PointList = boost::container::small_vector<Vec3, 16>;

struct Polytope {
  struct Face {
    std::vector<int> loop;  ///< vertex indices, counter-clockwise seen from outside
    Vec3 normal;            ///< unit, outward
    double offset = 0.0;    ///< normal·x = offset on the face
  };
  struct Edge {
    int v0 = 0, v1 = 0;  ///< end vertices
    int f0 = 0, f1 = 0;  ///< the two faces that meet there
  };
  std::vector<Vec3> vertices;    ///< in the polytope's own frame
  std::vector<Face> faces;       ///< coplanar hull triangles merged into one polygon
  std::vector<Edge> edges;       ///< only edges between different faces
  Vec3 centroid = Vec3::Zero();  ///< an interior point (vertex mean)
  double radius = 0.0;           ///< max distance of a vertex from the centroid (a length scale)
};

[[nodiscard]] Polytope make_polytope(const ConvexHull& hull);
[[nodiscard]] Polytope make_box_polytope(const Vec3& half_extents);

/// the result of polytope_contacts
struct PolytopeQuery {
  bool separated = false;        ///< some axis separates by more than the margin
  double separation = 0.0;       ///< the SAT separation (≤ true distance when > 0)
  double axis_separation = 0.0;  ///< the separation along the axis the points use; when
                                 ///< the points' least gap exceeds it, the deepest
                                 ///< feature was clipped away
  ContactPoints points;          ///< gap ≤ margin; may be empty when !separated (the
                                 ///< caller should then fall back to a closest-point query)
};

/// contacts between polytope A at (R_A, p_A) and B at (R_B, p_B), world = R x + p
[[nodiscard]] PolytopeQuery polytope_contacts(const Polytope& A, const Mat3& R_A, const Vec3& p_A,
                                              const Polytope& B, const Mat3& R_B, const Vec3& p_B,
                                              double margin);

/// the face of polytope P (placed at R, p) most opposed to the direction n, as world vertices
/// (counter-clockwise seen from outside P)
[[nodiscard]] PointList incident_face(const Polytope& P, const Mat3& R, const Vec3& p,
                                      const Vec3& n);

/// Sutherland–Hodgman: the part of `polygon` inside the side planes of the reference polygon
/// `loop` (counter-clockwise around its outward normal n), with points up to tol outside kept
[[nodiscard]] PointList clip_to_face(PointList polygon, std::span<const Vec3> loop, const Vec3& n,
                                     double tol);

/// a manifold of more than `max_points` points (all about one normal) is cut to 4: the deepest
/// point, the one farthest from it, then the two that span the largest area (the reduction of
/// Bullet's contact cache and Box2D). Deterministic: ties go to the earlier point; the kept
/// points stay in their input order.
[[nodiscard]] ContactPoints reduce_manifold(ContactPoints points, std::size_t max_points = 4);
[[nodiscard]] std::vector<ContactPoint> reduce_manifold(std::vector<ContactPoint> points,
                                                        std::size_t max_points = 4);
/// reduce_manifold in place: the kept points moved to the front of `points`, in their order;
/// returns how many were kept
std::size_t reduce_manifold_in_place(std::span<ContactPoint> points, std::size_t max_points = 4);

/// the closest points of segments [p1, q1] and [p2, q2] (Ericson, Real-Time Collision
/// Detection, §5.1.9): c1 = p1 + s (q1 − p1), c2 = p2 + t (q2 − p2)
void closest_points_segments(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2,
                             Vec3& c1, Vec3& c2);

}  // namespace pivot::detail
