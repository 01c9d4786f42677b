// core/spatial.hpp against closed forms: cross products, the quaternion exp/log pair,
// integrate() against Rodrigues' formula, and the twist transforms against point velocities.
#include <catch2/catch.hpp>
#include <cmath>
#include <numbers>
#include <random>

#include "pivot/core/spatial.hpp"

using namespace pivot;

namespace {

struct Rng {
  std::mt19937 gen;
  explicit Rng(unsigned seed) : gen(seed) {}
  double uniform(double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(gen);
  }
  Vec3 vec(double h) { return {uniform(-h, h), uniform(-h, h), uniform(-h, h)}; }
  Vec3 unit() {
    std::normal_distribution<double> n;
    return Vec3(n(gen), n(gen), n(gen)).normalized();
  }
  Quat rotation() {
    std::normal_distribution<double> n;
    return Quat(n(gen), n(gen), n(gen), n(gen)).normalized();
  }
};

/// Rodrigues: R = I + sin θ [u] + (1 − cos θ) [u]², written out without skew()
Mat3 rodrigues(const Vec3& u, double theta) {
  Mat3 K;
  K << 0, -u.z(), u.y(), u.z(), 0, -u.x(), -u.y(), u.x(), 0;
  return Mat3::Identity() + std::sin(theta) * K + (1.0 - std::cos(theta)) * K * K;
}

/// same rotation: q1 = ±q2
double quat_distance(const Quat& q1, const Quat& q2) {
  return std::min((q1.coeffs() - q2.coeffs()).norm(), (q1.coeffs() + q2.coeffs()).norm());
}

}  // namespace

TEST_CASE("skew(a) x = a × x", "[engine][spatial]") {
  Rng rng(1);
  for (int i = 0; i < 20; ++i) {
    const Vec3 a = rng.vec(3.0), x = rng.vec(3.0);
    // a × x written out component-wise
    const Vec3 cross(a.y() * x.z() - a.z() * x.y(), a.z() * x.x() - a.x() * x.z(),
                     a.x() * x.y() - a.y() * x.x());
    CHECK((skew(a) * x - cross).norm() < 1e-14);
    CHECK((skew(a) + skew(a).transpose()).norm() == 0.0);  // antisymmetric
  }
}

TEST_CASE("quat_exp matches the closed form (u sin θ/2, cos θ/2)", "[engine][spatial]") {
  Rng rng(2);
  for (double theta : {0.0, 1e-12, 1e-9, 1e-7, 1e-4, 0.3, 1.0, 2.5, std::numbers::pi - 1e-3,
                       std::numbers::pi - 1e-8, std::numbers::pi, 4.0, 6.0}) {
    INFO("theta " << theta);
    const Vec3 u = rng.unit();
    const Quat q = quat_exp(theta * u);
    CHECK(q.w() == Approx(std::cos(theta / 2)).margin(1e-15));
    CHECK((q.vec() - std::sin(theta / 2) * u).norm() < 1e-15);
    CHECK(q.norm() == Approx(1.0).margin(1e-15));
  }
}

TEST_CASE("quat_log inverts quat_exp for |φ| < π, near 0 and near π", "[engine][spatial]") {
  Rng rng(3);
  for (double theta : {0.0, 1e-15, 1e-12, 1e-9, 1e-8, 2e-8, 1e-7, 1e-4, 0.5, 1.0, 2.0, 3.0,
                       std::numbers::pi - 1e-3, std::numbers::pi - 1e-6}) {
    INFO("theta " << theta);
    for (int i = 0; i < 5; ++i) {
      const Vec3 phi = theta * rng.unit();
      // relative accuracy ~1e-15: atan2(|vec|, w) stays well conditioned near π (w → 0)
      CHECK((quat_log(quat_exp(phi)) - phi).norm() <= 1e-15 + 1e-15 * theta);
    }
  }
  // exactly π: the angle is π about ±u
  const Vec3 u = Vec3(1, 2, 2) / 3.0;
  const Quat half_turn(0.0, u.x(), u.y(), u.z());
  const Vec3 phi = quat_log(half_turn);
  CHECK(phi.norm() == Approx(std::numbers::pi).margin(1e-15));
  CHECK(std::abs(phi.normalized().dot(u)) == Approx(1.0).margin(1e-15));
}

TEST_CASE("quat_log: q and -q give the same φ, and exp(log(q)) = ±q", "[engine][spatial]") {
  Rng rng(4);
  for (int i = 0; i < 50; ++i) {
    const Quat q = rng.rotation();
    Quat neg = q;
    neg.coeffs() = -neg.coeffs();
    const Vec3 phi = quat_log(q);
    CHECK((phi - quat_log(neg)).norm() < 1e-14);
    CHECK(phi.norm() <= std::numbers::pi + 1e-15);
    CHECK(quat_distance(quat_exp(phi), q) < 1e-14);
    // closed form of the angle: 2 atan2(|vec|, |w|)
    CHECK(phi.norm() == Approx(2.0 * std::atan2(q.vec().norm(), std::abs(q.w()))).margin(1e-14));
  }
}

TEST_CASE("integrate applies the world-frame rotation exp(δθ) on the left", "[engine][spatial]") {
  Rng rng(5);
  for (int i = 0; i < 20; ++i) {
    const Pose p{rng.vec(2.0), rng.rotation()};
    const Vec3 u = rng.unit(), dx = rng.vec(1.0);
    const double theta = rng.uniform(-3.0, 3.0);
    Vec6 d;
    d << theta * u, dx;
    const Pose out = integrate(p, d);
    CHECK((out.p_WB - (p.p_WB + dx)).norm() < 1e-14);
    const Mat3 expected = rodrigues(u, theta) * p.q_WB.toRotationMatrix();
    CHECK((out.q_WB.toRotationMatrix() - expected).norm() < 1e-13);
    CHECK(out.q_WB.norm() == Approx(1.0).margin(1e-15));
  }
}

TEST_CASE("integrate: small steps follow q̇ = ½ ω q (Cline eq. 2.9)", "[engine][spatial]") {
  Rng rng(6);
  const Pose p{rng.vec(1.0), rng.rotation()};
  const Vec3 omega = rng.vec(2.0);
  const double h = 1e-6;
  Vec6 d;
  d << h * omega, Vec3::Zero();
  const Quat q1 = integrate(p, d).q_WB;
  const Quat w(0.0, omega.x(), omega.y(), omega.z());
  const Eigen::Vector4d qdot = 0.5 * (w * p.q_WB).coeffs();
  CHECK(((q1.coeffs() - p.q_WB.coeffs()) / h - qdot).norm() < 1e-5);
}

TEST_CASE("shift_twist gives the velocity of an offset point", "[engine][spatial]") {
  Rng rng(7);
  for (int i = 0; i < 20; ++i) {
    const Vec3 omega = rng.vec(2.0), v = rng.vec(2.0), r = rng.vec(2.0);
    Vec6 twist;
    twist << omega, v;
    const Vec6 shifted = shift_twist(r) * twist;
    CHECK((shifted.head<3>() - omega).norm() < 1e-14);
    CHECK((shifted.tail<3>() - (v + omega.cross(r))).norm() < 1e-14);  // Cline eq. 2.8
  }
}

TEST_CASE("adjoint maps twists between frames consistently with point velocities",
          "[engine][spatial]") {
  // frame a → frame b: y_b = R y_a + p. A twist (ω_a; v_a) in frame a moves the point with
  // coordinates y_a at ẏ_a = v_a + ω_a × y_a; the same point in frame b moves at R ẏ_a, which
  // must equal v_b + ω_b × y_b for (ω_b; v_b) = Ad (ω_a; v_a) (Cline eq. 2.23–2.24).
  Rng rng(8);
  for (int i = 0; i < 20; ++i) {
    const Mat3 R = rng.rotation().toRotationMatrix();
    const Vec3 p = rng.vec(2.0);
    Vec6 twist_a;
    twist_a << rng.vec(2.0), rng.vec(2.0);
    const Vec6 twist_b = adjoint(R, p) * twist_a;
    for (int k = 0; k < 5; ++k) {
      const Vec3 y_a = rng.vec(3.0);
      const Vec3 y_b = R * y_a + p;
      const Vec3 ydot_a = twist_a.tail<3>() + twist_a.head<3>().cross(y_a);
      const Vec3 ydot_b = twist_b.tail<3>() + twist_b.head<3>().cross(y_b);
      CHECK((R * ydot_a - ydot_b).norm() < 1e-13);
    }
  }
  // with R = I the adjoint is a pure shift: Ad(I, p) = shift_twist(−p)
  const Vec3 p = rng.vec(1.0);
  CHECK((adjoint(Mat3::Identity(), p) - shift_twist(-p)).norm() < 1e-15);
}

TEST_CASE("unit_to_rounding keeps unit vectors bit for bit and normalizes the others",
          "[engine][spatial]") {
  // 1/√2 in two roundings: [1, 0, 1] normalized is 0.7071067811865475 in x and z, and
  // normalizing that again moves the last bit (to 0.7071067811865476); the helper must not
  const Vec3 once = Vec3(1, 0, 1).normalized();
  CHECK(unit_to_rounding(once) == once);
  CHECK(unit_to_rounding(Vec3(1, 0, 1)) == once);
  CHECK(unit_to_rounding(Vec3(0, 3, 4)) == Vec3(0, 0.6, 0.8));
  const Eigen::Vector2d half(0.6, -0.8);
  CHECK(unit_to_rounding(half) == half);
  CHECK(unit_to_rounding(Eigen::Vector2d(3, -4)).isApprox(half, 1e-15));
  // a quaternion 1e-4 off unit length is normalized, one unit to rounding kept
  const Quat q(1.0001, 0, 0, 0);
  CHECK(unit_to_rounding(q).coeffs() == Quat::Identity().coeffs());
  const Quat r = Quat(0.5, 0.5, 0.5, 0.5000000000000001);
  CHECK(unit_to_rounding(r).coeffs() == r.coeffs());
}
