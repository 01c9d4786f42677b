// collision/polytope.hpp: the separating-axis manifold between boxes and hulls.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>

#include "pivot/collision/polytope.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot;

namespace {
constexpr double pi = std::numbers::pi;
Mat3 rot(double angle, const Vec3& axis) {
  return Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix();
}
}  // namespace

TEST_CASE("box polytope: 8 vertices, 6 quad faces, 12 edges", "[polytope]") {
  const Polytope P = make_box_polytope(Vec3(1, 2, 3));
  CHECK(P.vertices.size() == 8);
  REQUIRE(P.faces.size() == 6);
  for (const auto& f : P.faces) {
    CHECK(f.loop.size() == 4);
    CHECK(std::abs(f.normal.cwiseAbs().maxCoeff() - 1.0) < 1e-15);
  }
  CHECK(P.edges.size() == 12);
}

TEST_CASE("crossed edges: the edge–edge axis gives the exact separation", "[polytope]") {
  // unit cubes turned 45° about y (A) and about x (B): their edges cross at right angles
  const Polytope cube = make_box_polytope(Vec3(0.5, 0.5, 0.5));
  const double e = 0.5 * std::sqrt(2.0);
  for (const double gap : {0.03, 0.0, -0.01}) {
    const auto q =
        polytope_contacts(cube, rot(pi / 4, Vec3::UnitY()), Vec3::Zero(), cube,
                          rot(pi / 4, Vec3::UnitX()), Vec3(0.1, -0.05, 2 * e + gap), 0.05);
    CHECK(!q.separated);
    CHECK(std::abs(q.separation - gap) < 1e-12);  // only an edge axis reaches it
    REQUIRE(q.points.size() == 1);
    CHECK(std::abs(q.points[0].gap - gap) < 1e-12);
    CHECK((q.points[0].n_BA_W + Vec3::UnitZ()).norm() < 1e-12);       // from B (above) to A
    CHECK((q.points[0].p_WCa - Vec3(0.0, -0.05, e)).norm() < 1e-12);  // on A's top edge (along y)
    CHECK((q.points[0].p_WCb - Vec3(0.0, -0.05, e + gap)).norm() <
          1e-12);  // on B's bottom edge (along x)
  }
  const auto far = polytope_contacts(cube, rot(pi / 4, Vec3::UnitY()), Vec3::Zero(), cube,
                                     rot(pi / 4, Vec3::UnitX()), Vec3(0, 0, 2 * e + 0.06), 0.05);
  CHECK(far.separated);
  CHECK(far.points.empty());
}

TEST_CASE("a square on a square turned 45°: 8 clipped points reduced to 4", "[polytope]") {
  const Polytope slab = make_box_polytope(Vec3(1, 1, 0.1));
  const auto q = polytope_contacts(slab, rot(pi / 4, Vec3::UnitZ()), Vec3(0, 0, 0.2 + 0.01), slab,
                                   Mat3::Identity(), Vec3::Zero(), 0.05);
  REQUIRE(q.points.size() == 4);
  for (const auto& c : q.points) {
    CHECK(std::abs(c.gap - 0.01) < 1e-12);
    CHECK((c.n_BA_W - Vec3::UnitZ()).norm() < 1e-12);
    CHECK(std::abs(c.p_WCb.z() - 0.1) < 1e-12);
    CHECK(std::max(std::abs(c.p_WCb.x()), std::abs(c.p_WCb.y())) <= 1.0 + 1e-9);
  }
}

TEST_CASE("reduce_manifold keeps the deepest point and a spread-out quad", "[polytope]") {
  std::vector<ContactPoint> points;
  for (int i = 0; i < 8; ++i) {
    ContactPoint c;
    const double a = 2 * pi * i / 8;
    c.p_WCa = c.p_WCb = Vec3(std::cos(a), std::sin(a), 0.0);
    c.gap = i == 5 ? -0.2 : -0.1;
    points.push_back(c);
  }
  const auto kept = reduce_manifold(points);
  REQUIRE(kept.size() == 4);
  bool deepest = false;
  for (const auto& c : kept) deepest |= c.gap == -0.2;
  CHECK(deepest);
  // the quad spans at least the area of the inscribed square (2)
  double area = 0.0;  // shoelace over the kept points in angular order
  std::vector<double> angles;
  for (const auto& c : kept) angles.push_back(std::atan2(c.p_WCa.y(), c.p_WCa.x()));
  std::vector<std::size_t> order = {0, 1, 2, 3};
  std::sort(order.begin(), order.end(),
            [&](std::size_t x, std::size_t y) { return angles[x] < angles[y]; });
  for (std::size_t k = 0; k < 4; ++k) {
    const Vec3& p = kept[order[k]].p_WCa;
    const Vec3& q = kept[order[(k + 1) % 4]].p_WCa;
    area += 0.5 * (p.x() * q.y() - q.x() * p.y());
  }
  CHECK(area >= 2.0 - 1e-12);
}

TEST_CASE("closest points of segments", "[polytope]") {
  Vec3 c1, c2;
  closest_points_segments(Vec3(-1, 0, 0), Vec3(1, 0, 0), Vec3(0.3, -1, 1), Vec3(0.3, 1, 1), c1, c2);
  CHECK((c1 - Vec3(0.3, 0, 0)).norm() < 1e-15);
  CHECK((c2 - Vec3(0.3, 0, 1)).norm() < 1e-15);
  closest_points_segments(Vec3(0, 0, 0), Vec3(1, 0, 0), Vec3(2, 1, 0), Vec3(3, 1, 0), c1,
                          c2);  // clamped
  CHECK((c1 - Vec3(1, 0, 0)).norm() < 1e-15);
  CHECK((c2 - Vec3(2, 1, 0)).norm() < 1e-15);
}
