// The midpoint gyroscopic step (engine/gyroscopic.hpp) against Euler's equations integrated
// independently (classical RK4 at a 100x smaller step) and against its invariants.
#include <catch2/catch.hpp>
#include <cmath>

#include "pivot/engine/gyroscopic.hpp"

// the internal components under test
using namespace pivot::detail;  // NOLINT(google-build-using-namespace)

using namespace pivot;

namespace {
// a full (non-diagonal) symmetric positive definite inertia
Mat3 inertia() {
  Mat3 A;
  A << 2.0, 0.3, -0.1, 0.3, 1.0, 0.2, -0.1, 0.2, 3.0;
  return A;
}
// Euler's equations, body frame: I ω̇ = (I ω) × ω
Vec3 rate(const Mat3& I, const Vec3& w) {
  return I.inverse() * (I * w).cross(w);
}
Vec3 rk4(const Mat3& I, Vec3 w, double h, int steps) {
  for (int k = 0; k < steps; ++k) {
    const Vec3 k1 = rate(I, w), k2 = rate(I, w + 0.5 * h * k1), k3 = rate(I, w + 0.5 * h * k2),
               k4 = rate(I, w + h * k3);
    w += h / 6.0 * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  }
  return w;
}
Vec3 midpoint(const Mat3& I, Vec3 w, double h, int steps) {
  for (int k = 0; k < steps; ++k) {
    Vec3 next;
    REQUIRE(gyroscopic_midpoint(I, w, h, next));
    w = next;
  }
  return w;
}
}  // namespace

TEST_CASE("gyroscopic midpoint step keeps energy and |I w| to rounding", "[gyroscopic]") {
  const Mat3 I = inertia();
  const Vec3 w(0.3, 5.0, -0.7);
  const double E0 = 0.5 * w.dot(I * w), L0 = (I * w).norm();
  Vec3 x = w;
  for (int k = 0; k < 1000; ++k) {
    Vec3 next;
    REQUIRE(gyroscopic_midpoint(I, x, 0.01, next));
    x = next;
  }
  CHECK(std::abs(0.5 * x.dot(I * x) - E0) / E0 < 1e-12);
  CHECK(std::abs((I * x).norm() - L0) / L0 < 1e-12);
}

TEST_CASE("gyroscopic midpoint step converges at second order to Euler's equations",
          "[gyroscopic]") {
  const Mat3 I = inertia();
  const Vec3 w(0.3, 5.0, -0.7);
  const double T = 1.0;
  const Vec3 reference = rk4(I, w, 1e-5, 100000);
  const double e1 = (midpoint(I, w, 2e-3, 500) - reference).norm();
  const double e2 = (midpoint(I, w, 1e-3, 1000) - reference).norm();
  INFO("error at h = 2 ms: " << e1 << ", at 1 ms: " << e2 << " (T = " << T << " s)");
  CHECK(e2 < 1e-3 * w.norm());
  CHECK(e1 / e2 == Approx(4.0).epsilon(0.1));  // halving h divides the error by 4
}

TEST_CASE("gyroscopic midpoint step: no spin, and a step far too large", "[gyroscopic]") {
  const Mat3 I = inertia();
  Vec3 out(1, 2, 3);
  REQUIRE(gyroscopic_midpoint(I, Vec3::Zero(), 0.01, out));
  CHECK(out == Vec3::Zero());
  // h|ω| = 1e4: either converged (then finite and conserving) or reported as not converged
  Vec3 big = Vec3(0.3, 5.0, -0.7) * 1e3, res = Vec3::Constant(7.0);
  if (gyroscopic_midpoint(I, big, 10.0, res)) {
    CHECK(res.allFinite());
    CHECK(std::abs(res.dot(I * res) - big.dot(I * big)) / big.dot(I * big) < 1e-8);
  } else {
    CHECK(res == Vec3::Constant(7.0));  // untouched
  }
}
