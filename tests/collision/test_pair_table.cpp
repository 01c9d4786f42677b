// The pair table (collision/pair_table.hpp) against the rules written out by hand, and the
// flip it does for swapped pairs checked on closed-form contacts through CollisionWorld.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "pivot/collision/collision_world.hpp"
#include "pivot/collision/manifold.hpp"
#include "pivot/collision/pair_table.hpp"

using namespace pivot;
using namespace pivot::detail;

namespace {

constexpr ShapeType kAll[] = {ShapeType::sphere,   ShapeType::box,       ShapeType::capsule,
                              ShapeType::cylinder, ShapeType::ellipsoid, ShapeType::convex,
                              ShapeType::plane,    ShapeType::mesh,      ShapeType::compound};

bool is_static(ShapeType t) {
  return t == ShapeType::plane || t == ShapeType::mesh;
}

}  // namespace

TEST_CASE("pair table: chosen manifolds, written out by hand", "[collision][pair_table]") {
  using enum ShapeType;
  struct Row {
    ShapeType a, b;
    Manifold m;
    bool swap;
  };
  // docs/collision.md, "The pair table": what each pair of shapes gets
  const Row rows[] = {
      {sphere, plane, Manifold::plane, false},
      {plane, sphere, Manifold::plane, true},
      {box, plane, Manifold::plane, false},
      {cylinder, plane, Manifold::plane, false},
      {box, mesh, Manifold::mesh, false},
      {mesh, box, Manifold::mesh, true},
      {capsule, mesh, Manifold::capsule_mesh, false},
      {mesh, capsule, Manifold::capsule_mesh, true},
      {box, box, Manifold::polytopes, false},
      {convex, box, Manifold::polytopes, false},
      {sphere, sphere, Manifold::spheres, false},
      {capsule, sphere, Manifold::segments, false},
      {sphere, capsule, Manifold::segments, true},
      {capsule, capsule, Manifold::segments, false},
      {capsule, box, Manifold::capsule_convex, false},
      {box, capsule, Manifold::capsule_convex, true},
      {ellipsoid, capsule, Manifold::capsule_convex, true},
      {sphere, box, Manifold::gjk, false},
      {cylinder, ellipsoid, Manifold::gjk, false},
      {ellipsoid, convex, Manifold::gjk, false},
      {plane, mesh, Manifold::none, false},
      {plane, plane, Manifold::none, false},
      {compound, sphere, Manifold::none, false},
      {box, compound, Manifold::none, false},
      {sdf, sdf, Manifold::sdf_pair, false},
      {sdf, plane, Manifold::shell_primitive, false},
      {sdf, cylinder, Manifold::shell_primitive, false},
      {sdf, ellipsoid, Manifold::shell_primitive, false},
      {convex, sdf, Manifold::shell_primitive, true},
      {mesh, sdf, Manifold::shell_primitive, true},
      {sdf, compound, Manifold::none, false},
  };
  for (const Row& r : rows) {
    INFO(to_string(r.a) << " vs " << to_string(r.b));
    const PairRule rule = pair_rule(r.a, r.b);
    CHECK(std::string(to_string(rule.manifold)) == to_string(r.m));
    CHECK(rule.swap == r.swap);
  }
}

TEST_CASE("pair table: every pair of leaves is covered once, in one order",
          "[collision][pair_table]") {
  for (const ShapeType a : kAll)
    for (const ShapeType b : kAll) {
      INFO(to_string(a) << " vs " << to_string(b));
      const PairRule ab = pair_rule(a, b), ba = pair_rule(b, a);
      const bool leaves = a != ShapeType::compound && b != ShapeType::compound;
      if (!leaves || (is_static(a) && is_static(b))) {
        CHECK(ab.manifold == Manifold::none);
        continue;
      }
      CHECK(ab.manifold != Manifold::none);
      // the same manifold both ways; the symmetric ones (GJK, SAT, spheres) run in either
      // order, the others in one order only (the plane, mesh or capsule as its fixed side)
      CHECK(ab.manifold == ba.manifold);
      const bool symmetric = ab.manifold == Manifold::gjk || ab.manifold == Manifold::polytopes ||
                             ab.manifold == Manifold::spheres;
      if (a == b || symmetric)
        CHECK_FALSE(ab.swap);
      else
        CHECK(ab.swap != ba.swap);
      // planes and meshes are always B
      if (is_static(a)) CHECK(ab.swap);
      if (is_static(b)) CHECK_FALSE(ab.swap);
    }
}

TEST_CASE("pair table: a swapped pair's contacts are flipped", "[collision][pair_table]") {
  // a sphere of radius 0.1 at x = 0 and a capsule of radius 0.05, half length 0.2 along z,
  // at x = 0.17: the closest points are on the x axis, gap 0.17 − 0.1 − 0.05 = 0.02 (by hand)
  const Vec3 sphere_at(0.0, 0.0, 0.0), capsule_at(0.17, 0.0, 0.0);
  for (const bool sphere_first : {true, false}) {
    CollisionWorld world;
    const int sphere_body = sphere_first ? 0 : 1, capsule_body = sphere_first ? 1 : 0;
    world.add({.body = sphere_body, .shape = make_sphere(0.1)});
    world.add({.body = capsule_body, .shape = make_capsule(0.05, 0.2)});
    const auto contacts = world.detect(
        [&](int body) {
          return Pose{body == sphere_body ? sphere_at : capsule_at, Quat::Identity()};
        },
        0.05);
    INFO("sphere is body " << sphere_body);
    REQUIRE(contacts.size() == 1);
    const Contact& c = contacts[0];
    // A is the lower index; the normal points from B to A
    CHECK(c.body_a == 0);
    const Vec3 from_b_to_a = c.body_a == sphere_body ? Vec3(-1, 0, 0) : Vec3(1, 0, 0);
    CHECK((c.n_BA_W - from_b_to_a).norm() < 1e-12);
    CHECK(c.gap == Approx(0.02).margin(1e-12));
    const Vec3 on_sphere(0.1, 0.0, 0.0), on_capsule(0.12, 0.0, 0.0);
    const Vec3& on_a = c.body_a == sphere_body ? on_sphere : on_capsule;
    const Vec3& on_b = c.body_a == sphere_body ? on_capsule : on_sphere;
    CHECK((c.p_WCa - on_a).norm() < 1e-12);
    CHECK((c.p_WCb - on_b).norm() < 1e-12);
  }
}

TEST_CASE("append_unless_near: the one duplicate test of the manifolds", "[collision]") {
  const auto near = [](double x, double y) { return std::abs(x - y) < 0.1; };
  std::vector<double> points{0.0, 1.0};
  append_unless_near(points, 1.05, near);  // near 1.0: dropped
  CHECK(points.size() == 2);
  append_unless_near(points, 0.5, near);  // near nothing: kept
  CHECK(points.size() == 3);
  append_unless_near(points, 0.02, near, 1);  // near 0.0, but only points from index 1 count
  CHECK(points.size() == 4);
  CHECK(points.back() == 0.02);
}
