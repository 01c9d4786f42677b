// The regular chart of a Loop surface around an extraordinary vertex (collision/loop_ev_chart.hpp):
// its jet against finite differences at and near the EV, its first derivatives at the EV against
// Loop's limit tangent masks, and its points on the Loop surface. Octahedron (valence 4 EVs).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>

#include "pivot/collision/loop_ev_chart.hpp"
#include "pivot/collision/loop_surface.hpp"

using namespace pivot;

namespace {

LoopSurface octahedron() {
  std::vector<Vec3> p = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
  for (Vec3& x : p) x *= 0.05;
  return LoopSurface(
      p, {{0, 2, 4}, {2, 1, 4}, {1, 3, 4}, {3, 0, 4}, {2, 0, 5}, {1, 2, 5}, {3, 1, 5}, {0, 3, 5}});
}

double rel(const Vec3& a, const Vec3& b, double scale) {
  return (a - b).norm() / scale;
}

}  // namespace

TEST_CASE("Loop EV chart: one per EV, regular at the EV, points on the surface", "[loop]") {
  const LoopSurface s = octahedron();
  REQUIRE(s.chart_count() == 6);
  const int n = s.patch_count();
  for (int c = 0; c < s.chart_count(); ++c) {
    const detail::LoopEvChart& ch = s.ev_chart(c);
    const SurfaceJet j = s.evaluate(n + c, Vec2::Zero());
    // at the EV: the limit position, and p_x = L e_1, p_y = L e_2 (Loop's tangent masks)
    CHECK(rel(j.p, ch.limit_position(), 0.05) < 1e-9);
    CHECK(rel(j.p_u, ch.scale() * ch.e1(), ch.scale()) < 1e-6);
    CHECK(rel(j.p_v, ch.scale() * ch.e2(), ch.scale()) < 1e-6);
    CHECK(j.p_u.cross(j.p_v).normalized().dot(ch.normal()) > 1 - 1e-12);
    // the limit position by symmetry: on the axis of the octahedron vertex
    CHECK(ch.limit_position().normalized().cwiseAbs().maxCoeff() > 1 - 1e-12);
    // chart points are Loop points: through the patches
    for (int k = 0; k < 4; ++k) {
      const Vec2 vw(0.05 + 0.01 * k, 0.04);
      const Vec2 x = ch.chart_point(k, vw);
      CHECK(rel(s.evaluate(n + c, x).p, s.evaluate(ch.patches()[k], vw).p, 0.05) < 1e-12);
    }
  }
}

TEST_CASE("Loop EV chart: the jet against central differences near and at the EV", "[loop]") {
  const LoopSurface s = octahedron();
  const int chart = s.patch_count();
  const double R = s.domain(chart).vertices[0].norm();
  double worst1 = 0.0, worst2 = 0.0, worst3 = 0.0;
  for (const double r : {0.8, 0.5, 0.2, 0.05, 0.01}) {
    for (int a = 0; a < 7; ++a) {
      const double th = 0.3 + a * 0.9;
      const Vec2 x = r * R * Vec2(std::cos(th), std::sin(th));
      const double h = 1e-3 * r * R;
      const SurfaceJet J = s.evaluate(chart, x);
      auto at = [&](double du, double dv) { return s.evaluate(chart, x + Vec2(du, dv)); };
      const SurfaceJet up = at(h, 0), um = at(-h, 0), vp = at(0, h), vm = at(0, -h);
      const double s1 = J.p_u.norm(), s2 = std::max(J.p_uu.norm(), 1e-3 * s1 / (r * R));
      const double s3 = std::max(J.p_uuu.norm(), s2 / (r * R));
      worst1 = std::max({worst1, rel((up.p - um.p) / (2 * h), J.p_u, s1),
                         rel((vp.p - vm.p) / (2 * h), J.p_v, s1)});
      worst2 = std::max({worst2, rel((up.p_u - um.p_u) / (2 * h), J.p_uu, s2),
                         rel((vp.p_u - vm.p_u) / (2 * h), J.p_uv, s2),
                         rel((vp.p_v - vm.p_v) / (2 * h), J.p_vv, s2)});
      worst3 = std::max({worst3, rel((up.p_uu - um.p_uu) / (2 * h), J.p_uuu, s3),
                         rel((vp.p_uu - vm.p_uu) / (2 * h), J.p_uuv, s3),
                         rel((up.p_vv - um.p_vv) / (2 * h), J.p_uvv, s3),
                         rel((vp.p_vv - vm.p_vv) / (2 * h), J.p_vvv, s3)});
    }
  }
  // at the EV itself: first derivatives (the second are not continuous there)
  const double h = 1e-4 * R;
  const SurfaceJet J0 = s.evaluate(chart, Vec2::Zero());
  const double e0 =
      rel((s.evaluate(chart, Vec2(h, 0)).p - s.evaluate(chart, Vec2(-h, 0)).p) / (2 * h), J0.p_u,
          J0.p_u.norm());
  INFO("central differences: first " << worst1 << ", second " << worst2 << ", third " << worst3
                                     << ", first at the EV " << e0);
  CHECK(worst1 < 1e-6);
  CHECK(worst2 < 1e-5);
  CHECK(worst3 < 1e-3);
  CHECK(e0 < 1e-4);
}
