// collision/signed_distance_field.hpp and mesh_distance_field.hpp: trilinear lookup, gradient,
// the out-of-box bound (Barbič 2007, §3.11) and OpenVDB's field of a mesh, against analytic
// distances and finite differences.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "pivot/collision/analytic_distance.hpp"
#include "pivot/collision/mesh_distance_field.hpp"
#include "pivot/collision/signed_distance_field.hpp"
#include "pivot/core/error.hpp"

#include "support/box_mesh.hpp"

using namespace pivot;
using namespace pivot::detail;

using pivot::test::box_mesh;

namespace {

Vec3 random_in(std::mt19937_64& rng, const Vec3& lo, const Vec3& hi) {
  std::uniform_real_distribution<double> u(0.0, 1.0);
  return lo + Vec3(u(rng), u(rng), u(rng)).cwiseProduct(hi - lo);
}

}  // namespace

TEST_CASE("distance field: trilinear lookup is exact for a linear field, with its gradient",
          "[collision]") {
  const Vec3 a(0.3, -1.2, 0.7);
  const double b = 0.05;
  const SignedDistanceField f = sample_distance_field(Vec3(-1, -0.5, 0), Vec3(1, 0.5, 0.8), 0.1,
                                                      [&](const Vec3& p) { return a.dot(p) + b; });
  std::mt19937_64 rng(7);
  for (int n = 0; n < 500; ++n) {
    const Vec3 p = random_in(rng, f.lo(), f.hi());
    CHECK(f.distance(p) == Approx(a.dot(p) + b).margin(1e-12));
    CHECK((f.gradient(p) - a).norm() < 1e-12);
  }
}

TEST_CASE(
    "distance field: a sampled sphere matches the exact distance; gradient = finite "
    "differences",
    "[collision]") {
  const double h = 0.02;
  const SphereDistance sphere(0.3);
  const SignedDistanceField f =
      sample_distance_field(Vec3::Constant(-0.5), Vec3::Constant(0.5), h,
                            [&](const Vec3& p) { return sphere.distance(p); });
  std::mt19937_64 rng(11);
  for (int n = 0; n < 300; ++n) {
    const Vec3 p = random_in(rng, Vec3::Constant(-0.45), Vec3::Constant(0.45));
    if (p.norm() < 0.1) continue;  // the centre's kink
    // trilinear error of a smooth function: h²/8 · |curvature| per axis
    CHECK(std::abs(f.distance(p) - sphere.distance(p)) < 3.0 * h * h / 8.0 / p.norm() + 1e-12);
    // central differences inside the point's cell (the interpolant is smooth there)
    const double e = 1e-7;
    Vec3 fd;
    for (int k = 0; k < 3; ++k) {
      const double t = (p[k] - f.lo()[k]) / h;
      const double frac = t - std::floor(t);
      if (frac < 1e-5 || frac > 1.0 - 1e-5) continue;
      Vec3 dp = Vec3::Zero();
      dp[k] = e;
      fd[k] = (f.distance(p + dp) - f.distance(p - dp)) / (2 * e);
      CHECK(f.gradient(p)[k] == Approx(fd[k]).margin(1e-6));
    }
    // and the interpolated gradient points along the sphere's normal
    CHECK(f.normal(p).dot(p.normalized()) > 0.95);
  }
}

TEST_CASE("distance field: the out-of-box bound is never above the true distance", "[collision]") {
  // the exact distance of a box is the brute-force distance to its surface
  const BoxDistance box(Vec3(0.2, 0.1, 0.3));
  const SignedDistanceField f =
      sample_distance_field(Vec3(-0.3, -0.15, -0.45), Vec3(0.3, 0.15, 0.45), 0.01,
                            [&](const Vec3& p) { return box.distance(p); });
  CHECK(f.boundary_minimum() ==
        Approx(0.05).margin(1e-12));  // the nearest face to the grid box: y, 0.15 − 0.1
  std::mt19937_64 rng(3);
  int outside = 0;
  for (int n = 0; n < 5000; ++n) {
    const Vec3 p = random_in(rng, Vec3::Constant(-3.0), Vec3::Constant(3.0));
    const bool in_box = (p.array() >= f.lo().array()).all() && (p.array() <= f.hi().array()).all();
    if (in_box) continue;
    ++outside;
    CHECK(f.distance(p) <= box.distance(p) + 1e-12);
    CHECK(f.distance(p) > 0.0);
  }
  CHECK(outside > 4000);
}

TEST_CASE(
    "distance field: lower_bound holds over random balls, inside, across and outside the "
    "box",
    "[collision]") {
  const SphereDistance sphere(0.25);
  const SignedDistanceField f =
      sample_distance_field(Vec3::Constant(-0.4), Vec3::Constant(0.4), 0.05,
                            [&](const Vec3& p) { return sphere.distance(p); });
  CHECK(f.lipschitz() >= 1.0);
  std::mt19937_64 rng(5);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int n = 0; n < 2000; ++n) {
    const Vec3 c = 0.8 * Vec3(u(rng), u(rng), u(rng));
    const double r = 0.3 * std::abs(u(rng));
    const double bound = f.lower_bound(c, f.distance(c), r);
    for (int m = 0; m < 20; ++m) {
      Vec3 dir(u(rng), u(rng), u(rng));
      if (dir.norm() < 1e-3) continue;
      const Vec3 q = c + r * std::abs(u(rng)) * dir.normalized();
      CHECK(f.distance(q) >= bound - 1e-12);
    }
  }
}

TEST_CASE("distance field: OpenVDB's field of a box mesh equals the box's exact distance",
          "[collision]") {
  const Vec3 h(0.05, 0.03, 0.02);
  const SignedDistanceField f = mesh_distance_field(box_mesh(-h, h), 0.004);
  const BoxDistance box(h);
  // every node (float storage in OpenVDB: ~1e-7 relative)
  double worst = 0.0;
  for (int k = 0; k < f.dims()[2]; ++k)
    for (int j = 0; j < f.dims()[1]; ++j)
      for (int i = 0; i < f.dims()[0]; ++i) {
        const Vec3 p = f.lo() + f.spacing() * Vec3(i, j, k);
        worst = std::max(worst, std::abs(f.node(i, j, k) - box.distance(p)));
      }
  CHECK(worst < 1e-6);
  // the box: the mesh's bounds grown by a tenth of the largest side and two voxels
  CHECK(f.hi().x() >= h.x() + 0.1 * 0.1 + 2 * 0.004 - 1e-9);
  CHECK_THROWS_AS(mesh_distance_field(box_mesh(-h, h), 0.0), Error);
  CHECK_THROWS_AS(mesh_distance_field(box_mesh(-h, h), 1e-5), Error);  // > 512 nodes per axis
}
