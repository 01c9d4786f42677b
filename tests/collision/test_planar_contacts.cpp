// collision/planar_contacts.hpp: the 2-D narrow phase against closed forms and, for random
// convex polygons, against brute-force distances and separating-axis depths.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <random>
#include <vector>

#include "pivot/collision/planar_contacts.hpp"
#include "pivot/collision/planar_shape.hpp"
#include "pivot/core/error.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot;
using Catch::Matchers::Contains;

namespace {

constexpr double pi = std::numbers::pi;

/// a body point in world, through Eigen's rotation about +y (independent of PlanarPose)
Vec2 world(const PlanarPose& pose, const Vec2& b) {
  const Vec3 w = Eigen::AngleAxisd(pose.theta, Vec3::UnitY()) * Vec3(b.x(), 0.0, b.y());
  return pose.p + Vec2(w.x(), w.z());
}

std::vector<Vec2> world_polygon(const std::vector<Vec2>& body, const PlanarPose& pose) {
  std::vector<Vec2> out;
  for (const Vec2& b : body) out.push_back(world(pose, b));
  return out;
}

/// distance from x to the segment [a, b], by projection
double segment_distance(const Vec2& x, const Vec2& a, const Vec2& b) {
  const Vec2 e = b - a;
  const double t = std::clamp((x - a).dot(e) / e.squaredNorm(), 0.0, 1.0);
  return (x - (a + t * e)).norm();
}

double boundary_distance(const Vec2& x, const std::vector<Vec2>& P) {
  double d = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < P.size(); ++i)
    d = std::min(d, segment_distance(x, P[i], P[(i + 1) % P.size()]));
  return d;
}

/// the distance of two disjoint convex polygons: every vertex against every edge, both ways
double polygon_distance(const std::vector<Vec2>& P, const std::vector<Vec2>& Q) {
  double d = std::numeric_limits<double>::infinity();
  for (const Vec2& p : P) d = std::min(d, boundary_distance(p, Q));
  for (const Vec2& q : Q) d = std::min(d, boundary_distance(q, P));
  return d;
}

/// the largest separation over the edge normals of both polygons (counter-clockwise in x–z):
/// > 0 apart (SAT), else minus the minimum translation distance
double sat_separation(const std::vector<Vec2>& P, const std::vector<Vec2>& Q) {
  double best = -std::numeric_limits<double>::infinity();
  for (int pass = 0; pass < 2; ++pass) {
    const auto& R = pass == 0 ? P : Q;
    const auto& I = pass == 0 ? Q : P;
    for (std::size_t i = 0; i < R.size(); ++i) {
      const Vec2 e = R[(i + 1) % R.size()] - R[i];
      const Vec2 n = Vec2(e.y(), -e.x()).normalized();
      double s = std::numeric_limits<double>::infinity();
      for (const Vec2& w : I) s = std::min(s, n.dot(w - R[i]));
      best = std::max(best, s);
    }
  }
  return best;
}

/// the separation of the projections of P and Q on the direction u (either order)
double interval_separation(const Vec2& u, const std::vector<Vec2>& P, const std::vector<Vec2>& Q) {
  double p_lo = std::numeric_limits<double>::infinity(), p_hi = -p_lo, q_lo = p_lo, q_hi = -p_lo;
  for (const Vec2& x : P) {
    p_lo = std::min(p_lo, u.dot(x));
    p_hi = std::max(p_hi, u.dot(x));
  }
  for (const Vec2& y : Q) {
    q_lo = std::min(q_lo, u.dot(y));
    q_hi = std::max(q_hi, u.dot(y));
  }
  return std::max(q_lo - p_hi, p_lo - q_hi);
}

/// polygon P and a point or segment Q are disjoint: a separating axis among P's edge normals and,
/// for a segment, its normal and direction
bool cores_apart(const std::vector<Vec2>& P, const std::vector<Vec2>& Q) {
  std::vector<Vec2> axes;
  for (std::size_t i = 0; i < P.size(); ++i) {
    const Vec2 e = P[(i + 1) % P.size()] - P[i];
    axes.push_back(Vec2(e.y(), -e.x()).normalized());
  }
  if (Q.size() == 2) {
    const Vec2 e = (Q[1] - Q[0]).normalized();
    axes.push_back(e);
    axes.push_back(Vec2(e.y(), -e.x()));
  }
  for (const Vec2& u : axes)
    if (interval_separation(u, P, Q) > 1e-9) return true;
  return false;
}

/// a random convex polygon: points at sorted random angles on a random ellipse
std::vector<Vec2> random_convex(std::mt19937& rng) {
  std::uniform_int_distribution<int> count(3, 7);
  std::uniform_real_distribution<double> angle(0.0, 2 * pi), axis(0.3, 1.2);
  const int n = count(rng);
  const double ax = axis(rng), az = axis(rng);
  std::vector<double> t;
  for (int i = 0; i < n; ++i) t.push_back(angle(rng));
  std::sort(t.begin(), t.end());
  std::vector<Vec2> pts;
  for (const double a : t) pts.emplace_back(ax * std::cos(a), az * std::sin(a));
  return pts;
}

double min_gap(const std::vector<PlanarContact>& cs) {
  double g = std::numeric_limits<double>::infinity();
  for (const auto& c : cs) g = std::min(g, c.gap);
  return g;
}

/// the contract every contact keeps: unit normal, gap = n·(p_a − p_b)
void check_consistent(const PlanarContact& c) {
  CHECK(std::abs(c.n_ba.norm() - 1.0) < 1e-14);
  CHECK(std::abs(c.gap - c.n_ba.dot(c.p_a - c.p_b)) < 1e-12);
}

const PlanarPose at_origin{0.0, Vec2::Zero()};

}  // namespace

TEST_CASE("planar contacts: circle–circle separated, touching, penetrating", "[planar]") {
  const PlanarShape A = make_planar_circle(0.5), B = make_planar_circle(0.3);
  const Vec2 cA(1.0, 2.0);
  const Vec2 u = Vec2(3.0, -4.0) / 5.0;  // from B to A
  for (const double d : {1.2, 0.8, 0.5, 1e-3}) {
    const Vec2 cB = cA - d * u;
    const auto cs = planar_contacts(A, PlanarPose{0.3, cA}, B, PlanarPose{-1.1, cB}, 1.0);
    REQUIRE(cs.size() == 1);
    check_consistent(cs[0]);
    CHECK(std::abs(cs[0].gap - (d - 0.8)) < 1e-14);
    CHECK((cs[0].n_ba - u).norm() < 1e-12);
    CHECK((cs[0].p_a - (cA - 0.5 * u)).norm() < 1e-12);
    CHECK((cs[0].p_b - (cB + 0.3 * u)).norm() < 1e-12);
  }
  // beyond the margin: nothing
  CHECK(planar_contacts(A, PlanarPose{0, cA}, B, PlanarPose{0, cA - 0.9 * u}, 0.05).empty());
  CHECK(planar_contacts(A, PlanarPose{0, cA}, B, PlanarPose{0, cA - 0.84 * u}, 0.05).size() == 1);
  // coincident centres: the documented +z, gap −(r1 + r2)
  const auto same = planar_contacts(A, PlanarPose{0, cA}, B, PlanarPose{0, cA}, 0.0);
  REQUIRE(same.size() == 1);
  CHECK(same[0].n_ba == Vec2(0, 1));
  CHECK(same[0].gap == -0.8);
}

TEST_CASE("planar contacts: a circle on a turned, moved half-plane", "[planar]") {
  // body half-plane z ≤ 0.2, turned by θ and moved: world normal R n, offset 0.2 + n_W·p
  const PlanarShape ground = make_planar_half_plane(Vec2(0, 1), 0.2);
  const PlanarPose pose_g{0.4, Vec2(0.3, -0.1)};
  const Vec2 n_W = world(pose_g, Vec2(0, 1)) - world(pose_g, Vec2(0, 0));
  const Vec2 on_boundary = world(pose_g, Vec2(1.7, 0.2));
  const double r = 0.25;
  for (const double height : {0.4, 0.25, 0.1}) {
    const Vec2 c = on_boundary + height * n_W;
    const auto cs = planar_contacts(make_planar_circle(r), PlanarPose{2.0, c}, ground, pose_g, 0.5);
    REQUIRE(cs.size() == 1);
    check_consistent(cs[0]);
    CHECK(std::abs(cs[0].gap - (height - r)) < 1e-14);
    CHECK((cs[0].n_ba - n_W).norm() < 1e-15);
    CHECK((cs[0].p_b - on_boundary).norm() < 1e-14);
    CHECK((cs[0].p_a - (c - r * n_W)).norm() < 1e-14);
    // the half-plane as A: the same contact seen from the other side
    const auto sw = planar_contacts(ground, pose_g, make_planar_circle(r), PlanarPose{2.0, c}, 0.5);
    REQUIRE(sw.size() == 1);
    CHECK(sw[0].n_ba == -cs[0].n_ba);
    CHECK(sw[0].p_a == cs[0].p_b);
    CHECK(sw[0].p_b == cs[0].p_a);
    CHECK(sw[0].gap == cs[0].gap);
  }
}

TEST_CASE("planar contacts: a box resting flat on a half-plane: 2 points, the face normal",
          "[planar]") {
  const PlanarShape box = make_planar_box(1.0, 0.5);
  const PlanarShape ground = make_planar_half_plane(Vec2(0, 1), 0.0);
  for (const double gap : {0.01, 0.0, -0.02}) {
    // a half turn about y keeps the box flat (a bottom face again)
    for (const double theta : {0.0, pi}) {
      const auto cs =
          planar_contacts(box, PlanarPose{theta, Vec2(3.0, 0.5 + gap)}, ground, at_origin, 0.05);
      REQUIRE(cs.size() == 2);
      for (const auto& c : cs) {
        check_consistent(c);
        CHECK(std::abs(c.gap - gap) < 1e-15);
        CHECK((c.n_ba - Vec2(0, 1)).norm() < 1e-15);  // the same normal for both
        CHECK(std::abs(c.p_b.y()) < 1e-15);
        CHECK(std::abs(std::abs(c.p_a.x() - 3.0) - 1.0) < 1e-15);
      }
      CHECK(std::abs(cs[0].p_a.x() - cs[1].p_a.x()) > 1.99);  // both bottom corners
    }
  }
  CHECK(planar_contacts(box, PlanarPose{0, Vec2(0, 0.56)}, ground, at_origin, 0.05).empty());
}

TEST_CASE("planar contacts: a box on a box offset by half its width: the overlap's two ends",
          "[planar]") {
  const double hx = 1.0, hz = 0.5;
  const PlanarShape box = make_planar_box(hx, hz);
  for (const double gap : {0.02, 0.0, -0.01}) {
    // A on top of B, moved right by hx: A spans x ∈ [0.7, 0.7 + 2hx], B [0.7 − hx, 0.7 + hx]
    const PlanarPose pose_a{0.0, Vec2(0.7 + hx, 2 * hz + gap)};
    const PlanarPose pose_b{0.0, Vec2(0.7, 0.0)};
    const auto cs = planar_contacts(box, pose_a, box, pose_b, 0.05);
    REQUIRE(cs.size() == 2);
    std::vector<double> xs;
    for (const auto& c : cs) {
      check_consistent(c);
      CHECK(std::abs(c.gap - gap) < 1e-15);
      CHECK((c.n_ba - Vec2(0, 1)).norm() < 1e-15);
      CHECK(std::abs(c.p_b.y() - hz) < 1e-15);
      CHECK(std::abs(c.p_a.y() - (hz + gap)) < 1e-15);
      CHECK(std::abs(c.p_a.x() - c.p_b.x()) < 1e-15);
      xs.push_back(c.p_a.x());
    }
    std::sort(xs.begin(), xs.end());
    CHECK(std::abs(xs[0] - 0.7) < 1e-15);         // A's left corner over B's top
    CHECK(std::abs(xs[1] - (0.7 + hx)) < 1e-15);  // B's right corner under A's bottom
  }
}

TEST_CASE("planar contacts: a turned box's corner on a half-plane: 1 point", "[planar]") {
  const double hx = 1.0, hz = 0.5, theta = pi / 6;
  const PlanarShape box = make_planar_box(hx, hz);
  const PlanarShape ground = make_planar_half_plane(Vec2(0, 1), 0.0);
  // the lowest corner, by brute force over the four corners, placed at z = depth
  const PlanarPose unplaced{theta, Vec2::Zero()};
  Vec2 lowest(0, std::numeric_limits<double>::infinity());
  for (const Vec2& b : {Vec2(-hx, -hz), Vec2(hx, -hz), Vec2(hx, hz), Vec2(-hx, hz)})
    if (world(unplaced, b).y() < lowest.y()) lowest = world(unplaced, b);
  for (const double depth : {0.03, 0.0, -0.04}) {
    const PlanarPose pose{theta, Vec2(0.2, depth - lowest.y())};
    const auto cs = planar_contacts(box, pose, ground, at_origin, 0.05);
    REQUIRE(cs.size() == 1);
    check_consistent(cs[0]);
    CHECK(std::abs(cs[0].gap - depth) < 1e-14);
    CHECK((cs[0].p_a - (pose.p + lowest)).norm() < 1e-14);
    CHECK((cs[0].n_ba - Vec2(0, 1)).norm() < 1e-15);
    // the incident edge is the face turned most toward the ground, the long bottom face (its
    // normal makes 30° with −z, the short side's 60°): its other corner is 2hx sin 30° = 1 up,
    // and comes in once the margin reaches it; the short side's corner (2hz cos 30° ≈ 0.87 up)
    // is not on the incident edge and never does
    CHECK(planar_contacts(box, pose, ground, at_origin, depth + 0.95).size() == 1);
    const auto wide = planar_contacts(box, pose, ground, at_origin, depth + 1.05);
    REQUIRE(wide.size() == 2);
    CHECK(std::abs(std::max(wide[0].gap, wide[1].gap) - (depth + 2 * hx * std::sin(theta))) <
          1e-14);
  }
}

TEST_CASE("planar contacts: a capsule lying on a half-plane: its two ends", "[planar]") {
  const double r = 0.2, L = 0.8;
  const PlanarShape cap = make_planar_capsule(r, L);
  const PlanarShape ground = make_planar_half_plane(Vec2(0, 1), 0.0);
  for (const double theta : {0.0, pi}) {
    const auto cs =
        planar_contacts(cap, PlanarPose{theta, Vec2(-1.0, r + 0.01)}, ground, at_origin, 0.02);
    REQUIRE(cs.size() == 2);
    std::vector<double> xs;
    for (const auto& c : cs) {
      check_consistent(c);
      CHECK(std::abs(c.gap - 0.01) < 1e-15);
      CHECK((c.n_ba - Vec2(0, 1)).norm() < 1e-15);
      CHECK(std::abs(c.p_a.y() - 0.01) < 1e-15);
      xs.push_back(c.p_a.x());
    }
    std::sort(xs.begin(), xs.end());
    CHECK(std::abs(xs[0] - (-1.0 - L)) < 1e-15);
    CHECK(std::abs(xs[1] - (-1.0 + L)) < 1e-15);
  }
  // standing up on one end: 1 point (the far end is beyond the margin), gap = its height − r
  const auto up =
      planar_contacts(cap, PlanarPose{pi / 2, Vec2(0, L + r - 0.03)}, ground, at_origin, 0.02);
  REQUIRE(up.size() == 1);
  CHECK(std::abs(up[0].gap + 0.03) < 1e-14);
}

TEST_CASE("planar contacts: capsule–circle, capsule–capsule", "[planar]") {
  const double r = 0.2, L = 1.0, rc = 0.3;
  const PlanarShape cap = make_planar_capsule(r, L);
  const PlanarShape ball = make_planar_circle(rc);
  const PlanarPose pose_cap{0.5, Vec2(0.4, -0.3)};
  const Vec2 a0 = world(pose_cap, Vec2(-L, 0)), a1 = world(pose_cap, Vec2(L, 0));
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> U(-2.0, 2.0);
  for (int trial = 0; trial < 100; ++trial) {
    const Vec2 c = pose_cap.p + Vec2(U(rng), U(rng));
    const double d = segment_distance(c, a0, a1);
    if (d < 1e-6) continue;
    const auto cs = planar_contacts(cap, pose_cap, ball, PlanarPose{U(rng), c}, 10.0);
    REQUIRE(cs.size() == 1);
    check_consistent(cs[0]);
    CHECK(std::abs(cs[0].gap - (d - r - rc)) < 1e-12);
    CHECK(segment_distance(cs[0].p_a, a0, a1) == Approx(r).margin(1e-12));
    CHECK(std::abs((cs[0].p_b - c).norm() - rc) < 1e-12);
  }
  // a circle over the middle: the exact side normal
  const Vec2 side = world(pose_cap, Vec2(0, 1)) - pose_cap.p;
  const auto mid =
      planar_contacts(cap, pose_cap, ball, PlanarPose{0, pose_cap.p + 0.9 * side}, 1.0);
  REQUIRE(mid.size() == 1);
  CHECK((mid[0].n_ba + side).norm() < 1e-15);
  CHECK(std::abs(mid[0].gap - (0.9 - r - rc)) < 1e-15);

  // two parallel capsules, one above the other and shifted by 0.5: the overlap's two ends
  const PlanarPose lower{0.0, Vec2(0, 0)}, upper{pi, Vec2(0.5, 2 * r + 0.01)};
  const auto par = planar_contacts(cap, upper, cap, lower, 0.05);
  REQUIRE(par.size() == 2);
  std::vector<double> xs;
  for (const auto& c : par) {
    check_consistent(c);
    CHECK(std::abs(c.gap - 0.01) < 1e-15);
    CHECK((c.n_ba - Vec2(0, 1)).norm() < 1e-15);
    xs.push_back(c.p_a.x());
  }
  std::sort(xs.begin(), xs.end());
  CHECK(std::abs(xs[0] - (0.5 - L)) < 1e-15);
  CHECK(std::abs(xs[1] - L) < 1e-15);
  // two crossing capsules (not parallel, apart): 1 point at the segments' distance − radii
  const PlanarPose tilted{0.3, Vec2(0.2, 1.0)};
  const Vec2 b0 = world(tilted, Vec2(-L, 0)), b1 = world(tilted, Vec2(L, 0));
  const Vec2 c0 = world(lower, Vec2(-L, 0)), c1 = world(lower, Vec2(L, 0));
  const double seg = std::min({segment_distance(b0, c0, c1), segment_distance(b1, c0, c1),
                               segment_distance(c0, b0, b1), segment_distance(c1, b0, b1)});
  const auto cross = planar_contacts(cap, tilted, cap, lower, 1.0);
  REQUIRE(cross.size() == 1);
  check_consistent(cross[0]);
  CHECK(std::abs(cross[0].gap - (seg - 2 * r)) < 1e-14);
  // end to end on one line: 1 point along the line
  const auto ends =
      planar_contacts(cap, PlanarPose{0, Vec2(2 * L + 2 * r + 0.01, 0)}, cap, lower, 0.05);
  REQUIRE(ends.size() == 1);
  CHECK(std::abs(ends[0].gap - 0.01) < 1e-14);
  CHECK((ends[0].n_ba - Vec2(1, 0)).norm() < 1e-15);
}

TEST_CASE("planar contacts: a capsule lying on a box: 2 points", "[planar]") {
  const PlanarShape cap = make_planar_capsule(0.1, 0.5);
  const PlanarShape box = make_planar_box(2.0, 0.5);
  const auto cs = planar_contacts(cap, PlanarPose{0, Vec2(0.3, 0.6 - 0.005)}, box,
                                  PlanarPose{0, Vec2::Zero()}, 0.01);
  REQUIRE(cs.size() == 2);
  for (const auto& c : cs) {
    CHECK(std::abs(c.gap + 0.005) < 1e-15);
    CHECK((c.n_ba - Vec2(0, 1)).norm() < 1e-15);
  }
}

TEST_CASE("planar contacts: random convex polygons against brute-force distance and depth",
          "[planar]") {
  std::mt19937 rng(2024);
  std::uniform_real_distribution<double> angle(-pi, pi), pos(-1.6, 1.6);
  int separated = 0, overlapping = 0, two_point = 0;
  for (int trial = 0; trial < 400; ++trial) {
    const PlanarShape A = make_planar_polygon(random_convex(rng));
    const PlanarShape B = make_planar_polygon(random_convex(rng));
    const PlanarPose pa{angle(rng), Vec2(pos(rng), pos(rng))};
    const PlanarPose pb{angle(rng), Vec2(pos(rng), pos(rng))};
    const std::vector<Vec2> PA = world_polygon(A.points, pa), PB = world_polygon(B.points, pb);
    const auto cs = planar_contacts(A, pa, B, pb, 100.0);
    REQUIRE(!cs.empty());
    REQUIRE(cs.size() <= 2);
    if (cs.size() == 2) ++two_point;
    const double sat = sat_separation(PA, PB);
    INFO("trial " << trial << ", SAT separation " << sat);
    if (sat > 0.0) {
      ++separated;
      CHECK(std::abs(min_gap(cs) - polygon_distance(PA, PB)) < 1e-9);
    } else {
      ++overlapping;
      CHECK(std::abs(-min_gap(cs) - (-sat)) < 1e-9);
    }
    for (const auto& c : cs) {
      check_consistent(c);
      CHECK(boundary_distance(c.p_a, PA) < 1e-9);
      CHECK(boundary_distance(c.p_b, PB) < 1e-9);
    }
    // swapped: the normals flip and the points swap (as sets)
    const auto sw = planar_contacts(B, pb, A, pa, 100.0);
    REQUIRE(sw.size() == cs.size());
    for (const auto& s : sw) {
      bool matched = false;
      for (const auto& c : cs)
        matched = matched || ((s.p_a - c.p_b).norm() < 1e-9 && (s.p_b - c.p_a).norm() < 1e-9 &&
                              (s.n_ba + c.n_ba).norm() < 1e-9 && std::abs(s.gap - c.gap) < 1e-9);
      CHECK(matched);
    }
    // the margin keeps exactly the points with gap ≤ margin
    const double cut = min_gap(cs) + 0.01;
    std::size_t within = 0;
    for (const auto& c : cs) within += c.gap <= cut ? 1 : 0;
    if (cut >= 0.0) CHECK(planar_contacts(A, pa, B, pb, cut).size() == within);
  }
  // the sample exercises both branches and both manifold sizes
  CHECK(separated > 50);
  CHECK(overlapping > 50);
  CHECK(two_point > 10);
}

TEST_CASE("planar contacts: random capsules and circles against polygons, apart", "[planar]") {
  std::mt19937 rng(99);
  std::uniform_real_distribution<double> angle(-pi, pi), pos(-2.0, 2.0), size(0.1, 0.6);
  int checked = 0;
  for (int trial = 0; trial < 300; ++trial) {
    const PlanarShape P = make_planar_polygon(random_convex(rng));
    const bool circle = trial % 2 == 0;
    const double r = size(rng), L = size(rng);
    const PlanarShape R = circle ? make_planar_circle(r) : make_planar_capsule(r, L);
    const PlanarPose pp{angle(rng), Vec2(pos(rng), pos(rng))};
    const PlanarPose pr{angle(rng), Vec2(pos(rng), pos(rng))};
    const std::vector<Vec2> PP = world_polygon(P.points, pp);
    // the rounded shape's core as a (degenerate) polygon: a point or a segment
    const std::vector<Vec2> core =
        circle ? std::vector<Vec2>{pr.p}
               : std::vector<Vec2>{world(pr, Vec2(-L, 0)), world(pr, Vec2(L, 0))};
    double d = std::numeric_limits<double>::infinity();
    for (const Vec2& x : core) d = std::min(d, boundary_distance(x, PP));
    if (!circle)
      for (const Vec2& x : PP) d = std::min(d, segment_distance(x, core[0], core[1]));
    // keep the cases where the core is outside the polygon (apart or the radius overlapping)
    if (!cores_apart(PP, core)) continue;
    ++checked;
    const auto cs = planar_contacts(R, pr, P, pp, 100.0);
    REQUIRE(!cs.empty());
    CHECK(std::abs(min_gap(cs) - (d - r)) < 1e-9);
    for (const auto& c : cs) {
      check_consistent(c);
      CHECK(boundary_distance(c.p_b, PP) < 1e-9);
      // the deepest point is on the rounded surface; a shallower one (the other end of a
      // tilted capsule's clipped edge) is its core point moved by r along the normal: within
      // the capsule (the Box2D convention, planar_contacts.hpp)
      const double dc = circle ? (c.p_a - pr.p).norm() : segment_distance(c.p_a, core[0], core[1]);
      if (c.gap == min_gap(cs))
        CHECK(std::abs(dc - r) < 1e-9);
      else
        CHECK(dc < r + 1e-9);
    }
    if (circle) CHECK(cs.size() == 1);
  }
  CHECK(checked > 100);
}

TEST_CASE("planar contacts: deterministic, bit for bit", "[planar]") {
  std::mt19937 rng(17);
  std::uniform_real_distribution<double> angle(-pi, pi), pos(-1.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    const PlanarShape A = make_planar_polygon(random_convex(rng));
    const PlanarShape B = make_planar_box(0.4, 0.3);
    const PlanarPose pa{angle(rng), Vec2(pos(rng), pos(rng))};
    const PlanarPose pb{angle(rng), Vec2(pos(rng), pos(rng))};
    const auto first = planar_contacts(A, pa, B, pb, 1.0);
    const auto second = planar_contacts(A, pa, B, pb, 1.0);
    REQUIRE(first.size() == second.size());
    for (std::size_t i = 0; i < first.size(); ++i) {
      CHECK(std::memcmp(first[i].p_a.data(), second[i].p_a.data(), 2 * sizeof(double)) == 0);
      CHECK(std::memcmp(first[i].p_b.data(), second[i].p_b.data(), 2 * sizeof(double)) == 0);
      CHECK(std::memcmp(first[i].n_ba.data(), second[i].n_ba.data(), 2 * sizeof(double)) == 0);
      CHECK(std::memcmp(&first[i].gap, &second[i].gap, sizeof(double)) == 0);
    }
  }
}

TEST_CASE("planar contacts: two half-planes, the margin, bad inputs", "[planar]") {
  const PlanarShape h = make_planar_half_plane(Vec2(0, 1), 0.0);
  const PlanarShape box = make_planar_box(1, 1);
  CHECK(planar_contacts(h, at_origin, h, PlanarPose{1.0, Vec2(0, -3)}, 1.0).empty());
  // a box turned slightly: the far corner comes in only with the larger margin
  const PlanarPose tilt{0.01, Vec2(0, std::cos(0.01) + std::sin(0.01) + 0.001)};
  CHECK(planar_contacts(box, tilt, h, at_origin, 0.005).size() == 1);
  CHECK(planar_contacts(box, tilt, h, at_origin, 0.05).size() == 2);
  CHECK(planar_contacts(box, tilt, h, at_origin, 0.0).empty());
  const double nan = std::nan(""), inf = INFINITY;
  for (const double bad : {-1e-9, nan, inf})
    CHECK_THROWS_WITH(planar_contacts(box, at_origin, h, at_origin, bad), Contains("margin"));
  CHECK_THROWS_WITH(planar_contacts(box, PlanarPose{nan, Vec2::Zero()}, h, at_origin, 0.0),
                    Contains("pose of A"));
  CHECK_THROWS_WITH(planar_contacts(box, at_origin, h, PlanarPose{0, Vec2(inf, 0)}, 0.0),
                    Contains("pose of B"));
}
