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

/// the point of segment ab closest to p (a for a zero-length segment) and its feature
/// (`at_a`, `at_b` or `edge`)
[[nodiscard]] inline TriangleClosest closest_on_segment(const Vec3& p, const Vec3& a, const Vec3& b,
                                                        TriangleFeature at_a, TriangleFeature at_b,
                                                        TriangleFeature edge) {
  const Vec3 ab = b - a;
  const double t = ab.dot(p - a), len2 = ab.squaredNorm();
  if (!(t > 0.0) || !(len2 > 0.0)) return {a, at_a};
  if (t >= len2) return {b, at_b};
  return {a + (t / len2) * ab, edge};
}

/// the point of triangle abc closest to p and its feature (Ericson §5.1.5); a degenerate
/// triangle (a zero-length edge, collinear vertices: zero area) is taken as its three edges,
/// so no division is by zero and the point is always finite for finite input
[[nodiscard]] inline TriangleClosest closest_on_triangle(const Vec3& p, const Vec3& a,
                                                         const Vec3& b, const Vec3& c) {
  using F = TriangleFeature;
  const Vec3 ab = b - a, ac = c - a, ap = p - a;
  const auto edges = [&] {
    TriangleClosest best = closest_on_segment(p, a, b, F::vertex_a, F::vertex_b, F::edge_ab);
    for (const TriangleClosest& q :
         {closest_on_segment(p, a, c, F::vertex_a, F::vertex_c, F::edge_ac),
          closest_on_segment(p, b, c, F::vertex_b, F::vertex_c, F::edge_bc)})
      if ((p - q.point).squaredNorm() < (p - best.point).squaredNorm()) best = q;
    return best;
  };
  // a zero cross product: a zero-length edge or collinear vertices (Ericson's edge and face
  // denominators, |ab|², |ac|², |bc|² and |ab × ac|², are then 0 or rounding)
  if (!(ab.cross(ac).squaredNorm() > 0.0)) return edges();
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
  if (!(va + vb + vc > 0.0)) return edges();  // |ab × ac|² rounded to ≤ 0: a sliver
  const double denom = 1.0 / (va + vb + vc);
  return {a + ab * (vb * denom) + ac * (vc * denom), F::face};
}

}  // namespace pivot::detail
