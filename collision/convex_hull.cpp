#include "pivot/collision/convex_hull.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include <cstdio>
#include <cstdlib>
#include <string>

#include <fmt/core.h>
extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include "pivot/core/error.hpp"

namespace pivot::detail {

namespace {

/// throws unless the points span a solid: not all coincident, collinear or coplanar within
/// 1e-9 of their bounding box's diagonal (the dimension tests of an initial tetrahedron: an
/// extreme point, the farthest from it, the farthest from their line, the farthest from their
/// plane)
void check_spans_a_solid(const std::vector<Vec3>& p) {
  Vec3 lo = p[0], hi = p[0];
  for (const Vec3& x : p) {
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
  }
  const Vec3 centre = 0.5 * (lo + hi);
  const double degenerate = 1e-9 * std::max((hi - lo).norm(), 1e-300);
  // about the box's centre, so far points keep their digits
  auto P = [&](std::size_t i) { return Vec3(p[i] - centre); };
  std::size_t i0 = 0;
  for (std::size_t i = 1; i < p.size(); ++i)
    if (P(i).x() < P(i0).x()) i0 = i;
  auto farthest = [&](auto distance) {
    std::pair<double, std::size_t> best{-1.0, 0};
    for (std::size_t i = 0; i < p.size(); ++i) best = std::max(best, {distance(P(i)), i});
    return best;
  };
  const auto [d1, i1] = farthest([&](const Vec3& x) { return (x - P(i0)).norm(); });
  if (d1 <= degenerate) throw Error("convex hull: all points coincide");
  const Vec3 u = (P(i1) - P(i0)).normalized();
  const auto [d2, i2] = farthest([&](const Vec3& x) { return (x - P(i0)).cross(u).norm(); });
  if (d2 <= degenerate) throw Error("convex hull: all points are collinear");
  const Vec3 w = u.cross(P(i2) - P(i0)).normalized();
  const auto [d3, i3] = farthest([&](const Vec3& x) { return std::abs(w.dot(x - P(i0))); });
  (void)i3;
  if (d3 <= degenerate)
    throw Error("convex hull: all points are coplanar (the shape has no volume)");
}

/// one Qhull computation: its state and the memory stream its messages go to, freed on every
/// way out
struct QhullRun {
  qhT qh{};
  char* buffer = nullptr;
  std::size_t size = 0;
  FILE* messages = nullptr;

  QhullRun() {
    messages = open_memstream(&buffer, &size);
    qh_zero(&qh, messages);
  }
  ~QhullRun() {
    int long_left = 0, total_left = 0;
    qh_freeqhull(&qh, !qh_ALL);
    qh_memfreeshort(&qh, &long_left, &total_left);
    if (messages) std::fclose(messages);
    std::free(buffer);
  }
  QhullRun(const QhullRun&) = delete;
  QhullRun& operator=(const QhullRun&) = delete;

  /// the first line Qhull wrote (its error's summary)
  std::string first_message() {
    if (messages) std::fflush(messages);
    std::string text = buffer ? std::string(buffer, size) : std::string();
    const auto end = text.find('\n');
    return end == std::string::npos ? text : text.substr(0, end);
  }
};

}  // namespace

// Qhull (Barber, Dobkin & Huhdanpaa 1996, "The Quickhull algorithm for convex hulls"; Debian's
// libqhull-dev, its reentrant C library): O(n log n) expected, with its own handling of
// rounding (facets merged where rounding could make them non-convex; "qhull" without options,
// which merges coplanar facets into polygons). Its messages go to a memory stream, never to
// stderr; an error becomes the Error's message.
//
// The output is put in a canonical order that depends on the hull alone, not on the
// algorithm: vertices in the order of their input indices; each polygon fanned from its
// lowest vertex; the triangles sorted. Contacts between hulls (polytope.cpp's faces and edges,
// Bullet's support points) follow the vertex and face order, so a fixed order keeps runs
// reproducible.
ConvexHull convex_hull(const std::vector<Vec3>& points) {
  const std::size_t n = points.size();
  if (n < 4) throw Error(fmt::format("convex hull: needs at least 4 points (got {})", n));
  if (n > kMaxHullPoints)
    throw Error(
        fmt::format("convex hull: {} points, more than the limit of {}", n, kMaxHullPoints));
  for (std::size_t i = 0; i < n; ++i) {
    const Vec3& x = points[i];
    if (!x.allFinite()) throw Error(fmt::format("convex hull: point {} is not finite", i));
    if (x.cwiseAbs().maxCoeff() > kMaxHullCoordinate)
      throw Error(fmt::format(
          "convex hull: point {} has a coordinate of magnitude {:g}, beyond the limit of {:g}", i,
          x.cwiseAbs().maxCoeff(), kMaxHullCoordinate));
  }
  check_spans_a_solid(points);

  // the points about their bounding box's centre: Qhull's rounding bounds grow with the
  // largest coordinate, so far points keep the digits their hull needs
  Vec3 lo = points[0], hi = points[0];
  for (const Vec3& x : points) {
    lo = lo.cwiseMin(x);
    hi = hi.cwiseMax(x);
  }
  const Vec3 centre = 0.5 * (lo + hi);
  std::vector<coordT> coords;
  coords.reserve(3 * n);
  for (const Vec3& x : points)
    for (int k = 0; k < 3; ++k) coords.push_back(x[k] - centre[k]);

  QhullRun run;
  char command[] = "qhull";
  const int status = qh_new_qhull(&run.qh, 3, static_cast<int>(n), coords.data(), False, command,
                                  nullptr, run.messages);
  if (status != 0)
    throw Error(fmt::format("convex hull: Qhull failed on {} points: {}", n, run.first_message()));

  // canonical vertex ids: by input index
  std::vector<int> input_of;  // hull vertex → input index
  vertexT* vertex = nullptr;
  FORALLvertex_(run.qh.vertex_list) input_of.push_back(qh_pointid(&run.qh, vertex->point));
  std::sort(input_of.begin(), input_of.end());
  std::vector<int> id(n, -1);
  ConvexHull hull;
  for (const int input : input_of) {
    id[static_cast<std::size_t>(input)] = static_cast<int>(hull.vertices.size());
    hull.vertices.push_back(points[static_cast<std::size_t>(input)]);
  }
  // each facet: its vertices in order around it, turned counter-clockwise seen from outside
  // (its outward normal), fanned from the lowest id
  std::vector<int> loop;
  facetT* facet = nullptr;
  FORALLfacet_(run.qh.facet_list) {
    setT* ordered = qh_facet3vertex(&run.qh, facet);
    loop.clear();
    vertexT** vertexp = nullptr;
    FOREACHvertex_(ordered)
        loop.push_back(id[static_cast<std::size_t>(qh_pointid(&run.qh, vertex->point))]);
    qh_settempfree(&run.qh, &ordered);
    const Vec3 outward(facet->normal[0], facet->normal[1], facet->normal[2]);
    Vec3 turn = Vec3::Zero();  // Newell's normal of the loop
    for (std::size_t k = 0; k < loop.size(); ++k)
      turn += hull.vertices[static_cast<std::size_t>(loop[k])].cross(
          hull.vertices[static_cast<std::size_t>(loop[(k + 1) % loop.size()])]);
    if (turn.dot(outward) < 0.0) std::reverse(loop.begin(), loop.end());
    std::rotate(loop.begin(), std::min_element(loop.begin(), loop.end()), loop.end());
    for (std::size_t k = 1; k + 1 < loop.size(); ++k)
      hull.triangles.push_back({loop[0], loop[k], loop[k + 1]});
  }
  std::sort(hull.triangles.begin(), hull.triangles.end());
  return hull;
}

}  // namespace pivot::detail
