// collision/collision_world.hpp: gaps against analytic distances, normals from B to A, full
// face manifolds in one call, filtering (determinism and contact order:
// test_collision_world_order.cpp).
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <numbers>

#include "collision_test_scene.hpp"
#include "pivot/collision/collision_world.hpp"
#include "pivot/core/error.hpp"

using namespace pivot;
using Catch::Matchers::Contains;
using pivot::test::axis_angle;
using pivot::test::Scene;

namespace {

constexpr double pi = std::numbers::pi;

/// the contact invariants: unit normal, gap = n·(pa − pb), gap ≤ margin
void check_invariants(const std::vector<Contact>& contacts, double margin) {
  for (const Contact& c : contacts) {
    CHECK(c.n_BA_W.norm() == Approx(1.0).epsilon(1e-12));
    CHECK(c.gap == Approx(c.n_BA_W.dot(c.p_WCa - c.p_WCb)).margin(1e-12));
    CHECK(c.gap <= margin + 1e-12);
  }
}

}  // namespace

TEST_CASE("sphere–sphere gaps and normals", "[collision]") {
  const double margin = 0.1;
  const Vec3 dir = Vec3(1.0, -2.0, 0.5).normalized();
  for (const double gap : {0.09, 0.05, 0.01, 0.0, -0.001, -0.02}) {
    Scene s;
    const Vec3 cb(0.3, 0.2, -0.1);
    const Vec3 ca = cb + (0.5 + 0.3 + gap) * dir;
    s.add(0, make_sphere(0.5), ca);
    s.add(1, make_sphere(0.3), cb);
    const auto contacts = s.detect(margin);
    REQUIRE(contacts.size() == 1);
    const Contact& c = contacts[0];
    CHECK(c.body_a == 0);
    CHECK(c.body_b == 1);
    CHECK(std::abs(c.gap - gap) < 1e-9);
    CHECK((c.n_BA_W - dir).norm() < 1e-12);  // from B to A
    CHECK(std::abs((c.p_WCa - ca).norm() - 0.5) < 1e-12);
    CHECK(std::abs((c.p_WCb - cb).norm() - 0.3) < 1e-12);
    check_invariants(contacts, margin);
  }
  Scene far;
  far.add(0, make_sphere(0.5), Vec3(0, 0, 1.0 + 0.8 + 0.1001));
  far.add(1, make_sphere(0.3), Vec3(0, 0, 1.0));
  CHECK(far.detect(0.1).empty());
}

TEST_CASE("sphere–plane gaps, with the plane on a moved fixed body", "[collision]") {
  // plane z' = 0.25 in the fixed body's frame; that body is turned 30° about x and raised by 1
  const Quat q = axis_angle(pi / 6, Vec3::UnitX());
  const Vec3 n = q * Vec3::UnitZ();
  const Vec3 origin(0.0, 0.0, 1.0);
  for (const double gap : {0.04, 0.01, 0.0, -0.005}) {
    Scene s;
    s.add(7, make_plane(Vec3::UnitZ(), 0.25), origin, q, true);
    const Vec3 foot = origin + q * Vec3(0.3, -0.2, 0.25);  // a point of the plane
    const Vec3 centre = foot + (0.2 + gap) * n;
    s.add(3, make_sphere(0.2), centre);
    const auto contacts = s.detect(0.05);
    REQUIRE(contacts.size() == 1);
    const Contact& c = contacts[0];
    CHECK(c.body_a == 3);  // the dynamic body is A
    CHECK(c.body_b == 7);
    CHECK(std::abs(c.gap - gap) < 1e-9);
    CHECK((c.n_BA_W - n).norm() < 1e-12);
    CHECK((c.p_WCa - (centre - 0.2 * n)).norm() < 1e-9);
    CHECK((c.p_WCb - foot).norm() < 1e-9);
    check_invariants(contacts, 0.05);
  }
}

TEST_CASE("box–plane: face down gives the 4 corners, tilted gives the lowest corner",
          "[collision]") {
  const Vec3 h(0.3, 0.2, 0.1);
  for (const double gap : {0.03, 0.001, 0.0, -0.002}) {
    Scene s;
    s.add(0, make_plane(Vec3::UnitZ(), 0.0), Vec3::Zero(), Quat::Identity(), true);
    s.add(1, make_box(h), Vec3(1.0, 2.0, h.z() + gap), axis_angle(0.3, Vec3::UnitZ()));
    const auto contacts = s.detect(0.05);
    REQUIRE(contacts.size() == 4);
    for (const Contact& c : contacts) {
      CHECK(c.body_a == 1);
      CHECK(std::abs(c.gap - gap) < 1e-9);
      CHECK((c.n_BA_W - Vec3::UnitZ()).norm() < 1e-15);
      CHECK(std::abs(c.p_WCb.z()) < 1e-12);
    }
    check_invariants(contacts, 0.05);
  }
  // tilted about a general axis: the lowest corner's height is z − Σ|R_zj| h_j
  const Quat q = axis_angle(0.7, Vec3(1.0, 2.0, 0.5));
  const Mat3 R = q.toRotationMatrix();
  const double reach =
      std::abs(R(2, 0)) * h.x() + std::abs(R(2, 1)) * h.y() + std::abs(R(2, 2)) * h.z();
  for (const double gap : {0.02, -0.003}) {
    Scene s;
    s.add(0, make_plane(Vec3::UnitZ(), 0.0), Vec3::Zero(), Quat::Identity(), true);
    s.add(1, make_box(h), Vec3(0.0, 0.0, reach + gap), q);
    const auto contacts = s.detect(0.05);
    REQUIRE(contacts.size() >= 1);
    double lowest = 1e300;
    for (const Contact& c : contacts) lowest = std::min(lowest, c.gap);
    CHECK(std::abs(lowest - gap) < 1e-9);
  }
}

TEST_CASE("capsule–plane: both ends when lying, the lower end when tilted", "[collision]") {
  const double r = 0.1, hl = 0.4;
  for (const double gap : {0.04, 0.0, -0.004}) {
    Scene s;
    s.add(0, make_plane(Vec3::UnitZ(), 0.0), Vec3::Zero(), Quat::Identity(), true);
    s.add(1, make_capsule(r, hl), Vec3(0, 0, r + gap), axis_angle(pi / 2, Vec3::UnitY()));
    const auto contacts = s.detect(0.05);
    REQUIRE(contacts.size() == 2);
    for (const Contact& c : contacts) {
      CHECK(std::abs(c.gap - gap) < 1e-9);
      CHECK((c.n_BA_W - Vec3::UnitZ()).norm() < 1e-15);
    }
    CHECK(std::abs(std::abs(contacts[0].p_WCa.x() - contacts[1].p_WCa.x()) - 2 * hl) < 1e-12);
  }
  const double tilt = 0.4;  // axis 0.4 rad from vertical: the lower end is hl cos(tilt) below
  for (const double gap : {0.03, 0.0, -0.01}) {
    Scene s;
    s.add(0, make_plane(Vec3::UnitZ(), 0.0), Vec3::Zero(), Quat::Identity(), true);
    s.add(1, make_capsule(r, hl), Vec3(0.5, 0, hl * std::cos(tilt) + r + gap),
          axis_angle(tilt, Vec3::UnitX()));
    const auto contacts = s.detect(0.05);
    REQUIRE(contacts.size() == 1);
    CHECK(std::abs(contacts[0].gap - gap) < 1e-9);
  }
}

TEST_CASE("ellipsoid and cylinder against a plane", "[collision]") {
  const Vec3 a(0.3, 0.2, 0.5);
  const Quat q = axis_angle(0.9, Vec3(0.3, 1.0, -0.2));
  const Mat3 R = q.toRotationMatrix();
  // support height of an ellipsoid along z: |A Rᵀ z|
  const double reach = a.cwiseProduct(R.transpose() * Vec3::UnitZ()).norm();
  Scene s;
  s.add(0, make_plane(Vec3::UnitZ(), 0.0), Vec3::Zero(), Quat::Identity(), true);
  s.add(1, make_ellipsoid(a), Vec3(0, 0, reach + 0.01), q);
  const auto e = s.detect(0.05);
  REQUIRE(e.size() == 1);
  CHECK(std::abs(e[0].gap - 0.01) < 1e-9);

  Scene up;  // a cylinder standing on its cap: 4 rim contacts
  up.add(0, make_plane(Vec3::UnitZ(), 0.0), Vec3::Zero(), Quat::Identity(), true);
  up.add(1, make_cylinder(0.2, 0.3), Vec3(0, 0, 0.3 - 0.001));
  const auto c = up.detect(0.05);
  REQUIRE(c.size() == 4);
  for (const Contact& k : c) CHECK(std::abs(k.gap + 0.001) < 1e-12);

  Scene tilted;  // tilted cylinder: the deepest rim point, reach = h |cos| + r |sin|
  const double t = 0.5;
  tilted.add(0, make_plane(Vec3::UnitZ(), 0.0), Vec3::Zero(), Quat::Identity(), true);
  tilted.add(1, make_cylinder(0.2, 0.3), Vec3(0, 0, 0.3 * std::cos(t) + 0.2 * std::sin(t) + 0.02),
             axis_angle(t, Vec3(1, 1, 0)));
  const auto d = tilted.detect(0.05);
  REQUIRE(!d.empty());
  double lowest = 1e300;
  for (const Contact& k : d) lowest = std::min(lowest, k.gap);
  CHECK(std::abs(lowest - 0.02) < 1e-9);
}

TEST_CASE("two stacked boxes give 4 contacts in one call", "[collision]") {
  const Vec3 h(0.5, 0.5, 0.25);
  for (const double gap : {0.02, 0.0, -0.003}) {
    for (const bool fixed_bottom : {false, true}) {
      Scene s;
      s.add(0, make_box(h), Vec3(0.0, 0.0, 0.25), Quat::Identity(), fixed_bottom);
      s.add(1, make_box(Vec3(0.3, 0.2, 0.1)), Vec3(0.05, -0.1, 0.5 + 0.1 + gap),
            axis_angle(0.4, Vec3::UnitZ()));
      const auto contacts = s.detect(0.05);
      REQUIRE(contacts.size() == 4);
      for (const Contact& c : contacts) {
        if (fixed_bottom) {
          CHECK(c.body_a == 1);  // the dynamic body is A
          CHECK((c.n_BA_W - Vec3::UnitZ()).norm() < 1e-12);
        } else {
          CHECK(c.body_a == 0);  // the lower index is A; the normal points from B (top) to A
          CHECK((c.n_BA_W + Vec3::UnitZ()).norm() < 1e-12);
        }
        CHECK(std::abs(c.gap - gap) < 1e-9);
      }
      check_invariants(contacts, 0.05);
    }
  }
  Scene same;  // equal boxes exactly aligned: still the 4 corners
  same.add(0, make_box(h), Vec3(0, 0, 0.25));
  same.add(1, make_box(h), Vec3(0, 0, 0.75 + 0.001));
  const auto c = same.detect(0.05);
  REQUIRE(c.size() == 4);
  for (const Contact& k : c) CHECK(std::abs(k.gap - 0.001) < 1e-9);
}

TEST_CASE("box edge across box edge, and a hull on a box", "[collision]") {
  // a box turned 45° about x resting with an edge on another's edge turned 45° about y
  Scene s;
  const double e = 0.5 * std::sqrt(2.0);  // half diagonal of a unit square
  s.add(0, make_box(Vec3(0.5, 0.5, 0.5)), Vec3(0, 0, 0), axis_angle(pi / 4, Vec3::UnitY()));
  s.add(1, make_box(Vec3(0.5, 0.5, 0.5)), Vec3(0, 0, 2 * e + 0.01),
        axis_angle(pi / 4, Vec3::UnitX()));
  const auto c = s.detect(0.05);
  REQUIRE(c.size() == 1);
  CHECK(std::abs(c[0].gap - 0.01) < 1e-9);
  CHECK((c[0].n_BA_W + Vec3::UnitZ()).norm() < 1e-9);  // from the top box (B) down to A
  // a tetrahedron standing on its face on a box
  Scene t;
  t.add(0, make_box(Vec3(1, 1, 0.5)), Vec3(0, 0, -0.5), Quat::Identity(), true);
  t.add(1, make_convex({Vec3(0, 0, 0), Vec3(0.3, 0, 0), Vec3(0, 0.3, 0), Vec3(0.1, 0.1, 0.3)}),
        Vec3(0.1, 0.2, 0.002));
  const auto tc = t.detect(0.05);
  REQUIRE(tc.size() == 3);
  for (const Contact& k : tc) CHECK(std::abs(k.gap - 0.002) < 1e-9);
}

TEST_CASE("curved shapes against boxes go through GJK", "[collision]") {
  Scene s;
  s.add(0, make_box(Vec3(1, 1, 1)), Vec3::Zero(), Quat::Identity(), true);
  s.add(1, make_sphere(0.25), Vec3(0.3, -0.2, 1.0 + 0.25 + 0.01));
  s.add(2, make_ellipsoid(Vec3(0.1, 0.2, 0.3)), Vec3(1.0 + 0.1 + 0.02, 0.1, 0.0));
  s.add(3, make_capsule(0.1, 0.4), Vec3(0.0, 0.0, -1.0 - 0.1 - 0.005),
        axis_angle(pi / 2, Vec3::UnitX()));
  const auto c = s.detect(0.05);
  check_invariants(c, 0.05);
  std::map<int, std::vector<Contact>> by;
  for (const Contact& k : c) by[k.body_a].push_back(k);
  REQUIRE(by[1].size() == 1);
  CHECK(std::abs(by[1][0].gap - 0.01) < 1e-6);
  CHECK((by[1][0].n_BA_W - Vec3::UnitZ()).norm() < 1e-6);
  REQUIRE(by[2].size() == 1);
  CHECK(std::abs(by[2][0].gap - 0.02) < 1e-6);
  CHECK((by[2][0].n_BA_W - Vec3::UnitX()).norm() < 1e-6);
  REQUIRE(by[3].size() >= 2);  // lying under the box: both ends
  for (const Contact& k : by[3]) {
    CHECK(std::abs(k.gap - 0.005) < 1e-6);
    CHECK((k.n_BA_W + Vec3::UnitZ()).norm() < 1e-6);
  }
}

TEST_CASE("triangle-mesh floor: a box gets its 4 corners, no internal-edge contacts",
          "[collision][mesh]") {
  // two triangles sharing the diagonal from (-2,-2) to (2,2)
  const auto floor = make_mesh({Vec3(-2, -2, 0), Vec3(2, -2, 0), Vec3(2, 2, 0), Vec3(-2, 2, 0)},
                               {{0, 1, 2}, {0, 2, 3}}, "floor");
  for (const double gap : {0.01, 0.0, -0.004}) {
    Scene s;
    s.add(0, floor, Vec3::Zero(), Quat::Identity(), true);
    // the box straddles the diagonal
    s.add(1, make_box(Vec3(0.2, 0.2, 0.2)), Vec3(0.3, 0.1, 0.2 + gap),
          axis_angle(0.2, Vec3::UnitZ()));
    // a sphere 0.14 from the diagonal: only its face contact, not a tilted one at the edge
    s.add(2, make_sphere(0.2), Vec3(-0.5, -0.7, 0.2 + gap));
    // a capsule lying down: both ends
    s.add(3, make_capsule(0.1, 0.3), Vec3(-1.0, 0.5, 0.1 + gap), axis_angle(pi / 2, Vec3(1, 1, 0)));
    const auto c = s.detect(0.05);
    check_invariants(c, 0.05);
    std::map<int, std::vector<Contact>> by;
    for (const Contact& k : c) by[k.body_a].push_back(k);
    CHECK(by[1].size() == 4);
    CHECK(by[2].size() == 1);
    CHECK(by[3].size() == 2);
    for (const Contact& k : c) {
      CHECK(k.body_b == 0);
      CHECK(std::abs(k.gap - gap) < 1e-9);
      CHECK((k.n_BA_W - Vec3::UnitZ()).norm() < 1e-9);
    }
  }
}

TEST_CASE("compound shapes collide part by part", "[collision]") {
  // two boxes side by side as one body, resting on a plane: 8 corners
  const auto part = make_box(Vec3(0.2, 0.2, 0.1));
  const auto dumbbell = make_compound({{part, Vec3(-0.5, 0, 0)}, {part, Vec3(0.5, 0, 0)}});
  Scene s;
  s.add(0, make_plane(Vec3::UnitZ(), 0.0), Vec3::Zero(), Quat::Identity(), true);
  s.add(1, dumbbell, Vec3(0, 0, 0.1 + 0.004));
  const auto c = s.detect(0.05);
  REQUIRE(c.size() == 8);
  for (const Contact& k : c) CHECK(std::abs(k.gap - 0.004) < 1e-9);
}

TEST_CASE("filters: groups and masks, excluded pairs, fixed–fixed pairs", "[collision]") {
  auto overlapping = [](Scene& s, bool fixed0, bool fixed1, std::uint32_t g0, std::uint32_t m0,
                        std::uint32_t g1, std::uint32_t m1) {
    s.add(0, make_sphere(0.5), Vec3::Zero(), Quat::Identity(), fixed0, g0, m0);
    s.add(1, make_sphere(0.5), Vec3(0.9, 0, 0), Quat::Identity(), fixed1, g1, m1);
  };
  {
    Scene s;
    overlapping(s, false, false, 1, 0xffffffffu, 1, 0xffffffffu);
    CHECK(s.detect(0.01).size() == 1);
  }
  {
    Scene s;  // 1 does not want group 2
    overlapping(s, false, false, 2, 0xffffffffu, 1, ~2u);
    CHECK(s.detect(0.01).empty());
  }
  {
    Scene s;  // 0 does not want group 1 (the other direction)
    overlapping(s, false, false, 2, ~1u, 1, 0xffffffffu);
    CHECK(s.detect(0.01).empty());
  }
  {
    Scene s;
    overlapping(s, false, false, 1, 0xffffffffu, 1, 0xffffffffu);
    s.world.exclude_pair(1, 0);
    CHECK(s.detect(0.01).empty());
  }
  {
    Scene s;
    overlapping(s, true, true, 1, 0xffffffffu, 1, 0xffffffffu);
    CHECK(s.detect(0.01).empty());
  }
  {
    Scene s;  // a fixed body against a dynamic one: the dynamic one is A
    overlapping(s, true, false, 1, 0xffffffffu, 1, 0xffffffffu);
    const auto c = s.detect(0.01);
    REQUIRE(c.size() == 1);
    CHECK(c[0].body_a == 1);
    CHECK(c[0].body_b == 0);
    CHECK((c[0].n_BA_W - Vec3::UnitX()).norm() < 1e-12);
  }
}

TEST_CASE("add() validates its settings", "[collision]") {
  CollisionWorld w;
  CollisionObjectSettings s;
  s.body = 0;
  CHECK_THROWS_WITH(w.add(s), Contains("null"));
  s.shape = make_plane(Vec3::UnitZ(), 0.0);
  CHECK_THROWS_WITH(w.add(s), Contains("fixed"));
  s.fixed = true;
  w.add(s);
  CHECK_THROWS_WITH(w.add(s), Contains("already"));
  CHECK(w.object_count() == 1);
  CHECK_THROWS_AS(w.detect([](int) { return Pose{}; }, -0.1), Error);
}

TEST_CASE("shape offsets place the shape frame relative to the centre of mass", "[collision]") {
  // a body whose COM sits 0.1 above its shape frame's origin (shape_offset = −com_S)
  CollisionWorld w;
  CollisionObjectSettings plane;
  plane.body = 0;
  plane.shape = make_plane(Vec3::UnitZ(), 0.0);
  plane.fixed = true;
  w.add(plane);
  CollisionObjectSettings ball;
  ball.body = 1;
  ball.shape = make_sphere(0.2);
  ball.shape_offset = Vec3(0, 0, -0.1);
  w.add(ball);
  // body 1 turned upside down: the shape frame is 0.1 above the COM
  const Pose p1{Vec3(0, 0, 0.15), axis_angle(pi, Vec3::UnitX())};
  const auto c = w.detect([&](int i) { return i == 1 ? p1 : Pose{}; }, 0.1);
  REQUIRE(c.size() == 1);
  CHECK(std::abs(c[0].gap - (0.25 - 0.2)) < 1e-12);
}
