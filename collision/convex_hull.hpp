#pragma once
// The 3D convex hull of a point set, by Qhull (Debian's libqhull-dev, the reentrant C library),
// in a canonical order (convex_hull.cpp). Used for the mass properties of
// convex shapes, for their polytopes (polytope.hpp) and for their vertex lists in the collision
// bridge.

#include <array>
#include <cstddef>
#include <vector>

#include "pivot/core/spatial.hpp"

namespace pivot {
struct Shape;  // collision/shape.hpp
}  // namespace pivot

namespace pivot::detail {

struct ConvexHull {
  std::vector<Vec3> vertices;                 ///< the hull's corner points (a subset of the input)
  std::vector<std::array<int, 3>> triangles;  ///< indices into `vertices`, counter-clockwise
                                              ///< seen from outside (outward normals)
};

/// the most points a hull is built from (a convex shape's points, a smooth surface's samples)
inline constexpr std::size_t kMaxHullPoints = 100000;
/// the largest coordinate magnitude of a hull's point, m
inline constexpr double kMaxHullCoordinate = 1e9;
/// the convex hull of `points`: its vertices (a subset of the input, in input order; of
/// duplicate points one is kept) and triangles (coplanar faces fanned from their lowest vertex).
/// Points on a face or an edge of the hull within Qhull's rounding bound are not vertices.
/// Throws pivot::Error when there are fewer than 4 points, more than kMaxHullPoints, a point is
/// not finite or beyond kMaxHullCoordinate, or all points coincide, are collinear or coplanar
/// (within 1e-9 of the bounding box's diagonal: a hull without volume).
[[nodiscard]] ConvexHull convex_hull(const std::vector<Vec3>& points);
/// a convex shape's hull: the one make_convex kept, else built into `storage` and returned
[[nodiscard]] const ConvexHull& hull_of(const Shape& shape, ConvexHull& storage);

}  // namespace pivot::detail
