// collision/convex_decomposition.hpp: the parts of non-convex closed meshes built here, against
// the mesh's own volume (divergence theorem) and bounds. The parts are hulls of the solid in
// disjoint boxes, so Σ volume(part) ≥ volume(mesh), and within the settings' 2 % when the
// part budget suffices (the bound is 5 %); their bounding box is the mesh's.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "pivot/collision/convex_decomposition.hpp"
#include "pivot/collision/shape.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot;
using Vec2 = Eigen::Vector2d;

namespace {

/// a prism over a polygon (counter-clockwise, star-shaped from its first vertex), z in [0, h]
detail::TriangleMesh prism(const std::vector<Vec2>& poly, double h) {
  detail::TriangleMesh m;
  const int n = static_cast<int>(poly.size());
  for (const Vec2& p : poly) m.vertices.emplace_back(p.x(), p.y(), 0.0);
  for (const Vec2& p : poly) m.vertices.emplace_back(p.x(), p.y(), h);
  for (int i = 1; i + 1 < n; ++i) {
    m.triangles.push_back({0, i + 1, i});          // bottom, seen from below
    m.triangles.push_back({n, n + i, n + i + 1});  // top
  }
  for (int i = 0; i < n; ++i) {
    const int j = (i + 1) % n;
    m.triangles.push_back({i, j, n + j});
    m.triangles.push_back({i, n + j, n + i});
  }
  return m;
}

/// a ring about z: radii r < R, height h, k segments
detail::TriangleMesh ring(double r, double R, double h, int k) {
  detail::TriangleMesh m;
  // vertex (ring ρ ∈ {0: inner, 1: outer}, level ζ ∈ {0, 1}, segment i) at 4 i + 2 ρ + ζ
  for (int i = 0; i < k; ++i) {
    const double u = 2 * std::numbers::pi * i / k;
    for (const double rad : {r, R})
      for (const double z : {0.0, h})
        m.vertices.emplace_back(rad * std::cos(u), rad * std::sin(u), z);
  }
  const auto id = [&](int i, int rho, int zeta) { return 4 * (i % k) + 2 * rho + zeta; };
  const auto quad = [&](int a, int b, int c, int d) {  // counter-clockwise seen from outside
    m.triangles.push_back({a, b, c});
    m.triangles.push_back({a, c, d});
  };
  for (int i = 0; i < k; ++i) {
    quad(id(i, 1, 0), id(i + 1, 1, 0), id(i + 1, 1, 1), id(i, 1, 1));  // outer wall
    quad(id(i, 0, 0), id(i, 0, 1), id(i + 1, 0, 1), id(i + 1, 0, 0));  // inner wall
    quad(id(i, 0, 1), id(i, 1, 1), id(i + 1, 1, 1), id(i + 1, 0, 1));  // top
    quad(id(i, 0, 0), id(i + 1, 0, 0), id(i + 1, 1, 0), id(i, 1, 0));  // bottom
  }
  return m;
}

void check_parts(const detail::TriangleMesh& mesh, std::size_t min_parts) {
  const double volume = detail::check_closed_mesh(mesh, "test mesh");
  const std::vector<ConvexHull> parts = detail::convex_decomposition(mesh, {}, "test mesh");
  CHECK(parts.size() >= min_parts);
  double sum = 0.0;
  Vec3 lo = parts.front().vertices.front(), hi = lo;
  for (const ConvexHull& p : parts) {
    sum += detail::enclosed_volume(p.vertices, p.triangles);
    for (const Vec3& v : p.vertices) {
      lo = lo.cwiseMin(v);
      hi = hi.cwiseMax(v);
    }
  }
  Vec3 mlo = mesh.vertices.front(), mhi = mlo;
  for (const Vec3& v : mesh.vertices) {
    mlo = mlo.cwiseMin(v);
    mhi = mhi.cwiseMax(v);
  }
  INFO("parts " << parts.size() << ", volume " << sum << " of " << volume);
  CHECK(sum >= volume * (1.0 - 1e-12));
  CHECK(sum <= volume * 1.05);
  CHECK((lo - mlo).norm() < 1e-12);
  CHECK((hi - mhi).norm() < 1e-12);
}

}  // namespace

TEST_CASE("convex decomposition: an L-shaped block is two boxes", "[convex_decomposition]") {
  // the L's volume is 3 unit squares × 0.5; a cut at x = 1 or y = 1 makes it two boxes exactly
  const detail::TriangleMesh L = prism({{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}, 0.5);
  check_parts(L, 2);
  const std::vector<ConvexHull> parts = detail::convex_decomposition(L, {}, "L");
  double sum = 0.0;
  for (const ConvexHull& p : parts) sum += detail::enclosed_volume(p.vertices, p.triangles);
  CHECK(sum == Approx(1.5).epsilon(1e-12));
}

TEST_CASE("convex decomposition: a ring within 5 % of its volume", "[convex_decomposition]") {
  check_parts(ring(0.6, 1.0, 0.3, 48), 4);
}

TEST_CASE("convex decomposition: a convex mesh is one part, its own hull",
          "[convex_decomposition]") {
  const detail::TriangleMesh box = prism({{0, 0}, {1, 0}, {1, 2}, {0, 2}}, 3.0);
  const std::vector<ConvexHull> parts = detail::convex_decomposition(box, {}, "box");
  REQUIRE(parts.size() == 1);
  CHECK(detail::enclosed_volume(parts[0].vertices, parts[0].triangles) == Approx(6.0));
}

TEST_CASE("mesh shapes: hull and decomposition weigh what the closed mesh encloses",
          "[convex_decomposition]") {
  // the L's mass properties by hand: two boxes [0,2]×[0,1] and [0,1]×[1,2], height 0.5,
  // density 1: masses 1 and 0.5, centroids (1, 0.5, 0.25) and (0.5, 1.5, 0.25)
  detail::TriangleMesh L = prism({{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}, 0.5);
  const Vec3 com = (1.0 * Vec3(1, 0.5, 0.25) + 0.5 * Vec3(0.5, 1.5, 0.25)) / 1.5;
  for (const MeshCollision mode : {MeshCollision::hull, MeshCollision::decomposition}) {
    INFO(to_string(mode));
    const ShapePtr s = make_mesh_shape(L.vertices, L.triangles, mode, {}, "L");
    const MassProperties mp = mass_properties(*s, 1.0);
    CHECK(mp.volume == Approx(1.5).epsilon(1e-12));
    CHECK((mp.com_S - com).norm() < 1e-12);
  }
  CHECK(make_mesh_shape(L.vertices, L.triangles, MeshCollision::hull, {}, "L")->type ==
        ShapeType::convex);
  CHECK(make_mesh_shape(L.vertices, L.triangles, MeshCollision::decomposition, {}, "L")->type ==
        ShapeType::compound);
}
