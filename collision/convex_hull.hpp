#pragma once
// A small 3D convex hull (incremental, O(n²); meant for the few hundred to few thousand points
// of a convex shape; kMaxHullWork bounds its time). Used for the mass properties of convex
// shapes and for their vertex lists in the collision bridge; independent of Bullet.

#include <array>
#include <cstddef>
#include <vector>

#include "pivot/core/spatial.hpp"

namespace pivot {

struct ConvexHull {
  std::vector<Vec3> vertices;                 ///< the hull's corner points (a subset of the input)
  std::vector<std::array<int, 3>> triangles;  ///< indices into `vertices`, counter-clockwise
                                              ///< seen from outside (outward normals)
};

/// the most points a hull is built from (a convex shape's points, a smooth surface's samples)
inline constexpr std::size_t kMaxHullPoints = 100000;
/// the largest coordinate magnitude of a hull's point, m
inline constexpr double kMaxHullCoordinate = 1e9;
/// faces made per point at most (each insertion makes its horizon's; rounding beyond this is
/// reported, not followed)
inline constexpr long kHullFacesPerPoint = 64;
/// visibility tests (a point against a face) one hull may make: the incremental hull tests
/// each point against every face made so far, a number that grows as n² for n points that are
/// all corners (a smooth surface's samples), so this bounds one hull to well under a second
/// and to a few thousand such points (a sphere grid of 9 940 points is refused, one of 2 112
/// is hulled: tests/collision/test_limits.cpp); the largest surface_samples (32 × 32) stay
/// below it
inline constexpr long kMaxHullWork = 100'000'000;

/// the convex hull of `points`. Points within a relative tolerance (1e-10 of the bounding box
/// diagonal) of a face count as on it and are dropped. Throws pivot::Error when there are fewer
/// than 4 points, a point is not finite or beyond kMaxHullCoordinate, more than kMaxHullPoints
/// points, all points are (nearly) coplanar, rounding makes the faces inconsistent (more
/// live faces than a convex hull can have; the message says what was too large), or the points
/// need more than kMaxHullWork visibility tests.
[[nodiscard]] ConvexHull convex_hull(const std::vector<Vec3>& points);

}  // namespace pivot
