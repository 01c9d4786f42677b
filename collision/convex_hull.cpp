#include "pivot/collision/convex_hull.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <utility>

#include <fmt/core.h>

#include "pivot/core/error.hpp"

namespace pivot {

namespace {

struct Face {
  std::array<int, 3> v;  // indices into the input points, counter-clockwise from outside
  Vec3 n;                // unit outward normal
  double d;              // n·x = d on the face's plane
  bool alive = true;
};

Face make_face(const std::vector<Vec3>& p, int a, int b, int c) {
  Face f;
  f.v = {a, b, c};
  const Vec3 n = (p[b] - p[a]).cross(p[c] - p[a]);
  f.n = n.normalized();
  f.d = f.n.dot(p[a]);
  return f;
}

}  // namespace

// Incremental hull (Preparata & Hong; Clarkson & Shor's insertion order is not needed at
// this size): start from a well-spread tetrahedron, then add the remaining points farthest
// first. A point sees a face when it lies more than eps above the face's plane; the visible
// faces are removed and the horizon (edges between a visible and a hidden face) is joined
// to the new point. An interior reference point (the first tetrahedron's centroid) stays
// strictly inside, so the orientation of every new face is fixed by it.
//
// Bounds (docs/limits.md): coordinates within ±kMaxHullCoordinate; at most kMaxHullPoints
// points; and, since a triangulated convex polyhedron of V ≤ n vertices has 2V − 4 faces
// (Euler), more live faces than 2n − 4, or more faces created than kHullFacesPerPoint·n, means
// the visibility tests have become inconsistent (rounding): the hull stops with an Error that
// says so instead of growing without bound (a Bézier surface's 9000 samples at x = 1e5 grew it
// past 7.5 GB, issue #24). Points whose bounding box lies far from the origin (its centre more
// than 100 diagonals away) are first shifted by that centre, so the planes n·x = d keep the
// digits the tolerance eps needs; nearer boxes are used as given (their hulls are unchanged).
ConvexHull convex_hull(const std::vector<Vec3>& points) {
  const int n = static_cast<int>(points.size());
  if (n < 4) throw Error(fmt::format("convex hull: needs at least 4 points (got {})", n));
  if (points.size() > kMaxHullPoints)
    throw Error(fmt::format("convex hull: {} points, more than the limit of {}", points.size(),
                            kMaxHullPoints));
  for (int i = 0; i < n; ++i) {
    const Vec3& x = points[static_cast<std::size_t>(i)];
    if (!x.allFinite()) throw Error(fmt::format("convex hull: point {} is not finite", i));
    if (x.cwiseAbs().maxCoeff() > kMaxHullCoordinate)
      throw Error(fmt::format(
          "convex hull: point {} has a coordinate of magnitude {:g}, beyond the limit of {:g}", i,
          x.cwiseAbs().maxCoeff(), kMaxHullCoordinate));
  }
  Vec3 lo = points[0], hi = points[0];
  for (const Vec3& x : points) {
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
  }
  const double scale = (hi - lo).norm();
  const Vec3 centre = 0.5 * (lo + hi);
  std::vector<Vec3> shifted;
  if (centre.norm() > 100.0 * scale) {
    shifted.reserve(points.size());
    for (const Vec3& x : points) shifted.push_back(x - centre);
  }
  const auto& p = shifted.empty() ? points : shifted;
  auto P = [&](int i) -> const Vec3& { return p[static_cast<std::size_t>(i)]; };

  const double eps = 1e-10 * std::max(scale, 1e-300);
  const double degenerate = 1e-9 * std::max(scale, 1e-300);

  // initial tetrahedron: an extreme point, the farthest from it, the farthest from their
  // line, the farthest from their plane
  int i0 = 0;
  for (int i = 1; i < n; ++i)
    if (P(i).x() < P(i0).x()) i0 = i;
  int i1 = -1;
  double best = -1.0;
  for (int i = 0; i < n; ++i) {
    const double d = (P(i) - P(i0)).squaredNorm();
    if (d > best) best = d, i1 = i;
  }
  if (std::sqrt(best) <= degenerate) throw Error("convex hull: all points coincide");
  const Vec3 u = (P(i1) - P(i0)).normalized();
  int i2 = -1;
  best = -1.0;
  for (int i = 0; i < n; ++i) {
    const double d = (P(i) - P(i0)).cross(u).norm();
    if (d > best) best = d, i2 = i;
  }
  if (best <= degenerate) throw Error("convex hull: all points are collinear");
  const Vec3 w = (P(i1) - P(i0)).cross(P(i2) - P(i0)).normalized();
  int i3 = -1;
  best = -1.0;
  for (int i = 0; i < n; ++i) {
    const double d = std::abs(w.dot(P(i) - P(i0)));
    if (d > best) best = d, i3 = i;
  }
  if (best <= degenerate)
    throw Error("convex hull: all points are coplanar (the shape has no volume)");

  const Vec3 inside = (P(i0) + P(i1) + P(i2) + P(i3)) / 4.0;
  std::vector<Face> faces;
  auto add_face = [&](int a, int b, int c) {
    Face f = make_face(p, a, b, c);
    if (f.n.dot(inside) > f.d) {  // wrong way round: flip
      std::swap(f.v[1], f.v[2]);
      f.n = -f.n;
      f.d = -f.d;
    }
    faces.push_back(f);
  };
  add_face(i0, i1, i2);
  add_face(i0, i1, i3);
  add_face(i0, i2, i3);
  add_face(i1, i2, i3);

  // the rest, farthest from the interior point first (corners before interior points)
  std::vector<int> order;
  for (int i = 0; i < n; ++i)
    if (i != i0 && i != i1 && i != i2 && i != i3) order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
    return (P(a) - inside).squaredNorm() > (P(b) - inside).squaredNorm();
  });

  std::map<std::pair<int, int>, int> edge_face;  // directed edge → live face holding it
  std::vector<int> visible;
  long live = 4;  // live faces
  const long max_live = std::max(4L, 2L * n - 4L);
  const long max_created = kHullFacesPerPoint * static_cast<long>(n);
  long work = 0;  // visibility tests so far (bounded by kMaxHullWork)
  for (const int ip : order) {
    work += static_cast<long>(faces.size());
    if (work > kMaxHullWork)
      throw Error(fmt::format(
          "convex hull: {} points need more than {:g} visibility tests, the limit that bounds "
          "its time (a few thousand points on a smooth surface, all of them corners; use fewer "
          "points or "
          "surface_samples)",
          n, static_cast<double>(kMaxHullWork)));
    visible.clear();
    for (int f = 0; f < static_cast<int>(faces.size()); ++f) {
      const Face& face = faces[static_cast<std::size_t>(f)];
      if (face.alive && face.n.dot(P(ip)) - face.d > eps) visible.push_back(f);
    }
    if (visible.empty()) continue;  // inside or on the hull
    edge_face.clear();
    for (const int f : visible) {
      const auto& v = faces[static_cast<std::size_t>(f)].v;
      for (int k = 0; k < 3; ++k) edge_face[{v[k], v[(k + 1) % 3]}] = f;
    }
    // horizon: directed edges of visible faces whose twin is not on a visible face
    std::vector<std::pair<int, int>> horizon;
    for (const int f : visible) {
      const auto& v = faces[static_cast<std::size_t>(f)].v;
      for (int k = 0; k < 3; ++k) {
        const int a = v[k], b = v[(k + 1) % 3];
        if (!edge_face.count({b, a})) horizon.emplace_back(a, b);
      }
    }
    live += static_cast<long>(horizon.size()) - static_cast<long>(visible.size());
    if (live > max_live || static_cast<long>(faces.size() + horizon.size()) > max_created)
      throw Error(fmt::format(
          "convex hull: {} points give inconsistent faces ({} live, {} made; a hull of n points "
          "has at most 2n - 4): the points are too close together for double precision at "
          "their distance from the origin (spread {:g}, centre at {:g})",
          n, live, faces.size() + horizon.size(), scale, centre.norm()));
    for (const int f : visible) faces[static_cast<std::size_t>(f)].alive = false;
    for (const auto& [a, b] : horizon) {
      Face face = make_face(p, a, b, ip);  // keeps the edge's direction: outward
      faces.push_back(face);
    }
  }

  // compact: keep the live faces, renumber the vertices they use
  ConvexHull hull;
  std::vector<int> remap(static_cast<std::size_t>(n), -1);
  for (const Face& f : faces) {
    if (!f.alive) continue;
    std::array<int, 3> t{};
    for (int k = 0; k < 3; ++k) {
      int& r = remap[static_cast<std::size_t>(f.v[k])];
      if (r < 0) {
        r = static_cast<int>(hull.vertices.size());
        hull.vertices.push_back(points[static_cast<std::size_t>(f.v[k])]);
      }
      t[k] = r;
    }
    hull.triangles.push_back(t);
  }
  return hull;
}

}  // namespace pivot
