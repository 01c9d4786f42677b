// The exact signed distance of a convex polytope: see polytope_distance.hpp.
#include "pivot/collision/polytope_distance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pivot::detail {

namespace {

/// the point of segment ab closest to p
Vec3 closest_on_segment(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 ab = b - a;
  const double len2 = ab.squaredNorm();
  const double s = len2 > 0.0 ? std::clamp((p - a).dot(ab) / len2, 0.0, 1.0) : 0.0;
  return a + s * ab;
}

}  // namespace

PolytopeDistance::Result PolytopeDistance::query(const Vec3& p) const {
  Result inside{-std::numeric_limits<double>::infinity(), Vec3::UnitZ()};
  double best2 = std::numeric_limits<double>::infinity();
  Vec3 best_point = p;
  bool outside = false;
  for (const Polytope::Face& f : P_.faces) {
    const double h = f.normal.dot(p) - f.offset;
    if (h > inside.d) inside = {h, f.normal};
    if (h <= 0.0) continue;
    outside = true;
    // the projection onto the face's plane, inside the polygon when it is left of every edge
    // (the loop runs counter-clockwise about the outward normal)
    const Vec3 q = p - h * f.normal;
    bool in_polygon = true;
    const std::size_t n = f.loop.size();
    for (std::size_t i = 0; i < n && in_polygon; ++i) {
      const Vec3& a = P_.vertices[static_cast<std::size_t>(f.loop[i])];
      const Vec3& b = P_.vertices[static_cast<std::size_t>(f.loop[(i + 1) % n])];
      if ((b - a).cross(q - a).dot(f.normal) < 0.0) in_polygon = false;
    }
    if (in_polygon) {
      if (h * h < best2) {
        best2 = h * h;
        best_point = q;
      }
      continue;
    }
    for (std::size_t i = 0; i < n; ++i) {
      const Vec3 c = closest_on_segment(p, P_.vertices[static_cast<std::size_t>(f.loop[i])],
                                        P_.vertices[static_cast<std::size_t>(f.loop[(i + 1) % n])]);
      const double d2 = (p - c).squaredNorm();
      if (d2 < best2) {
        best2 = d2;
        best_point = c;
      }
    }
  }
  if (!outside) return inside;
  const double d = std::sqrt(best2);
  return {d, d > 0.0 ? Vec3((p - best_point) / d) : inside.n};
}

}  // namespace pivot::detail
