#pragma once
// Contact manifolds between two leaf parts of collision objects (internal). Normals point from
// part B to part A; a gap is positive when separated. The analytic manifolds are here, one file
// each (manifold_plane.cpp, manifold_segments.cpp); the ones that need GJK/EPA or Bullet's mesh
// queries are in the Bullet bridge (collision_world.cpp). Which manifold a pair of shape types
// gets is the pair table's (pair_table.hpp).

#include <cstddef>
#include <memory>
#include <vector>

#include "pivot/collision/polytope.hpp"
#include "pivot/collision/shape.hpp"
#include "pivot/core/spatial.hpp"

namespace pivot::detail {

/// what the analytic manifolds read of a leaf part: its shape and pose in world
struct PartGeometry {
  const Shape* shape = nullptr;
  std::shared_ptr<const Polytope> polytope;  ///< box and convex
  double scale = 1.0;                        ///< a length (bounding radius) for tolerances
  int leaf = 0;  ///< the part's index among its body's leaves (a compound has one per leaf)
  // set per detect() call
  Mat3 R = Mat3::Identity();  ///< the part's rotation, world
  Vec3 p = Vec3::Zero();      ///< the part's origin, world
};

/// appends x unless near(o, x) holds for one of out[from], out[from + 1], ...: the one
/// duplicate-point test of the manifolds (each passes its own notion of "near")
template <class List, class T, class Near>
void append_unless_near(List& out, const T& x, Near near, std::size_t from = 0) {
  for (std::size_t k = from; k < out.size(); ++k)
    if (near(out[k], x)) return;
  out.push_back(x);
}

/// a point x of A's surface against B's plane {y : n·y = d} (n unit, from B to A, world):
/// gap = n·x − d, Ca = x, Cb = x − gap n (its foot on the plane)
[[nodiscard]] inline ContactPoint point_plane_contact(const Vec3& x, const Vec3& n, double d) {
  ContactPoint c;
  c.n_BA_W = n;
  c.gap = n.dot(x) - d;
  c.p_WCa = x;
  c.p_WCb = x - c.gap * n;
  return c;
}

/// two spheres (centres and radii): the contact along the line of centres, UnitZ when the
/// centres coincide
[[nodiscard]] ContactPoint sphere_sphere(const Vec3& ca, double ra, const Vec3& cb, double rb);

/// part A (not a plane, not a mesh) against plane part B: box and hull, every vertex within
/// the margin; capsule, both end spheres; cylinder, 4 fixed rim points per cap and the deepest
/// rim point; sphere and ellipsoid, the support point. Exact; reduced to 4 points.
[[nodiscard]] ContactPoints plane_manifold(const PartGeometry& A, const PartGeometry& B,
                                           double margin);

/// capsule part A against sphere or capsule part B: sphere–sphere contacts between the closest
/// points of the segments; two (nearly) parallel capsules also get the ends of their overlap
[[nodiscard]] ContactPoints segment_manifold(const PartGeometry& A, const PartGeometry& B,
                                             double margin);

/// planar part A against planar part B (a planar world, docs/planar.md): the parts' poses read
/// as (θ about y, x, z), the 2-D manifold of planar_contacts lifted to the plane y = 0 (points
/// and normals with y = 0 exactly)
[[nodiscard]] std::vector<ContactPoint> planar_manifold(const PartGeometry& A,
                                                        const PartGeometry& B, double margin);

}  // namespace pivot::detail
