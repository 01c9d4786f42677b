// collision/convex_hull.hpp: topology, containment, closed-form volumes and planes, degenerate
// inputs and the canonical order of the hull (Qhull underneath).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>

#include "pivot/collision/convex_hull.hpp"
#include "pivot/core/error.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot;

namespace {

/// every directed edge appears once and its twin once: a closed, consistently oriented surface
bool closed_and_oriented(const ConvexHull& h) {
  std::map<std::pair<int, int>, int> count;
  for (const auto& t : h.triangles)
    for (int k = 0; k < 3; ++k) ++count[{t[k], t[(k + 1) % 3]}];
  for (const auto& [e, n] : count)
    if (n != 1 || !count.count({e.second, e.first})) return false;
  return true;
}

}  // namespace

TEST_CASE("hull of a cube's corners: 8 vertices, 12 triangles, Euler 2", "[convex_hull]") {
  std::vector<Vec3> corners;
  for (int i = 0; i < 8; ++i) corners.emplace_back(i & 1, (i >> 1) & 1, (i >> 2) & 1);
  const ConvexHull h = convex_hull(corners);
  CHECK(h.vertices.size() == 8);
  CHECK(h.triangles.size() == 12);
  CHECK(closed_and_oriented(h));
  // V − E + F = 2 with E = 3F/2
  CHECK(static_cast<int>(h.vertices.size()) - 18 + 12 == 2);
}

TEST_CASE("hull of random points contains them all, outward normals", "[convex_hull]") {
  std::mt19937 gen(3);
  std::normal_distribution<double> n;
  std::vector<Vec3> points;
  for (int i = 0; i < 400; ++i) points.emplace_back(n(gen), 0.5 * n(gen), 2.0 * n(gen));
  const ConvexHull h = convex_hull(points);
  CHECK(closed_and_oriented(h));
  Vec3 centre = Vec3::Zero();
  for (const Vec3& v : h.vertices) centre += v;
  centre /= static_cast<double>(h.vertices.size());
  for (const auto& t : h.triangles) {
    const Vec3 a = h.vertices[t[0]], b = h.vertices[t[1]], c = h.vertices[t[2]];
    const Vec3 normal = (b - a).cross(c - a).normalized();
    CHECK(normal.dot(centre - a) < 0.0);  // the centre is behind every face
    double worst = -1e300;
    for (const Vec3& p : points) worst = std::max(worst, normal.dot(p - a));
    CHECK(worst <= 1e-9);  // no input point in front of a face
  }
}

TEST_CASE("degenerate inputs throw", "[convex_hull]") {
  CHECK_THROWS_AS(convex_hull({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}), Error);
  CHECK_THROWS_AS(convex_hull({Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(0, 0, 0), Vec3(0, 0, 0)}), Error);
  CHECK_THROWS_AS(convex_hull({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(2, 3, 0)}), Error);
}

namespace {

/// the signed volume of a closed triangle surface, by the divergence theorem: Σ a·(b × c)/6
double volume(const ConvexHull& h) {
  double v = 0.0;
  for (const auto& t : h.triangles)
    v += h.vertices[t[0]].dot(h.vertices[t[1]].cross(h.vertices[t[2]])) / 6.0;
  return v;
}

/// the distinct face planes (unit outward normal, offset), triangles of one face merged
std::vector<std::pair<Vec3, double>> planes(const ConvexHull& h) {
  std::vector<std::pair<Vec3, double>> out;
  for (const auto& t : h.triangles) {
    const Vec3 a = h.vertices[t[0]], b = h.vertices[t[1]], c = h.vertices[t[2]];
    const Vec3 n = (b - a).cross(c - a).normalized();
    bool seen = false;
    for (const auto& [m, d] : out) seen = seen || (m - n).norm() < 1e-9;
    if (!seen) out.emplace_back(n, n.dot(a));
  }
  return out;
}

}  // namespace

TEST_CASE("hull of a cube's corners among interior, face and edge points: 8 vertices, 6 faces",
          "[convex_hull]") {
  // a 2 × 3 × 4 box's corners shuffled among interior points, points on its faces and edges,
  // and repeated corners: the hull is the box (volume 24, the planes ±x = 1, ±y = 1.5, ±z = 2)
  std::mt19937 gen(11);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Vec3 h(1.0, 1.5, 2.0);
  std::vector<Vec3> points;
  for (int i = 0; i < 300; ++i) points.push_back(Vec3(u(gen), u(gen), u(gen)).cwiseProduct(h));
  for (int i = 0; i < 60; ++i) points.push_back(Vec3(u(gen), u(gen), 1.0).cwiseProduct(h));  // top
  for (int i = 0; i < 60; ++i) points.push_back(Vec3(-1.0, u(gen), -1.0).cwiseProduct(h));   // edge
  for (int i = 0; i < 16; ++i)
    points.push_back(Vec3((i & 1) ? 1 : -1, (i & 2) ? 1 : -1, (i & 4) ? 1 : -1).cwiseProduct(h));
  std::shuffle(points.begin(), points.end(), gen);
  const ConvexHull hull = convex_hull(points);
  CHECK(hull.vertices.size() == 8);
  CHECK(hull.triangles.size() == 12);
  CHECK(closed_and_oriented(hull));
  for (const Vec3& v : hull.vertices) CHECK((v.cwiseAbs() - h).norm() == 0.0);
  CHECK(volume(hull) == Approx(24.0).epsilon(1e-14));
  const auto P = planes(hull);
  REQUIRE(P.size() == 6);
  for (const auto& [n, d] : P) {
    // an axis normal, the offset the half extent along it
    int axis = 0;
    n.cwiseAbs().maxCoeff(&axis);
    CHECK(std::abs(std::abs(n[axis]) - 1.0) < 1e-15);
    CHECK(std::abs(d - h[axis]) < 1e-15);
  }
}

TEST_CASE("hull vertices come in input order, whatever the input's order", "[convex_hull]") {
  // the canonical order (convex_hull.cpp): the vertices are the input's corners in input
  // order, and the triangles a sorted list, so a permuted input gives the same hull relabelled
  std::vector<Vec3> points = {Vec3(0, 0, 0), Vec3(0.2, 0.2, 0.2), Vec3(1, 0, 0),
                              Vec3(0, 1, 0), Vec3(0, 0, 1),       Vec3(1, 1, 1)};
  const ConvexHull a = convex_hull(points);
  REQUIRE(a.vertices.size() == 5);
  CHECK(a.vertices[0] == points[0]);
  CHECK(a.vertices[1] == points[2]);
  CHECK(a.vertices[4] == points[5]);
  CHECK(std::is_sorted(a.triangles.begin(), a.triangles.end()));
  CHECK(volume(a) == Approx(1.0 / 6.0 + 2.0 * (1.0 / 6.0)).epsilon(1e-14));
}

TEST_CASE("hull of a regular octahedron: volume 4/3, planes at 1/sqrt(3)", "[convex_hull]") {
  const std::vector<Vec3> points = {Vec3(1, 0, 0),       Vec3(-1, 0, 0), Vec3(0, 1, 0),
                                    Vec3(0, -1, 0),      Vec3(0, 0, 1),  Vec3(0, 0, -1),
                                    Vec3(0.1, 0.2, -0.3)};
  const ConvexHull h = convex_hull(points);
  CHECK(h.vertices.size() == 6);
  CHECK(closed_and_oriented(h));
  CHECK(volume(h) == Approx(4.0 / 3.0).epsilon(1e-14));
  const auto P = planes(h);
  REQUIRE(P.size() == 8);
  for (const auto& [n, d] : P) {
    CHECK(std::abs(d - 1.0 / std::sqrt(3.0)) < 1e-15);
    CHECK((n.cwiseAbs() - Vec3::Constant(1.0 / std::sqrt(3.0))).norm() < 1e-15);
  }
}

TEST_CASE("hull of 10^5 random points on a sphere: every point a vertex, volume below the ball's",
          "[convex_hull]") {
  // 10^5 points uniform on the unit sphere (normalized Gaussians): all are corners; the hull's
  // volume lies below 4π/3 and above the inscribed ball's of radius min over faces of the
  // plane offset; the hull is closed with 2V − 4 triangles (Euler)
  std::mt19937_64 gen(5);
  std::normal_distribution<double> g;
  std::vector<Vec3> points;
  for (int i = 0; i < 100000; ++i) points.push_back(Vec3(g(gen), g(gen), g(gen)).normalized());
  const ConvexHull h = convex_hull(points);
  CHECK(h.vertices.size() == points.size());
  CHECK(h.triangles.size() == 2 * h.vertices.size() - 4);
  CHECK(closed_and_oriented(h));
  double inner = 1.0;
  for (const auto& t : h.triangles) {
    const Vec3 a = h.vertices[t[0]], b = h.vertices[t[1]], c = h.vertices[t[2]];
    inner = std::min(inner, (b - a).cross(c - a).normalized().dot(a));
  }
  const double v = volume(h);
  CHECK(v < 4.0 * M_PI / 3.0);
  CHECK(v > 4.0 * M_PI / 3.0 * inner * inner * inner);
  CHECK(inner > 0.99);  // 10^5 points leave no large hole
}

TEST_CASE("degenerate inputs: coincident, collinear, coplanar points are named", "[convex_hull]") {
  using Catch::Matchers::Contains;
  CHECK_THROWS_WITH(convex_hull(std::vector<Vec3>(5, Vec3(1, 2, 3))),
                    Contains("all points coincide"));
  CHECK_THROWS_WITH(
      convex_hull({Vec3(0, 0, 0), Vec3(1, 1, 1), Vec3(2, 2, 2), Vec3(3, 3, 3), Vec3(1, 1, 1)}),
      Contains("collinear"));
  std::vector<Vec3> flat;
  for (int i = 0; i < 50; ++i) flat.emplace_back(std::cos(i), std::sin(i), 0.25);
  CHECK_THROWS_WITH(convex_hull(flat), Contains("coplanar"));
  CHECK_THROWS_WITH(convex_hull({Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0)}),
                    Contains("at least 4 points"));
  // a tetrahedron with every point given three times: its 4 corners, once each
  std::vector<Vec3> repeated;
  for (int k = 0; k < 3; ++k)
    for (const Vec3& x : {Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(0, 1, 0), Vec3(0, 0, 1)})
      repeated.push_back(x);
  const ConvexHull t = convex_hull(repeated);
  CHECK(t.vertices.size() == 4);
  CHECK(t.triangles.size() == 4);
  CHECK(volume(t) == Approx(1.0 / 6.0).epsilon(1e-14));
}
