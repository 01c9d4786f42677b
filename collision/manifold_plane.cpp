// Any convex part against a plane, analytically (collision_world.cpp's header says why planes
// are not left to Bullet: a resting box needs its four corners in one call).
#include <cmath>

#include "pivot/collision/manifold.hpp"

namespace pivot::detail {

/// part A (not a plane) against plane part B
ContactPoints plane_manifold(const PartGeometry& A, const PartGeometry& B, double margin) {
  const Vec3 n = B.R * B.shape->normal;
  const double d = B.shape->offset + n.dot(B.p);  // n·x = d in world
  PointList candidates;
  const Shape& s = *A.shape;
  switch (s.type) {
    case ShapeType::sphere:
      candidates.push_back(A.p - s.radius * n);
      break;
    case ShapeType::capsule: {
      const Vec3 axis = A.R.col(2);
      candidates.push_back(A.p + s.half_length * axis - s.radius * n);
      // half length 0: one end, a sphere (the second would be the same contact twice)
      if (s.half_length > 0.0) candidates.push_back(A.p - s.half_length * axis - s.radius * n);
      break;
    }
    case ShapeType::cylinder: {
      // four fixed rim points per cap (so a cylinder standing on its cap rests on a
      // polygon) and the deepest rim point (the exact closest point when tilted)
      const Vec3 axis = A.R.col(2), u = A.R.col(0), v = A.R.col(1);
      Vec3 w = -n + n.dot(axis) * axis;
      const double wl = w.norm();
      for (const double sign : {1.0, -1.0}) {
        const Vec3 cap = A.p + sign * s.half_length * axis;
        candidates.push_back(cap + s.radius * u);
        candidates.push_back(cap + s.radius * v);
        candidates.push_back(cap - s.radius * u);
        candidates.push_back(cap - s.radius * v);
        if (wl > 1e-9) {
          // not again if it is one of this cap's four rim points
          const Vec3 deepest = cap + s.radius * w / wl;
          append_unless_near(
              candidates, deepest,
              [&](const Vec3& o, const Vec3& x) { return (o - x).norm() < 1e-9 * A.scale; },
              candidates.size() - 4);
        }
      }
      break;
    }
    case ShapeType::ellipsoid: {
      const Vec3 n_S = A.R.transpose() * n;
      const Vec3 an = s.radii.cwiseProduct(n_S);
      candidates.push_back(A.p - A.R * (s.radii.cwiseProduct(an) / an.norm()));
      break;
    }
    case ShapeType::box:
    case ShapeType::convex:
      for (const Vec3& x : A.polytope->vertices) candidates.push_back(A.R * x + A.p);
      break;
    default:
      break;
  }
  ContactPoints out;
  for (const Vec3& x : candidates) {
    const ContactPoint c = point_plane_contact(x, n, d);
    if (c.gap <= margin) out.push_back(c);
  }
  return reduce_manifold(std::move(out));
}

}  // namespace pivot::detail
