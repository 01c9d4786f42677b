// collision/*_surface.hpp: every partial derivative up to third order of every surface type
// against central finite differences of the next lower order, the outward orientation, and the
// closest-point search. Expected values come from finite differences and closed forms only.
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <numbers>
#include <random>

#include "pivot/collision/bezier_surface.hpp"
#include "pivot/collision/ellipsoid_surface.hpp"
#include "pivot/collision/paraboloid_surface.hpp"
#include "pivot/collision/plane_surface.hpp"
#include "pivot/collision/torus_surface.hpp"
#include "pivot/collision/truncated_series.hpp"
#include "pivot/core/error.hpp"

using namespace pivot;

namespace {

constexpr double pi = std::numbers::pi;

/// the App. B rattleback patch of Kry 2000, unscaled
BezierPatch rattleback_control_points() {
  BezierPatch P;
  const double xs[4] = {-1.5, -0.5, 0.5, 1.5};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) {
      const bool edge_i = i == 0 || i == 3, edge_j = j == 0 || j == 3;
      P[4 * i + j] = Vec3(xs[i], xs[j], -(edge_i ? 1.0 : 0.0) - (edge_j ? 1.0 : 0.0));
    }
  return P;
}

/// a bumpy, non-symmetric patch: third derivatives are all non-zero
BezierPatch bumpy_patch() {
  BezierPatch P;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      P[4 * i + j] = Vec3(i + 0.1 * j * j, j - 0.15 * i * j, 0.3 * std::sin(1.3 * i + 0.7 * j));
  return P;
}

/// max |a − b| over the components, relative to max(1, |b|)
double rel_err(const Vec3& a, const Vec3& b) {
  return (a - b).norm() / std::max(1.0, b.norm());
}

/// Each derivative of order k + 1 against the central difference of the order-k ones, at uv.
/// Step h in parameter units; the error of a central difference is O(h²) (plus rounding
/// ~1e-16/h), so 1e-6 relative is loose for h = 1e-4 and a smooth surface of unit size.
void check_jet_by_finite_differences(const SmoothSurface& s, int patch, const Vec2& uv,
                                     double h = 1e-4, double tol = 1e-6) {
  const SurfaceJet j = s.evaluate(patch, uv);
  const SurfaceJet ju_p = s.evaluate(patch, uv + Vec2(h, 0)),
                   ju_m = s.evaluate(patch, uv - Vec2(h, 0));
  const SurfaceJet jv_p = s.evaluate(patch, uv + Vec2(0, h)),
                   jv_m = s.evaluate(patch, uv - Vec2(0, h));
  auto du = [&](auto field) { return Vec3((ju_p.*field - ju_m.*field) / (2 * h)); };
  auto dv = [&](auto field) { return Vec3((jv_p.*field - jv_m.*field) / (2 * h)); };
  INFO(s.name() << " patch " << patch << " at (" << uv.x() << ", " << uv.y() << ")");
  // the point agrees with point()
  CHECK(rel_err(s.point(patch, uv), j.p) < 1e-13);
  // first order
  CHECK(rel_err(du(&SurfaceJet::p), j.p_u) < tol);
  CHECK(rel_err(dv(&SurfaceJet::p), j.p_v) < tol);
  // second order, the mixed one both ways
  CHECK(rel_err(du(&SurfaceJet::p_u), j.p_uu) < tol);
  CHECK(rel_err(dv(&SurfaceJet::p_u), j.p_uv) < tol);
  CHECK(rel_err(du(&SurfaceJet::p_v), j.p_uv) < tol);
  CHECK(rel_err(dv(&SurfaceJet::p_v), j.p_vv) < tol);
  // third order, every mixed one each way it can be reached
  CHECK(rel_err(du(&SurfaceJet::p_uu), j.p_uuu) < tol);
  CHECK(rel_err(dv(&SurfaceJet::p_uu), j.p_uuv) < tol);
  CHECK(rel_err(du(&SurfaceJet::p_uv), j.p_uuv) < tol);
  CHECK(rel_err(dv(&SurfaceJet::p_uv), j.p_uvv) < tol);
  CHECK(rel_err(du(&SurfaceJet::p_vv), j.p_uvv) < tol);
  CHECK(rel_err(dv(&SurfaceJet::p_vv), j.p_vvv) < tol);
}

/// random points in (or slightly outside, by `margin`) a bounded domain's bounding box
std::vector<Vec2> random_points(const PatchDomain& dom, int n, unsigned seed, double margin = 0.0,
                                const Vec2& lo_unbounded = Vec2(-2, -2),
                                const Vec2& hi_unbounded = Vec2(2, 2)) {
  std::mt19937 gen(seed);
  Vec2 lo = lo_unbounded, hi = hi_unbounded;
  if (dom.bounded()) {
    lo = hi = dom.vertices[0];
    for (const Vec2& v : dom.vertices) {
      lo = lo.cwiseMin(v);
      hi = hi.cwiseMax(v);
    }
  }
  std::uniform_real_distribution<double> U(0.0, 1.0);
  std::vector<Vec2> out;
  for (int i = 0; i < n; ++i)
    out.emplace_back(lo.x() - margin + (hi.x() - lo.x() + 2 * margin) * U(gen),
                     lo.y() - margin + (hi.y() - lo.y() + 2 * margin) * U(gen));
  return out;
}

void check_all_patches(const SmoothSurface& s, int n_per_patch, unsigned seed, double margin,
                       double h = 1e-4, double tol = 1e-6) {
  for (int p = 0; p < s.patch_count(); ++p)
    for (const Vec2& uv : random_points(s.domain(p), n_per_patch, seed + p, margin))
      check_jet_by_finite_differences(s, p, uv, h, tol);
}

}  // namespace

TEST_CASE("truncated series: the coefficients of Taylor2 up to their degree, bit for bit",
          "[collision][smooth_surface]") {
  // detail::series::Series<D> (collision/truncated_series.hpp) must give exactly Taylor2's
  // coefficients of degree ≤ D for the same operations: products, d_u, d_v, sqrt, reciprocal,
  // vectors
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  for (int trial = 0; trial < 50; ++trial) {
    Taylor2 a, b;
    detail::series::Series<2> a2, b2;
    for (int k = 0; k < 10; ++k) {
      a.c[k] = U(rng);
      b.c[k] = U(rng);
    }
    a.c[0] = 1.5 + 0.5 * U(rng);  // positive values for sqrt
    for (int k = 0; k < 6; ++k) {
      a2.c[k] = a.c[k];
      b2.c[k] = b.c[k];
    }
    const auto same = [](const Taylor2& t, const auto& s) {
      for (std::size_t k = 0; k < s.c.size(); ++k)
        if (t.c[k] != s.c[k]) return false;
      return true;
    };
    CHECK(same(a * b, a2 * b2));
    CHECK(same(sqrt(a) * reciprocal(a + b * b), sqrt(a2) * reciprocal(a2 + b2 * b2)));
    // a derivative of a degree-2 series is known to degree 1
    CHECK(same(a.d_u() * b.d_v(), (a2.d_u() * b2.d_v()).truncated<1>()));
    const detail::series::Series<1> a1 = a2.truncated<1>(), b1 = b2.truncated<1>();
    CHECK(same(-(a * b) + b, -(a1 * b1) + b1));
    Taylor2Vec3 v, w;
    detail::series::Vec3Series<2> v2, w2;
    for (int e = 0; e < 3; ++e)
      for (int k = 0; k < 10; ++k) {
        v.e[e].c[k] = U(rng);
        w.e[e].c[k] = U(rng);
        if (k < 6) {
          v2.e[e].c[k] = v.e[e].c[k];
          w2.e[e].c[k] = w.e[e].c[k];
        }
      }
    const Taylor2Vec3 n = normalized(cross(v, w));
    const detail::series::Vec3Series<2> n2 = normalized(cross(v2, w2));
    for (int e = 0; e < 3; ++e) CHECK(same(n.e[e], n2.e[e]));
    CHECK(same(dot(v, w), dot(v2, w2)));
  }
  // and the index helpers agree with Taylor2's
  for (int i = 0; i <= 3; ++i)
    for (int j = 0; i + j <= 3; ++j) {
      const int k = detail::series::index(i, j);
      CHECK(k == Taylor2::index(i, j));
      CHECK(detail::series::power_u(k) == i);
      CHECK(detail::series::power_v(k) == j);
    }
}

TEST_CASE("Taylor2 arithmetic matches closed-form derivatives", "[collision][smooth_surface]") {
  // f(u, v) = sqrt(1 + u² v) sin(u) / (2 + v) at (0.7, −0.4): compare every derivative with
  // central differences of a scalar function evaluated in double precision
  auto f = [](double u, double v) { return std::sqrt(1 + u * u * v) * std::sin(u) / (2 + v); };
  const double u0 = 0.7, v0 = -0.4;
  const Taylor2 u = Taylor2::variable_u(u0), v = Taylor2::variable_v(v0);
  const Taylor2 t = sqrt(u * u * v + 1.0) * sin(u) * reciprocal(v + 2.0);
  CHECK(t.value() == Approx(f(u0, v0)).epsilon(1e-15));
  // derivatives by nested central differences with step h (error O(h²))
  const double h = 1e-3;
  auto D = [&](int i, int j) {
    // ∂^(i+j) f by the tensor product of central difference stencils
    std::function<double(int, int, double, double)> rec = [&](int a, int b, double x,
                                                              double y) -> double {
      if (a > 0) return (rec(a - 1, b, x + h, y) - rec(a - 1, b, x - h, y)) / (2 * h);
      if (b > 0) return (rec(a, b - 1, x, y + h) - rec(a, b - 1, x, y - h)) / (2 * h);
      return f(x, y);
    };
    return rec(i, j, u0, v0);
  };
  for (int i = 0; i <= 3; ++i)
    for (int j = 0; i + j <= 3; ++j) {
      INFO("d^" << i << "," << j);
      CHECK(t.derivative(i, j) == Approx(D(i, j)).margin(2e-5));
    }
  // cos² + sin² = 1 to all orders
  const Taylor2 one = sin(u * v) * sin(u * v) + cos(u * v) * cos(u * v);
  CHECK(std::abs(one.value() - 1.0) < 1e-15);
  for (int k = 1; k < 10; ++k) CHECK(std::abs(one.c[k]) < 1e-14);
  // d_u of u³ is 3u²
  const Taylor2 cube = u * u * u;
  CHECK(cube.d_u().derivative(0, 0) == Approx(3 * u0 * u0));
  CHECK(cube.d_u().derivative(1, 0) == Approx(6 * u0));
  CHECK(cube.d_u().derivative(2, 0) == Approx(6.0));
}

TEST_CASE("plane surface: derivatives, orientation, projection", "[collision][smooth_surface]") {
  const auto plane = make_plane_surface(Vec3(0.3, -0.2, 1.0), 0.25);
  check_all_patches(*plane, 10, 11, 0.0);
  const SurfaceJet j = plane->evaluate(0, Vec2(0.3, -1.2));
  const Vec3 n = Vec3(0.3, -0.2, 1.0).normalized();
  CHECK(rel_err(j.p_u.cross(j.p_v), n) < 1e-14);
  CHECK(j.p.dot(n) == Approx(0.25));
  const Vec3 x(1.0, 2.0, 3.0);
  const SurfacePoint c = plane->closest_point(x);
  CHECK(rel_err(plane->point(0, c.uv), x - (x.dot(n) - 0.25) * n) < 1e-14);
  // for n = +z the axes are +x and +y
  const SurfaceJet jz = make_plane_surface(Vec3::UnitZ(), 0.0)->evaluate(0, Vec2(2.0, 3.0));
  CHECK(rel_err(jz.p, Vec3(2.0, 3.0, 0.0)) < 1e-15);
  CHECK_THROWS_AS(make_plane_surface(Vec3::Zero(), 0.0), Error);
}

TEST_CASE("ellipsoid surface: derivatives on all six cube charts, also past the chart edges",
          "[collision][smooth_surface]") {
  const EllipsoidSurface e(Vec3(0.3, 0.2, 0.5));
  check_all_patches(e, 12, 21, 0.2);
  // points lie on the ellipsoid; p_u × p_v points outward (along the gradient of the implicit
  // function x²/a² + y²/b² + z²/c²)
  for (int p = 0; p < 6; ++p)
    for (const Vec2& ab : random_points(e.domain(p), 10, 31 + p, 0.1)) {
      const SurfaceJet j = e.evaluate(p, ab);
      const Vec3 q = j.p.cwiseQuotient(e.radii());
      CHECK(q.squaredNorm() == Approx(1.0).epsilon(1e-14));
      const Vec3 grad = q.cwiseQuotient(e.radii());
      CHECK(j.p_u.cross(j.p_v).normalized().dot(grad.normalized()) == Approx(1.0).epsilon(1e-12));
    }
}

TEST_CASE("ellipsoid surface: chart edges are all linked and map to the same point",
          "[collision][smooth_surface]") {
  const EllipsoidSurface e(Vec3(0.3, 0.2, 0.5));
  for (int p = 0; p < 6; ++p)
    for (int edge = 0; edge < 4; ++edge) {
      const PatchEdgeLink l = e.neighbour(p, edge);
      REQUIRE_FALSE(l.open());
      CHECK(l.patch != p);
      // the link is symmetric
      const PatchEdgeLink back = e.neighbour(l.patch, l.edge);
      CHECK(back.patch == p);
      CHECK(back.edge == edge);
      for (double alpha : {0.0, 0.13, 0.5, 0.92, 1.0}) {
        const Vec3 a = e.point(p, e.domain(p).edge_point(edge, alpha));
        const auto other = across_edge(e, p, edge, alpha);
        REQUIRE(other);
        CHECK(rel_err(e.point(other->patch, other->uv), a) < 1e-14);
        // the same tangent plane on both sides (G1): equal unit normals
        const SurfaceJet ja = e.evaluate(p, e.domain(p).edge_point(edge, alpha));
        const SurfaceJet jb = e.evaluate(other->patch, other->uv);
        CHECK(rel_err(ja.p_u.cross(ja.p_v).normalized(), jb.p_u.cross(jb.p_v).normalized()) <
              1e-13);
      }
    }
  // point_in_direction lands on the point hit by the ray
  const Vec3 d(0.2, -0.7, 0.4);
  const SurfacePoint sp = e.point_in_direction(d);
  const Vec3 x = e.point(sp.patch, sp.uv);
  CHECK(rel_err(x.normalized(), d.normalized()) < 1e-14);
  CHECK_THROWS_AS(EllipsoidSurface(Vec3(1, 0, 1)), Error);
}

TEST_CASE("torus surface: derivatives, periodic domain, orientation",
          "[collision][smooth_surface]") {
  const TorusSurface torus(0.5, 0.2);
  for (const Vec2& uv : random_points(torus.domain(0), 20, 41, 0.0, Vec2(-1, -1), Vec2(8, 8)))
    check_jet_by_finite_differences(torus, 0, uv);
  for (const Vec2& uv : random_points(torus.domain(0), 10, 42, 0.0, Vec2(0, 0), Vec2(6, 6))) {
    const SurfaceJet j = torus.evaluate(0, uv);
    // outward: away from the tube's centre line
    const Vec3 centre = 0.5 * Vec3(std::cos(uv.x()), std::sin(uv.x()), 0.0);
    CHECK(j.p_u.cross(j.p_v).dot(j.p - centre) > 0.0);
    // periodic: the wrapped coordinates give the same point
    const Vec2 shifted = uv + Vec2(2 * pi * 3, -2 * pi);
    CHECK(rel_err(torus.point(0, torus.domain(0).wrapped(shifted)), j.p) < 1e-13);
  }
  const Vec2 w = torus.domain(0).wrapped(Vec2(-0.5, 7.0));
  CHECK(w.x() == Approx(2 * pi - 0.5));
  CHECK(w.y() == Approx(7.0 - 2 * pi));
  CHECK_THROWS_AS(TorusSurface(0.2, 0.5), Error);
}

TEST_CASE("paraboloid surface: derivatives and apex curvature", "[collision][smooth_surface]") {
  const ParaboloidSurface par(2.7, 0.3, 0.9, 0.3);
  check_all_patches(par, 20, 51, 0.1);
  // curvature at the apex: p_uu·n = −1/R_u with the outward normal +z
  const SurfaceJet j = par.evaluate(0, Vec2::Zero());
  CHECK(j.p_u.cross(j.p_v).z() > 0.0);
  CHECK(j.p_uu.z() == Approx(-1.0 / 2.7));
  CHECK(j.p_vv.z() == Approx(-1.0 / 0.3));
  CHECK_FALSE(par.neighbour(0, 2).patch >= 0);
  CHECK_FALSE(par.domain(0).contains(Vec2(0.95, 0.0)));
}

TEST_CASE("bicubic Bezier patch: derivatives and the rattleback's closed form",
          "[collision][smooth_surface]") {
  check_all_patches(BezierSurface({bumpy_patch()}), 25, 61, 0.2);
  // Kry 2000 App. B: z = −(E(s) + E(t)) with E(s) = 1 − 3s + 3s²,
  // x = 3s − 1.5, y = 3t − 1.5: an elliptic paraboloid
  const BezierSurface rb({rattleback_control_points()});
  for (const Vec2& st : random_points(rb.domain(0), 10, 62)) {
    const double s = st.x(), t = st.y();
    const Vec3 expected(3 * s - 1.5, 3 * t - 1.5, -(2 - 3 * s + 3 * s * s - 3 * t + 3 * t * t));
    CHECK(rel_err(rb.point(0, st), expected) < 1e-14);
    CHECK(rb.evaluate(0, st).p_u.cross(rb.evaluate(0, st).p_v).z() > 0.0);  // outward is +z
  }
  // one patch: every edge open
  for (int e = 0; e < 4; ++e) CHECK(rb.neighbour(0, e).open());
}

TEST_CASE("multi-patch Bezier surface: subdivision, shared edges, rotated parameters",
          "[collision][smooth_surface]") {
  const BezierPatch whole = bumpy_patch();
  const BezierSurface one({whole});
  const auto pieces = subdivide_bezier_patch(whole, 3, 2);
  REQUIRE(pieces.size() == 6);
  // turn one piece's parameters: the surface is the same, the edge links change direction
  auto turned = pieces;
  turned[2] = rotate_bezier_parameters(turned[2], 1);
  for (const bool is_turned : {false, true}) {
    const auto& patches = is_turned ? turned : pieces;
    const BezierSurface multi(patches);
    check_all_patches(multi, 6, 71, 0.1);
    // every sub-patch point is a point of the whole patch at the mapped parameter
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 2; ++b) {
        const int k = 2 * a + b;
        if (is_turned && k == 2) continue;
        for (const Vec2& uv : random_points(multi.domain(k), 5, 72 + k)) {
          const Vec2 whole_uv((a + uv.x()) / 3.0, (b + uv.y()) / 2.0);
          CHECK(rel_err(multi.point(k, uv), one.point(0, whole_uv)) < 1e-13);
        }
      }
    // interior edges linked, outer edges open; across_edge lands on the same point with the
    // same tangent plane
    int open = 0, linked = 0;
    for (int k = 0; k < 6; ++k)
      for (int e = 0; e < 4; ++e) {
        if (multi.neighbour(k, e).open()) {
          ++open;
          continue;
        }
        ++linked;
        for (double alpha : {0.0, 0.3, 1.0}) {
          const Vec2 uv = multi.domain(k).edge_point(e, alpha);
          const auto o = across_edge(multi, k, e, alpha);
          REQUIRE(o);
          CHECK(rel_err(multi.point(o->patch, o->uv), multi.point(k, uv)) < 1e-13);
          const SurfaceJet ja = multi.evaluate(k, uv), jb = multi.evaluate(o->patch, o->uv);
          CHECK(rel_err(ja.p_u.cross(ja.p_v).normalized(), jb.p_u.cross(jb.p_v).normalized()) <
                1e-12);
        }
      }
    CHECK(open == 10);    // the outline of a 3 × 2 grid
    CHECK(linked == 14);  // 7 interior edges, seen from both sides
  }
  // the turned piece: same surface at p(1 − v', u')
  const BezierSurface t({turned[2]}), p({pieces[2]});
  CHECK(rel_err(t.point(0, Vec2(0.2, 0.7)), p.point(0, Vec2(0.3, 0.2))) < 1e-14);
}

TEST_CASE("closest point on smooth surfaces", "[collision][smooth_surface]") {
  // sphere: the radial projection
  const auto sphere = make_sphere_surface(0.4);
  for (const Vec3& x : {Vec3(1, 2, 3), Vec3(-0.1, 0.05, 0.02), Vec3(0.3, -0.9, -0.1)}) {
    const SurfacePoint c = sphere->closest_point(x);
    CHECK(rel_err(sphere->point(c.patch, c.uv), 0.4 * x.normalized()) < 1e-10);
  }
  // torus: the nearest point of the tube
  const TorusSurface torus(0.5, 0.2);
  const Vec3 x(0.9, 0.4, 0.3);
  const SurfacePoint c = torus.closest_point(x);
  const Vec3 ring = 0.5 * Vec3(x.x(), x.y(), 0).normalized();
  CHECK(rel_err(torus.point(0, c.uv), ring + 0.2 * (x - ring).normalized()) < 1e-10);
  // multi-patch Bezier: the closest point to a point above the surface has p − x ∥ normal,
  // found across patches
  const BezierSurface multi(subdivide_bezier_patch(bumpy_patch(), 3, 3));
  const BezierSurface one({bumpy_patch()});
  const Vec3 target = one.point(0, Vec2(0.81, 0.47)) + 0.05 * Vec3(0.1, 0.2, 1.0);
  const SurfacePoint cm = multi.closest_point(target);
  const SurfaceJet jm = multi.evaluate(cm.patch, cm.uv);
  const Vec3 r = jm.p - target;
  CHECK(std::abs(r.dot(jm.p_u.normalized())) < 1e-10);
  CHECK(std::abs(r.dot(jm.p_v.normalized())) < 1e-10);
  CHECK(cm.patch == 2 * 3 + 1);  // u = 0.81 → third column, v = 0.47 → middle row
}
