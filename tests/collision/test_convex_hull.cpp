// collision/convex_hull.hpp: topology and containment of the incremental hull.
#include <catch2/catch.hpp>

#include <map>
#include <random>

#include "pivot/collision/convex_hull.hpp"
#include "pivot/core/error.hpp"

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
