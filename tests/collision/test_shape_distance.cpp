// The exact distances an sdf shape's point shell meets on other shapes (sdf_manifold.hpp):
// cylinder (analytic_distance.hpp), convex polytope (polytope_distance.hpp), ellipsoid
// (ellipsoid_distance.hpp), mesh surface (mesh_surface_distance.hpp). Expected values come from
// other exact distances (the box's), the closest point's optimality conditions, and brute force
// over densely sampled surfaces; the traversal with an unlimited budget equals brute force over
// every shell point against each of them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

#include "pivot/collision/analytic_distance.hpp"
#include "pivot/collision/convex_hull.hpp"
#include "pivot/collision/ellipsoid_distance.hpp"
#include "pivot/collision/mesh_file.hpp"
#include "pivot/collision/mesh_surface_distance.hpp"
#include "pivot/collision/point_shell.hpp"
#include "pivot/collision/point_tree_traversal.hpp"
#include "pivot/collision/polytope.hpp"
#include "pivot/collision/polytope_distance.hpp"
#include "pivot/collision/triangle_closest.hpp"

#include "support/box_mesh.hpp"

using namespace pivot;
using namespace pivot::detail;

using pivot::test::box_mesh;

namespace {

/// the unsigned distance to a point cloud (brute force)
double cloud_distance(const std::vector<Vec3>& cloud, const Vec3& p) {
  double best = std::numeric_limits<double>::infinity();
  for (const Vec3& q : cloud) best = std::min(best, (p - q).squaredNorm());
  return std::sqrt(best);
}

}  // namespace

TEST_CASE("cylinder distance: brute force over its sampled surface, sign inside",
          "[collision][sdf]") {
  const double r = 0.03, l = 0.05;
  const CylinderDistance cyl(r, l);
  // the surface sampled every ~0.25 mm: sides and both caps
  std::vector<Vec3> cloud;
  const int na = 800, nz = 400, nr = 120;
  for (int i = 0; i < na; ++i) {
    const double a = 2 * M_PI * i / na;
    for (int k = 0; k <= nz; ++k)
      cloud.emplace_back(r * std::cos(a), r * std::sin(a), -l + 2 * l * k / nz);
    for (int k = 0; k < nr; ++k)
      for (const double z : {-l, l})
        cloud.emplace_back(r * k / nr * std::cos(a), r * k / nr * std::sin(a), z);
  }
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-0.08, 0.08);
  for (int i = 0; i < 60; ++i) {
    const Vec3 p(u(rng), u(rng), u(rng));
    const double d = cyl.distance(p);
    const bool inside = p.head<2>().norm() < r && std::abs(p.z()) < l;
    CHECK((d < 0) == inside);
    CHECK(std::abs(d) == Approx(cloud_distance(cloud, p)).margin(3e-4));
    // the normal is the distance's gradient: central differences
    const double h = 1e-7;
    Vec3 g;
    for (int a = 0; a < 3; ++a) {
      Vec3 e = Vec3::Zero();
      e[a] = h;
      g[a] = (cyl.distance(p + e) - cyl.distance(p - e)) / (2 * h);
    }
    CHECK((g - cyl.normal(p)).norm() < 1e-5);
  }
}

TEST_CASE(
    "polytope distance: a box polytope equals the box's exact distance; a hull against "
    "brute force",
    "[collision][sdf]") {
  const Vec3 h(0.04, 0.02, 0.03);
  const Polytope box = make_box_polytope(h);
  const PolytopeDistance P(box);
  const BoxDistance B(h);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-0.1, 0.1);
  for (int i = 0; i < 2000; ++i) {
    const Vec3 p(u(rng), u(rng), u(rng));
    CHECK(P.distance(p) == Approx(B.distance(p)).margin(1e-15));
    if (std::abs(B.distance(p)) > 1e-9) CHECK((P.normal(p) - B.normal(p)).norm() < 1e-12);
  }
  // a hull of 40 random points; its surface (hull triangles) sampled densely
  std::vector<Vec3> pts;
  for (int i = 0; i < 40; ++i) pts.emplace_back(u(rng), u(rng), 0.5 * u(rng));
  const ConvexHull hull = convex_hull(pts);
  const Polytope poly = make_polytope(hull);
  const PolytopeDistance Q(poly);
  std::vector<Vec3> cloud;
  for (const auto& t : hull.triangles) {
    const Vec3 &a = hull.vertices[static_cast<std::size_t>(t[0])],
               &b = hull.vertices[static_cast<std::size_t>(t[1])],
               &c = hull.vertices[static_cast<std::size_t>(t[2])];
    const int n = 150;
    for (int s = 0; s <= n; ++s)
      for (int k = 0; k <= n - s; ++k)
        cloud.push_back(a + (b - a) * s / double(n) + (c - a) * k / double(n));
  }
  for (int i = 0; i < 60; ++i) {
    const Vec3 p(1.5 * u(rng), 1.5 * u(rng), 1.5 * u(rng));
    const double d = Q.distance(p);
    // inside exactly when on the inner side of every hull plane
    bool inside = true;
    for (const auto& f : poly.faces) inside = inside && f.normal.dot(p) < f.offset;
    CHECK((d < 0) == inside);
    const double brute = cloud_distance(cloud, p);
    CHECK(std::abs(d) <= brute + 1e-12);  // the exact distance is no more than any sample's
    CHECK(std::abs(d) == Approx(brute).margin(1e-3));
  }
}

// the closest point x of an ellipsoid to p satisfies (Lagrange): x on the surface, and p − x
// parallel to the surface normal ∝ (x_i / e_i²); its distance is no more than any sampled
// surface point's, and brute force over a fine parametric grid comes within the grid's spacing
TEST_CASE("ellipsoid distance: the closest point's optimality conditions and brute force",
          "[collision][sdf]") {
  const Vec3 e(0.05, 0.03, 0.02);
  const EllipsoidDistance E(e);
  std::vector<Vec3> cloud;
  const int nu = 1200, nv = 600;
  for (int i = 0; i < nu; ++i)
    for (int k = 0; k <= nv; ++k) {
      const double a = 2 * M_PI * i / nu, b = M_PI * k / nv;
      cloud.emplace_back(e.x() * std::sin(b) * std::cos(a), e.y() * std::sin(b) * std::sin(a),
                         e.z() * std::cos(b));
    }
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-0.08, 0.08);
  std::vector<Vec3> points;
  for (int i = 0; i < 80; ++i) points.emplace_back(u(rng), u(rng), u(rng));
  for (int i = 0; i < 20; ++i) points.emplace_back(0.3 * u(rng), 0.3 * u(rng), 0.3 * u(rng));
  // on the coordinate planes and axes (the cases reduced to an ellipse; inside, the medial
  // surface), and the centre
  points.insert(points.end(), {Vec3(0.01, 0.005, 0), Vec3(0.02, 0, 0.004), Vec3(0, 0.01, 0.005),
                               Vec3(0.01, 0, 0), Vec3(0, 0, 0.01), Vec3(0, 0, 0), Vec3(0.07, 0, 0),
                               Vec3(0, 0, -0.05), Vec3(0.03, -0.02, 0)});
  for (const Vec3& p : points) {
    const EllipsoidClosest c = ellipsoid_closest(e, p);
    const double level = (p.array() / e.array()).square().sum();
    INFO("p = " << p.transpose() << ", x = " << c.point.transpose() << ", d = " << c.distance);
    CHECK((c.distance < 0) == (level < 1));
    CHECK((c.point.array() / e.array()).square().sum() == Approx(1.0).margin(1e-12));
    const Vec3 n = (c.point.array() / (e.array() * e.array())).matrix().normalized();
    CHECK((p - c.point).cross(n).norm() <= 1e-12 + 1e-9 * (p - c.point).norm());
    CHECK(std::abs(c.distance) == Approx((p - c.point).norm()).margin(1e-15));
    const double brute = cloud_distance(cloud, p);
    CHECK(std::abs(c.distance) <= brute + 1e-12);
    CHECK(std::abs(c.distance) == Approx(brute).margin(2e-4));
  }
  // a sphere is an ellipsoid: |p| − r exactly
  const EllipsoidDistance S(Vec3(0.04, 0.04, 0.04));
  for (int i = 0; i < 200; ++i) {
    const Vec3 p(u(rng), u(rng), u(rng));
    CHECK(S.distance(p) == Approx(p.norm() - 0.04).margin(1e-15));
  }
}

TEST_CASE(
    "closest point on a degenerate triangle: a repeated vertex or collinear vertices give "
    "the closest point of its edges (finite, by hand)",
    "[collision][sdf]") {
  const Vec3 a(0, 0, 0), b(1, 0, 0), c(2, 0, 0);
  // f 1 1 2: the segment ab; above its middle, the middle
  const TriangleClosest q1 = closest_on_triangle(Vec3(0.5, 1, 0), a, a, b);
  CHECK((q1.point - Vec3(0.5, 0, 0)).norm() < 1e-15);
  // all three the same point
  const TriangleClosest q2 = closest_on_triangle(Vec3(0.5, 1, 0), b, b, b);
  CHECK((q2.point - b).norm() < 1e-15);
  // a sliver a, c, b (b between): beyond c, c; above b, b
  const TriangleClosest q3 = closest_on_triangle(Vec3(3, 1, 0), a, c, b);
  CHECK((q3.point - c).norm() < 1e-15);
  const TriangleClosest q4 = closest_on_triangle(Vec3(1, 0, 2), a, c, b);
  CHECK((q4.point - b).norm() < 1e-15);
  for (const auto& q : {q1, q2, q3, q4}) CHECK(q.point.allFinite());
}

TEST_CASE(
    "mesh surface distance: zero-area triangles (a repeated vertex, collinear slivers) "
    "are left out: the distance and normal are the mesh's without them",
    "[collision][sdf]") {
  const Vec3 h(0.05, 0.03, 0.02);
  const TriangleMesh clean = box_mesh(-h, h);
  TriangleMesh dirty = clean;
  // the midpoints of the bottom front edge (vertices 0, 1) and of the bottom face's diagonal
  // (vertices 0, 3): exact, the box is centred
  dirty.vertices.emplace_back(0.0, -h.y(), -h.z());  // 8
  dirty.vertices.emplace_back(0.0, 0.0, -h.z());     // 9
  dirty.triangles.push_back({0, 0, 1});              // f 1 1 2
  dirty.triangles.push_back({0, 8, 1});              // slivers along an edge and a face diagonal
  dirty.triangles.push_back({3, 9, 0});
  dirty.triangles.push_back({1, 1, 1});
  const MeshSurface with(dirty.vertices, dirty.triangles), without(clean.vertices, clean.triangles);
  const double margin = 0.004;
  const MeshSurfaceDistance D(with, margin), E(without, margin);
  const BoxDistance B(h);
  std::mt19937_64 rng(11);
  std::uniform_real_distribution<double> u(-0.07, 0.07);
  int near = 0;
  // random points, and points about the degenerate triangles' vertices
  std::vector<Vec3> points;
  for (int i = 0; i < 4000; ++i) points.emplace_back(u(rng), u(rng), u(rng));
  for (const Vec3& x : {dirty.vertices[0], dirty.vertices[1], dirty.vertices[3], dirty.vertices[8],
                        dirty.vertices[9]})
    for (int i = 0; i < 200; ++i) points.push_back(x + 0.05 * Vec3(u(rng), u(rng), u(rng)));
  for (const Vec3& p : points) {
    const double d = D.distance(p);
    REQUIRE(std::isfinite(d));
    INFO("p " << p.transpose() << " exact " << B.distance(p));
    CHECK(d == E.distance(p));
    const double exact = B.distance(p);
    if (std::abs(exact) <= margin) {
      ++near;
      CHECK(d == Approx(exact).margin(1e-15));  // the closed form, sign included
      if (std::abs(exact) > 1e-9) CHECK((D.normal(p) - E.normal(p)).norm() < 1e-12);
    }
  }
  CHECK(near > 200);
}

TEST_CASE(
    "mesh surface distance: a box mesh's within the margin, a lower bound beyond it; an "
    "open mesh signed by its side",
    "[collision][sdf]") {
  const Vec3 h(0.05, 0.03, 0.02);
  const TriangleMesh m = box_mesh(-h, h);
  const MeshSurface surface(m.vertices, m.triangles);
  const double margin = 0.004;
  const MeshSurfaceDistance D(surface, margin);
  const BoxDistance B(h);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-0.07, 0.07);
  int near = 0;
  for (int i = 0; i < 4000; ++i) {
    const Vec3 p(u(rng), u(rng), u(rng));
    const double exact = B.distance(p), d = D.distance(p);
    if (std::abs(exact) <= margin) {
      ++near;
      CHECK(d == Approx(exact).margin(1e-15));
      if (std::abs(exact) > 1e-9) CHECK((D.normal(p) - B.normal(p)).norm() < 1e-9);
    } else {
      CHECK(d > margin);                    // not touching
      CHECK(d <= std::abs(exact) + 1e-15);  // and a lower bound of the surface distance
    }
  }
  CHECK(near > 100);
  // one square (two triangles) facing +z: above it positive, below it negative, within the
  // margin; beside it (beyond an edge) the distance to the edge, signed by its side
  const std::vector<Vec3> v = {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}};
  const MeshSurface square(v, {{0, 1, 2}, {0, 2, 3}});
  const MeshSurfaceDistance S(square, margin);
  CHECK(S.distance(Vec3(0.3, 0.2, 0.003)) == Approx(0.003).margin(1e-15));
  CHECK(S.distance(Vec3(0.3, 0.2, -0.002)) == Approx(-0.002).margin(1e-15));
  CHECK(S.distance(Vec3(0.0, 0.0, 0.0)) == 0.0);  // on the shared diagonal
  CHECK(S.distance(Vec3(1.003, 0.5, 0.0)) == Approx(0.003).margin(1e-15));
  CHECK(S.distance(Vec3(0.3, 0.2, -0.5)) > margin);  // far behind: not a contact
}

TEST_CASE(
    "point tree: an unlimited traversal equals brute force against cylinder, hull, "
    "ellipsoid and mesh distances",
    "[collision][sdf]") {
  const Vec3 h(0.05, 0.03, 0.02);
  const TriangleMesh m = box_mesh(-h, h);
  const PointShell shell = sample_point_shell(m.vertices, m.triangles, 3000);
  const CylinderDistance cylinder(0.04, 0.03);
  const Polytope poly = make_polytope(
      convex_hull({Vec3(-0.06, -0.05, -0.03), Vec3(0.07, -0.04, -0.02), Vec3(0.0, 0.08, -0.03),
                   Vec3(0.01, 0.0, 0.05), Vec3(-0.03, 0.03, 0.02)}));
  const PolytopeDistance hull(poly);
  const EllipsoidDistance ellipsoid(Vec3(0.06, 0.04, 0.03));
  const TriangleMesh ground = box_mesh(Vec3(-0.1, -0.1, -0.05), Vec3(0.1, 0.1, 0.0));
  const MeshSurface surface(ground.vertices, ground.triangles);
  TraversalSettings settings;
  settings.margin = 0.004;
  const MeshSurfaceDistance mesh(surface, settings.margin);
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (const DistanceOracle* oracle :
       {static_cast<const DistanceOracle*>(&cylinder), static_cast<const DistanceOracle*>(&hull),
        static_cast<const DistanceOracle*>(&ellipsoid),
        static_cast<const DistanceOracle*>(&mesh)}) {
    TraversalCache cache;
    Mat3 R = Quat(u(rng), u(rng), u(rng), u(rng)).normalized().toRotationMatrix();
    long hits = 0;
    for (int step = 0; step < 100; ++step) {
      const Vec3 p = Vec3(0.01 * u(rng), 0.01 * u(rng), 0.06 + 0.04 * std::sin(0.1 * step));
      R = Eigen::AngleAxisd(0.02 * u(rng), Vec3::UnitX()).toRotationMatrix() * R;
      const auto tree = traverse_point_tree(shell, *oracle, R, p, settings, cache);
      const auto brute = brute_force_points(shell, *oracle, R, p, settings.margin);
      REQUIRE(tree.size() == brute.size());
      for (std::size_t i = 0; i < tree.size(); ++i) {
        CHECK(tree[i].point == brute[i].point);
        CHECK(tree[i].d == brute[i].d);
      }
      hits += static_cast<long>(brute.size());
    }
    CHECK(hits > 500);  // the sequence does make contact
  }
}
