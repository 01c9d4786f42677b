#pragma once
// The point of a triangle closest to a point, with the feature it lies on (internal): Ericson,
// Real-Time Collision Detection (2005), §5.1.5, by Voronoi regions. Shared by the exact
// near-surface pass of mesh_distance_field.cpp and the mesh surface distance
// (mesh_surface_distance.hpp), whose sign needs the feature.

#include "pivot/core/spatial.hpp"

namespace pivot::detail {

/// where on triangle abc the closest point lies
enum class TriangleFeature { vertex_a, vertex_b, vertex_c, edge_ab, edge_ac, edge_bc, face };

struct TriangleClosest {
  Vec3 point = Vec3::Zero();
  TriangleFeature feature = TriangleFeature::face;
};

/// the point of triangle abc closest to p and its feature (Ericson §5.1.5)
[[nodiscard]] inline TriangleClosest closest_on_triangle(const Vec3& p, const Vec3& a,
                                                         const Vec3& b, const Vec3& c) {
  using F = TriangleFeature;
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const double d1 = ab.dot(ap), d2 = ac.dot(ap);
  if (d1 <= 0.0 && d2 <= 0.0) return {a, F::vertex_a};
  const Vec3 bp = p - b;
  const double d3 = ab.dot(bp), d4 = ac.dot(bp);
  if (d3 >= 0.0 && d4 <= d3) return {b, F::vertex_b};
  const double vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) return {a + d1 / (d1 - d3) * ab, F::edge_ab};
  const Vec3 cp = p - c;
  const double d5 = ab.dot(cp), d6 = ac.dot(cp);
  if (d6 >= 0.0 && d5 <= d6) return {c, F::vertex_c};
  const double vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) return {a + d2 / (d2 - d6) * ac, F::edge_ac};
  const double va = d3 * d6 - d5 * d4;
  if (va <= 0.0 && d4 - d3 >= 0.0 && d5 - d6 >= 0.0)
    return {b + (d4 - d3) / ((d4 - d3) + (d5 - d6)) * (c - b), F::edge_bc};
  const double denom = 1.0 / (va + vb + vc);
  return {a + ab * (vb * denom) + ac * (vc * denom), F::face};
}

}  // namespace pivot::detail
