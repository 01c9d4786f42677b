// free_flight (engine/hybrid/free_flight.hpp), the motion of a pair's bodies after the
// separation instant. Ground truth: the parabola of constant acceleration, constant torque about
// a principal axis from rest, and the torque-free axisymmetric body (Euler's equations solved in
// closed form; the world angular momentum constant).
#include <catch2/catch.hpp>
#include <cmath>
#include <stdexcept>

#include "pivot/engine/hybrid/free_flight.hpp"

using namespace pivot;
using namespace pivot::detail;

TEST_CASE("free flight: the centre of mass on a parabola, a constant torque from rest",
          "[engine][hybrid]") {
  FreeBodyState s;
  s.X_WB.p_WB = Vec3(0.1, -0.2, 0.3);
  s.V_W.tail<3>() = Vec3(0.5, 0.25, 1.0);
  const Mat3 I = Vec3(0.2, 0.3, 0.4).asDiagonal();
  Vec6 wrench;
  wrench << 0.0, 0.0, 0.8, 0.0, 0.0, -2.0 * 9.81;  // torque about z; gravity on 2 kg
  const double t = 0.0137;
  const FreeBodyState e = free_flight(s, 2.0, I, wrench, t);
  const Vec3 a(0.0, 0.0, -9.81);
  // (1e-14: a few roundings of a 0.4 m position over the substeps, whatever the compiler)
  CHECK((e.X_WB.p_WB - (s.X_WB.p_WB + t * s.V_W.tail<3>() + 0.5 * t * t * a)).norm() < 1e-14);
  CHECK((e.V_W.tail<3>() - (s.V_W.tail<3>() + t * a)).norm() < 1e-14);
  // about the z axis: ω = (τ/I_z) t, angle ½ (τ/I_z) t²
  CHECK((e.V_W.head<3>() - Vec3(0.0, 0.0, 2.0 * t)).norm() < 1e-14);
  const Quat q_expected(Eigen::AngleAxisd(t * t, Vec3::UnitZ()));
  CHECK(e.X_WB.q_WB.angularDistance(q_expected) < 1e-13);
  // zero time: unchanged
  const FreeBodyState z = free_flight(s, 2.0, I, wrench, 0.0);
  CHECK(z.X_WB.p_WB == s.X_WB.p_WB);
  CHECK(z.V_W == s.V_W);
}

TEST_CASE("free flight: a torque-free axisymmetric body precesses as Euler's equations say",
          "[engine][hybrid]") {
  // I = diag(A, A, C): ω1 = ω1⁰ cos λt + ω2⁰ sin λt, ω2 = ω2⁰ cos λt − ω1⁰ sin λt, ω3 constant,
  // λ = (A − C) ω3 / A (body axes); L_W = R I ω_B constant
  const double A = 0.3, C = 0.1, t = 0.25;
  const Mat3 I = Vec3(A, A, C).asDiagonal();
  FreeBodyState s;
  s.X_WB.q_WB = Quat(Eigen::AngleAxisd(0.4, Vec3(1.0, 2.0, 3.0).normalized()));
  const Vec3 w0_B(0.7, -0.3, 5.0);
  s.V_W.head<3>() = s.X_WB.q_WB * w0_B;
  const FreeBodyState e = free_flight(s, 1.0, I, Vec6::Zero(), t);
  const double lam = (A - C) * w0_B.z() / A;
  const Vec3 w_B(w0_B.x() * std::cos(lam * t) + w0_B.y() * std::sin(lam * t),
                 w0_B.y() * std::cos(lam * t) - w0_B.x() * std::sin(lam * t), w0_B.z());
  CHECK((e.X_WB.q_WB.conjugate() * e.V_W.head<3>() - w_B).norm() < 1e-9);
  const Vec3 L0 = s.X_WB.q_WB * (I * w0_B);
  const Vec3 L1 = e.X_WB.q_WB * (I * (e.X_WB.q_WB.conjugate() * e.V_W.head<3>()));
  CHECK((L1 - L0).norm() < 1e-9 * L0.norm());
  // the orientation itself (the check above sees q only through ω_W = q ω_B): with
  // I = A·1 + (C − A) e₃e₃ᵀ, ω_W = L/A + (1/C − 1/A)(L·n) n = (|L|/A) L̂ + λ n, n = R e₃, so
  // R(t) = Rot(L̂, |L| t / A) R₀ Rot(e₃, λ t) (Ṙ = [(|L|/A) L̂ ×] R + R [λ e₃ ×])
  const Quat q_expected = Quat(Eigen::AngleAxisd(L0.norm() * t / A, L0.normalized())) *
                          s.X_WB.q_WB * Quat(Eigen::AngleAxisd(lam * t, Vec3::UnitZ()));
  CHECK(e.X_WB.q_WB.angularDistance(q_expected) < 1e-9);
  CHECK(e.X_WB.p_WB.norm() == 0.0);  // no force, at rest
}

TEST_CASE("free flight: bad input is an error", "[engine][hybrid]") {
  const FreeBodyState s;
  const Mat3 I = Mat3::Identity();
  CHECK_THROWS_AS(free_flight(s, 1.0, I, Vec6::Zero(), -1e-3), std::invalid_argument);
  CHECK_THROWS_AS(free_flight(s, 1.0, I, Vec6::Zero(), std::nan("")), std::invalid_argument);
  CHECK_THROWS_AS(free_flight(s, 0.0, I, Vec6::Zero(), 1e-3), std::invalid_argument);
  CHECK_THROWS_AS(free_flight(s, 1.0, Mat3::Zero(), Vec6::Zero(), 1e-3), std::invalid_argument);
  // 1e5 rad/s for 10 ms: 1000 rad of turn, more than 10⁴ substeps
  FreeBodyState fast;
  fast.V_W.head<3>() = Vec3(0.0, 0.0, 1e5);
  CHECK_THROWS_AS(free_flight(fast, 1.0, I, Vec6::Zero(), 1e-2), std::invalid_argument);
  CHECK_NOTHROW(free_flight(fast, 1.0, I, Vec6::Zero(), 1e-4));  // 10 rad: 1000 substeps
}
