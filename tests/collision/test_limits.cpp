// Regression tests of the collision module's limits (issue #24, docs/limits.md): a capsule of
// half length 0 is a sphere; the convex hull's work is bounded and far-away points keep their
// precision; huge coordinates are named as such.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <numbers>

#include "pivot/collision/collision_world.hpp"
#include "pivot/collision/convex_hull.hpp"
#include "pivot/collision/shape.hpp"
#include "pivot/core/error.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot;
using Catch::Matchers::Contains;

namespace {

/// the contacts of body 1 (the shape under test) against body 0 (the other shape)
std::vector<Contact> contacts_of(ShapePtr other, const Pose& other_pose, bool other_fixed,
                                 ShapePtr shape, const Pose& pose) {
  CollisionWorld world;
  std::map<int, Pose> poses{{0, other_pose}, {1, pose}};
  CollisionObjectSettings a;
  a.body = 0;
  a.shape = std::move(other);
  a.fixed = other_fixed;
  world.add(a);
  CollisionObjectSettings b;
  b.body = 1;
  b.shape = std::move(shape);
  world.add(b);
  return world.detect([&](int i) { return poses.at(i); }, 0.05);
}

/// the points of a sphere of radius r about c, on a latitude–longitude grid
std::vector<Vec3> sphere_points(const Vec3& c, double r, int k) {
  std::vector<Vec3> p;
  for (int i = 0; i <= k; ++i)
    for (int j = 0; j < 2 * k; ++j) {
      const double th = std::numbers::pi * i / k, ph = std::numbers::pi * j / k;
      p.push_back(c +
                  r * Vec3(std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th)));
    }
  return p;
}

}  // namespace

// docs/scene-format.md: capsule half_length ≥ 0; the schema says minimum 0. A capsule of half
// length 0 is a sphere of its radius, so its contacts must be a sphere's (expected values: the
// sphere's own contacts from the same query, and the closed form gap = distance − r).
TEST_CASE("a capsule of half length 0 touches like a sphere of its radius", "[collision][limits]") {
  const double r = 0.1;
  REQUIRE_NOTHROW(make_capsule(r, 0.0));
  CHECK_THROWS_WITH(make_capsule(r, -1e-3), Contains("half length must be finite and >= 0"));
  const Quat tilt(Eigen::AngleAxisd(0.7, Vec3(1, 2, 3).normalized()));
  struct Other {
    ShapePtr shape;
    Pose pose;
    bool fixed;
    double gap;  // closed form for a sphere of radius r at the tested pose
  };
  const Vec3 x(0.2, -0.1, r + 0.02);
  const std::vector<Other> others = {
      {make_plane(Vec3::UnitZ(), 0.0), Pose{Vec3::Zero(), Quat::Identity()}, true, 0.02},
      {make_box(Vec3(1, 1, 0.5)), Pose{Vec3(0, 0, -0.5), Quat::Identity()}, false, 0.02},
      {make_sphere(0.3), Pose{Vec3(0.2, -0.1, -0.3 + 0.02 - 0.01), Quat::Identity()}, false,
       r + 0.02 - (-0.3 + 0.01) - 0.3 - r}};
  for (const Other& o : others) {
    const auto as_capsule = contacts_of(o.shape, o.pose, o.fixed, make_capsule(r, 0.0), {x, tilt});
    const auto as_sphere = contacts_of(o.shape, o.pose, o.fixed, make_sphere(r), {x, tilt});
    REQUIRE(as_sphere.size() == 1);
    REQUIRE(as_capsule.size() == 1);
    CHECK(std::abs(as_sphere[0].gap - o.gap) < 1e-9);
    CHECK(std::abs(as_capsule[0].gap - as_sphere[0].gap) < 1e-9);
    CHECK((as_capsule[0].n_BA_W - as_sphere[0].n_BA_W).norm() < 1e-9);
    CHECK((as_capsule[0].p_WCa - as_sphere[0].p_WCa).norm() < 1e-9);
  }
}

// Issue #24: 9000 samples of a smooth surface 1e5 m from the origin made the hull's planes lose
// the digits its tolerance needs; faces multiplied past 7.5 GB. Far points are now hulled about
// their centre: the hull of a sphere's grid at x = 1e5 has as many vertices as at the origin
// (every grid point but the duplicated poles is a corner).
TEST_CASE("the convex hull of points far from the origin is the hull at the origin",
          "[collision][limits]") {
  const auto near_points = sphere_points(Vec3::Zero(), 0.1, 24);
  const auto far_points = sphere_points(Vec3(1e5, 0, 0), 0.1, 24);
  const ConvexHull near_hull = convex_hull(near_points);
  const ConvexHull far_hull = convex_hull(far_points);
  CHECK(far_hull.vertices.size() == near_hull.vertices.size());
  CHECK(far_hull.triangles.size() == 2 * far_hull.vertices.size() - 4);  // Euler, closed hull
}

TEST_CASE("the convex hull refuses what it cannot do, naming why", "[collision][limits]") {
  // 1e300 is not "all points coincide" (its old message): the coordinate is named
  std::vector<Vec3> huge = {Vec3(0, 0, 0), Vec3(1e300, 0, 0), Vec3(0, 1e300, 0), Vec3(0, 0, 1e300)};
  CHECK_THROWS_WITH(convex_hull(huge), Contains("point 1 has a coordinate of magnitude 1e+300") &&
                                           Contains("beyond the limit of 1e+09"));
  std::vector<Vec3> many(kMaxHullPoints + 1, Vec3::Zero());
  CHECK_THROWS_WITH(convex_hull(many), Contains("more than the limit of 100000"));
}

// The hull is Qhull's: a sphere grid of 2·70·71 = 9940 points (every one but the poles' copies a
// corner), which the former incremental hull refused after 1e8 visibility tests, is hulled, and
// closed (Euler: a triangulated hull of V vertices has 2V − 4 triangles).
TEST_CASE("the convex hull takes thousands of corner points", "[collision][limits]") {
  const std::vector<Vec3> points = sphere_points(Vec3::Zero(), 1.0, 70);
  const ConvexHull h = convex_hull(points);
  CHECK(h.vertices.size() == 2 * 70 * 69 + 2);  // the poles' 140 copies are one vertex each
  CHECK(h.triangles.size() == 2 * h.vertices.size() - 4);
}

TEST_CASE("make_convex keeps the hull it validated; a hand-filled shape builds its own",
          "[collision][limits]") {
  const ShapePtr s = make_convex(sphere_points(Vec3::Zero(), 0.5, 8));
  REQUIRE(s->hull);
  ConvexHull storage;
  CHECK(&hull_of(*s, storage) == s->hull.get());
  CHECK(storage.vertices.empty());
  Shape by_hand = *s;
  by_hand.hull.reset();
  const ConvexHull& built = hull_of(by_hand, storage);
  CHECK(&built == &storage);
  CHECK(built.vertices.size() == s->hull->vertices.size());
  // the kept hull gives the same mass properties as one built afresh
  const MassProperties a = mass_properties(*s, 1000.0);
  const MassProperties b = mass_properties(by_hand, 1000.0);
  CHECK(a.mass == b.mass);
  CHECK(a.inertia.isApprox(b.inertia, 0.0));
}
