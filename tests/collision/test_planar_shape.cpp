// collision/planar_shape.hpp: the planar pose's sign, the factories' validation, the polygon
// hull, and mass properties against closed forms and a brute-force grid integration.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <functional>
#include <numbers>
#include <random>
#include <vector>

#include "pivot/collision/planar_shape.hpp"
#include "pivot/core/error.hpp"

using namespace pivot;
using Catch::Matchers::Contains;

namespace {

constexpr double pi = std::numbers::pi;

/// the moments of a region given by its indicator, by the midpoint rule on an n × n grid over
/// [lo, hi]: area, centroid and the central second moments ∫x², ∫z², ∫x z (dA)
struct GridMoments {
  double area = 0.0;
  Vec2 centroid = Vec2::Zero();
  double Sxx = 0.0, Szz = 0.0, Sxz = 0.0;
};

GridMoments grid_moments(const std::function<bool(double, double)>& inside, const Vec2& lo,
                         const Vec2& hi, int n) {
  const double hx = (hi.x() - lo.x()) / n, hz = (hi.y() - lo.y()) / n, dA = hx * hz;
  double A = 0.0, Mx = 0.0, Mz = 0.0, Xx = 0.0, Zz = 0.0, Xz = 0.0;
  for (int i = 0; i < n; ++i) {
    const double x = lo.x() + (i + 0.5) * hx;
    for (int k = 0; k < n; ++k) {
      const double z = lo.y() + (k + 0.5) * hz;
      if (!inside(x, z)) continue;
      A += dA;
      Mx += x * dA;
      Mz += z * dA;
      Xx += x * x * dA;
      Zz += z * z * dA;
      Xz += x * z * dA;
    }
  }
  GridMoments g;
  g.area = A;
  g.centroid = Vec2(Mx / A, Mz / A);
  g.Sxx = Xx - A * g.centroid.x() * g.centroid.x();
  g.Szz = Zz - A * g.centroid.y() * g.centroid.y();
  g.Sxz = Xz - A * g.centroid.x() * g.centroid.y();
  return g;
}

/// inside a convex polygon given counter-clockwise (x right, z up)
bool inside_convex(const std::vector<Vec2>& P, double x, double z) {
  for (std::size_t i = 0; i < P.size(); ++i) {
    const Vec2& a = P[i];
    const Vec2& b = P[(i + 1) % P.size()];
    if ((b.x() - a.x()) * (z - a.y()) - (b.y() - a.y()) * (x - a.x()) < 0.0) return false;
  }
  return true;
}

/// the inertia a lamina with central moments (Sxx, Szz, Sxz) and density rho must have
Mat3 expected_inertia(double rho, double Sxx, double Szz, double Sxz) {
  Mat3 I = Mat3::Zero();
  I(0, 0) = rho * Szz;
  I(2, 2) = rho * Sxx;
  I(1, 1) = rho * (Sxx + Szz);
  I(0, 2) = I(2, 0) = -rho * Sxz;
  return I;
}

}  // namespace

TEST_CASE("planar shape: the pose is R_y(θ) on (bx, 0, bz), as Eigen's AngleAxisd about +y",
          "[planar]") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> U(-4.0, 4.0);
  for (int trial = 0; trial < 50; ++trial) {
    const PlanarPose pose{U(rng), Vec2(U(rng), U(rng))};
    const Vec2 b(U(rng), U(rng));
    const Vec3 w = Eigen::AngleAxisd(pose.theta, Vec3::UnitY()) * Vec3(b.x(), 0.0, b.y()) +
                   Vec3(pose.p.x(), 0.0, pose.p.y());
    CHECK(std::abs(w.y()) < 1e-15);
    CHECK((pose.to_world(b) - Vec2(w.x(), w.z())).norm() < 1e-13);
    const Vec3 d = Eigen::AngleAxisd(pose.theta, Vec3::UnitY()) * Vec3(b.x(), 0.0, b.y());
    CHECK((pose.rotate(b) - Vec2(d.x(), d.z())).norm() < 1e-13);
  }
  // the sign: a quarter turn about +y takes +z to +x and +x to −z
  const PlanarPose quarter{pi / 2, Vec2::Zero()};
  CHECK((quarter.rotate(Vec2(0, 1)) - Vec2(1, 0)).norm() < 1e-15);
  CHECK((quarter.rotate(Vec2(1, 0)) - Vec2(0, -1)).norm() < 1e-15);
}

TEST_CASE("planar shape: factories validate sizes, normals and points", "[planar]") {
  const double nan = std::nan(""), inf = INFINITY;
  for (const double bad : {0.0, -1.0, nan, inf}) {
    CHECK_THROWS_WITH(make_planar_circle(bad), Contains("circle") && Contains("radius"));
    CHECK_THROWS_WITH(make_planar_box(bad, 1.0), Contains("box") && Contains("hx"));
    CHECK_THROWS_WITH(make_planar_box(1.0, bad), Contains("box") && Contains("hz"));
    CHECK_THROWS_WITH(make_planar_capsule(bad, 1.0), Contains("capsule") && Contains("radius"));
    CHECK_THROWS_WITH(make_planar_capsule(1.0, bad),
                      Contains("capsule") && Contains("half length"));
  }
  CHECK_THROWS_WITH(make_planar_half_plane(Vec2(0, 0), 1.0), Contains("normal must not be zero"));
  CHECK_THROWS_WITH(make_planar_half_plane(Vec2(nan, 1), 1.0), Contains("finite"));
  CHECK_THROWS_WITH(make_planar_half_plane(Vec2(0, 1), inf), Contains("finite"));
  CHECK_THROWS_WITH(make_planar_polygon({Vec2(0, 0), Vec2(1, 0)}),
                    Contains("at least 3 non-collinear"));
  CHECK_THROWS_WITH(make_planar_polygon({Vec2(0, 0), Vec2(1, 1), Vec2(2, 2), Vec2(3, 3)}),
                    Contains("at least 3 non-collinear"));
  // a valid triangle with a repeated point
  CHECK_NOTHROW(make_planar_polygon({Vec2(0, 0), Vec2(1, 0), Vec2(1, 1), Vec2(0, 0)}));
  CHECK_THROWS_WITH(make_planar_polygon({Vec2(0, 0), Vec2(1, 0), Vec2(nan, 1)}),
                    Contains("point 2 is not finite"));
  CHECK_THROWS_AS(make_planar_polygon({}), Error);
  // a half-plane's normal is normalized, its offset kept as a distance along it
  const PlanarShape h = make_planar_half_plane(Vec2(3, 4), 2.0);
  CHECK((h.normal - Vec2(0.6, 0.8)).norm() < 1e-15);
  CHECK(h.offset == 2.0);
}

TEST_CASE("planar shape: a polygon is its convex hull, counter-clockwise, collinear points dropped",
          "[planar]") {
  // the square [0,2]² given shuffled, with its centre and two edge midpoints
  const PlanarShape p = make_planar_polygon(
      {Vec2(2, 2), Vec2(1, 1), Vec2(0, 2), Vec2(1, 0), Vec2(2, 0), Vec2(0, 0), Vec2(2, 1)});
  const std::vector<Vec2> expected = {Vec2(0, 0), Vec2(2, 0), Vec2(2, 2), Vec2(0, 2)};
  REQUIRE(p.points.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) CHECK(p.points[i] == expected[i]);
  CHECK(p.type == PlanarShapeType::polygon);
  // counter-clockwise (x right, z up): every turn is to the left
  std::mt19937 rng(3);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  std::vector<Vec2> cloud;
  for (int i = 0; i < 40; ++i) cloud.emplace_back(U(rng), U(rng));
  const PlanarShape q = make_planar_polygon(cloud);
  for (std::size_t i = 0; i < q.points.size(); ++i) {
    const Vec2 e0 = q.points[(i + 1) % q.points.size()] - q.points[i];
    const Vec2 e1 = q.points[(i + 2) % q.points.size()] - q.points[(i + 1) % q.points.size()];
    CHECK(e0.x() * e1.y() - e0.y() * e1.x() > 0.0);
  }
  // and every input point is inside
  for (const Vec2& c : cloud) {
    for (std::size_t i = 0; i < q.points.size(); ++i) {
      const Vec2& a = q.points[i];
      const Vec2& b = q.points[(i + 1) % q.points.size()];
      CHECK((b.x() - a.x()) * (c.y() - a.y()) - (b.y() - a.y()) * (c.x() - a.x()) >= -1e-15);
    }
  }
}

TEST_CASE("planar shape: cores are counter-clockwise with unit outward normals", "[planar]") {
  const PlanarCore box = planar_core(make_planar_box(2.0, 0.5));
  REQUIRE(box.vertices.size() == 4);
  REQUIRE(box.normals.size() == 4);
  CHECK(box.radius == 0.0);
  for (std::size_t i = 0; i < 4; ++i) {
    const Vec2 e = box.vertices[(i + 1) % 4] - box.vertices[i];
    CHECK(std::abs(box.normals[i].dot(e)) < 1e-15);  // perpendicular
    CHECK(std::abs(box.normals[i].norm() - 1.0) < 1e-15);
    // outward: the centre (origin) is behind every face
    CHECK(box.normals[i].dot(Vec2::Zero() - box.vertices[i]) < 0.0);
  }
  const PlanarCore cap = planar_core(make_planar_capsule(0.3, 1.5));
  REQUIRE(cap.vertices.size() == 2);
  CHECK(cap.vertices[0] == Vec2(-1.5, 0));
  CHECK(cap.vertices[1] == Vec2(1.5, 0));
  CHECK(cap.normals[0] == Vec2(0, -1));
  CHECK(cap.normals[1] == Vec2(0, 1));
  CHECK(cap.radius == 0.3);
  const PlanarCore circle = planar_core(make_planar_circle(0.7));
  CHECK(circle.vertices.size() == 1);
  CHECK(circle.normals.empty());
  CHECK(circle.radius == 0.7);
  const PlanarCore tri = planar_core(make_planar_polygon({Vec2(0, 0), Vec2(0, 1), Vec2(1, 0)}));
  REQUIRE(tri.normals.size() == 3);
  for (std::size_t i = 0; i < 3; ++i) {
    const Vec2 centroid(1.0 / 3, 1.0 / 3);
    CHECK(tri.normals[i].dot(centroid - tri.vertices[i]) < 0.0);
  }
  CHECK_THROWS_AS(planar_core(make_planar_half_plane(Vec2(0, 1), 0.0)), Error);
  // bounding radii: the farthest point from the origin
  CHECK(planar_bounding_radius(make_planar_circle(0.7)) == 0.7);
  CHECK(std::abs(planar_bounding_radius(make_planar_box(3, 4)) - 5.0) < 1e-15);
  CHECK(std::abs(planar_bounding_radius(make_planar_capsule(0.3, 1.5)) - 1.8) < 1e-15);
  CHECK(std::abs(planar_bounding_radius(make_planar_polygon({Vec2(0, 0), Vec2(3, 4), Vec2(1, 0)})) -
                 5.0) < 1e-15);
  CHECK_THROWS_AS(planar_bounding_radius(make_planar_half_plane(Vec2(0, 1), 0.0)), Error);
}

TEST_CASE("planar shape: circle mass properties: m = ρπr², polar m r²/2", "[planar]") {
  const double r = 0.7, rho = 3.0;
  const PlanarMassProperties mp = planar_mass_properties(make_planar_circle(r), rho);
  const double m = rho * pi * r * r;
  CHECK(std::abs(mp.area - pi * r * r) < 1e-14);
  CHECK(std::abs(mp.mass - m) < 1e-13);
  CHECK(mp.centroid == Vec2::Zero());
  Mat3 I = Mat3::Zero();
  I(0, 0) = I(2, 2) = m * r * r / 4;
  I(1, 1) = m * r * r / 2;
  CHECK((mp.inertia - I).norm() < 1e-13);
}

TEST_CASE("planar shape: box mass properties: I_xx = m hz²/3, I_zz = m hx²/3", "[planar]") {
  const double hx = 1.5, hz = 0.25, rho = 2.0;
  const PlanarMassProperties mp = planar_mass_properties(make_planar_box(hx, hz), rho);
  const double m = rho * 4 * hx * hz;
  CHECK(std::abs(mp.mass - m) < 1e-13);
  CHECK(std::abs(mp.area - 4 * hx * hz) < 1e-14);
  CHECK(mp.centroid == Vec2::Zero());
  Mat3 I = Mat3::Zero();
  I(0, 0) = m * hz * hz / 3;  // a rod of length 2hz: m (2hz)²/12
  I(2, 2) = m * hx * hx / 3;
  I(1, 1) = m * (hx * hx + hz * hz) / 3;
  CHECK((mp.inertia - I).norm() < 1e-13);
}

TEST_CASE("planar shape: capsule mass properties: a rectangle and two half-discs", "[planar]") {
  const double r = 0.4, L = 0.9, rho = 5.0;
  const PlanarMassProperties mp = planar_mass_properties(make_planar_capsule(r, L), rho);
  // a different route from the code's: each half-disc about its own centroid, then moved.
  // half-disc (area A_h = πr²/2, centroid at d = 4r/(3π) from its flat side): about its flat
  // side's line ∫u² dA = πr⁴/8, so about its centroid πr⁴/8 − A_h d²; its centroid lies at
  // x = L + d, so ∫x² dA = πr⁴/8 − A_h d² + A_h (L + d)². Along z a half-disc has ∫z² = πr⁴/8.
  const double A_rect = 4 * L * r, A_h = pi * r * r / 2, d = 4 * r / (3 * pi);
  const double Sxx = (2 * r) * std::pow(2 * L, 3) / 12 +
                     2 * (pi * std::pow(r, 4) / 8 - A_h * d * d + A_h * (L + d) * (L + d));
  const double Szz = (2 * L) * std::pow(2 * r, 3) / 12 + 2 * (pi * std::pow(r, 4) / 8);
  const double area = A_rect + 2 * A_h;
  CHECK(std::abs(mp.area - area) < 1e-14);
  CHECK(std::abs(mp.mass - rho * area) < 1e-13);
  CHECK(mp.centroid == Vec2::Zero());
  CHECK((mp.inertia - expected_inertia(rho, Sxx, Szz, 0.0)).norm() < 1e-13);
  // and against the brute-force grid (points within r of the segment)
  const GridMoments g = grid_moments(
      [&](double x, double z) {
        const double t = std::clamp(x, -L, L);
        return (x - t) * (x - t) + z * z <= r * r;
      },
      Vec2(-L - r, -r), Vec2(L + r, r), 2000);
  CHECK(std::abs(g.area - area) < 1e-4 * area);
  CHECK(std::abs(mp.inertia(2, 2) - rho * g.Sxx) < 1e-3 * mp.inertia(2, 2));
  CHECK(std::abs(mp.inertia(0, 0) - rho * g.Szz) < 1e-3 * mp.inertia(0, 0));
}

TEST_CASE("planar shape: a rotated, offset polygon against a grid integration", "[planar]") {
  // a pentagon, turned by 0.6 rad and moved off the origin, so I_xz ≠ 0 and the centroid ≠ 0
  const std::vector<Vec2> base = {Vec2(0, 0), Vec2(2, 0), Vec2(2.5, 1), Vec2(1, 2),
                                  Vec2(-0.5, 0.8)};
  const double angle = 0.6, c = std::cos(angle), s = std::sin(angle);
  std::vector<Vec2> P;
  for (const Vec2& v : base)
    P.push_back(Vec2(c * v.x() - s * v.y() + 1.3, s * v.x() + c * v.y() - 0.7));
  // give the points shuffled: the factory sorts them
  const PlanarShape shape = make_planar_polygon({P[3], P[0], P[4], P[2], P[1]});
  const double rho = 1.7;
  const PlanarMassProperties mp = planar_mass_properties(shape, rho);

  Vec2 lo = P[0], hi = P[0];
  for (const Vec2& v : P) {
    lo = lo.cwiseMin(v);
    hi = hi.cwiseMax(v);
  }
  const GridMoments g =
      grid_moments([&](double x, double z) { return inside_convex(P, x, z); }, lo, hi, 2500);
  const double size = (hi - lo).norm();
  CHECK(std::abs(mp.area - g.area) < 1e-3 * g.area);
  CHECK(std::abs(mp.mass - rho * g.area) < 1e-3 * rho * g.area);
  CHECK((mp.centroid - g.centroid).norm() < 1e-3 * size);
  const Mat3 I = expected_inertia(rho, g.Sxx, g.Szz, g.Sxz);
  CHECK(std::abs(I(0, 2)) > 0.05 * I(1, 1));  // the product of inertia is really there
  CHECK((mp.inertia - I).norm() < 1e-3 * I.norm());
  // the shoelace area, independently
  double a2 = 0.0;
  for (std::size_t i = 0; i < P.size(); ++i)
    a2 += P[i].x() * P[(i + 1) % P.size()].y() - P[(i + 1) % P.size()].x() * P[i].y();
  CHECK(std::abs(mp.area - 0.5 * a2) < 1e-13);
}

TEST_CASE("planar shape: a regular 256-gon: the closed form, close to the circle", "[planar]") {
  const int n = 256;
  const double R = 1.3, rho = 2.0;
  std::vector<Vec2> pts;
  for (int k = 0; k < n; ++k)
    pts.emplace_back(R * std::cos(2 * pi * k / n) + 0.5, R * std::sin(2 * pi * k / n) - 0.25);
  const PlanarMassProperties mp = planar_mass_properties(make_planar_polygon(pts), rho);
  // regular n-gon of circumradius R: area (n/2) R² sin(2π/n), polar moment about its centre
  // (m R²/6)(1 + 2 cos²(π/n)); ∫x² = ∫z² by symmetry (n ≥ 3), ∫x z = 0
  const double area = 0.5 * n * R * R * std::sin(2 * pi / n);
  const double m = rho * area;
  const double polar = m * R * R / 6 * (1 + 2 * std::pow(std::cos(pi / n), 2));
  CHECK(std::abs(mp.area - area) < 1e-13);
  CHECK((mp.centroid - Vec2(0.5, -0.25)).norm() < 1e-13);
  CHECK(std::abs(mp.inertia(1, 1) - polar) < 1e-12 * polar);
  CHECK(std::abs(mp.inertia(0, 0) - polar / 2) < 1e-12 * polar);
  CHECK(std::abs(mp.inertia(2, 2) - polar / 2) < 1e-12 * polar);
  CHECK(std::abs(mp.inertia(0, 2)) < 1e-12 * polar);
  // and the circle's, to the polygon's accuracy (1 − area ratio ≈ (2π/n)²/6 ≈ 1e-4)
  const PlanarMassProperties disc = planar_mass_properties(make_planar_circle(R), rho);
  CHECK(std::abs(mp.mass - disc.mass) < 1e-3 * disc.mass);
  CHECK((mp.inertia - disc.inertia).norm() < 1e-3 * disc.inertia.norm());
}

TEST_CASE("planar shape: the perpendicular axis identity and a triangle's centroid", "[planar]") {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> U(-2.0, 2.0);
  for (int trial = 0; trial < 20; ++trial) {
    std::vector<Vec2> cloud;
    for (int i = 0; i < 8; ++i) cloud.emplace_back(U(rng), U(rng));
    const PlanarMassProperties mp = planar_mass_properties(make_planar_polygon(cloud), 1.3);
    CHECK(std::abs(mp.inertia(1, 1) - mp.inertia(0, 0) - mp.inertia(2, 2)) <
          1e-14 * mp.inertia(1, 1));
    CHECK(mp.inertia(0, 1) == 0.0);
    CHECK(mp.inertia(1, 2) == 0.0);
    CHECK(mp.inertia(0, 2) == mp.inertia(2, 0));
    // positive definite (a lamina's in-plane moments satisfy I_xx I_zz > I_xz²)
    CHECK(mp.inertia(0, 0) * mp.inertia(2, 2) > mp.inertia(0, 2) * mp.inertia(0, 2));
  }
  // a triangle: centroid (a + b + c)/3. The right triangle (0,0), (3,0), (0,6) with legs b = 3
  // along x and h = 6 along z has the central moments ∫x² = b³h/36 = A b²/18, ∫z² = A h²/18,
  // ∫x z = −b²h²/72 = −A b h/36 (standard tables, e.g. Gere, Mechanics of Materials, App. D)
  const Vec2 a(0, 0), b(3, 0), c(0, 6);
  const PlanarMassProperties mp = planar_mass_properties(make_planar_polygon({c, b, a}), 1.0);
  CHECK((mp.centroid - (a + b + c) / 3).norm() < 1e-14);
  const double A = 9.0;
  CHECK(std::abs(mp.area - A) < 1e-14);
  CHECK((mp.inertia - expected_inertia(1.0, A * 9 / 18, A * 36 / 18, -A * 3 * 6 / 36)).norm() <
        1e-13);
}

TEST_CASE("planar shape: mass for a given mass; half-planes and bad densities throw", "[planar]") {
  const PlanarShape box = make_planar_box(0.5, 0.2);
  const PlanarMassProperties mp = planar_mass_properties_for_mass(box, 3.0);
  CHECK(std::abs(mp.mass - 3.0) < 1e-14);
  CHECK(std::abs(mp.inertia(1, 1) - 3.0 * (0.25 + 0.04) / 3) < 1e-14);
  const PlanarShape half = make_planar_half_plane(Vec2(0, 1), 0.0);
  CHECK_THROWS_WITH(planar_mass_properties(half, 1.0), Contains("half-plane"));
  CHECK_THROWS_WITH(planar_mass_properties_for_mass(half, 1.0), Contains("half-plane"));
  for (const double bad : {0.0, -2.0, std::nan(""), double(INFINITY)}) {
    CHECK_THROWS_WITH(planar_mass_properties(box, bad), Contains("density"));
    CHECK_THROWS_WITH(planar_mass_properties_for_mass(box, bad), Contains("mass"));
  }
}
