// Free flight under a constant wrench (free_flight.hpp): RK4 on the Newton-Euler equations.
#include "pivot/engine/hybrid/free_flight.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pivot::detail {

namespace {

// y = (p (3), q coefficients x y z w (4), v (3), ω_B (3))
using Vec13 = Eigen::Matrix<double, 13, 1>;

struct Rates {
  double mass;
  Mat3 I_B, I_B_inv;
  Vec3 torque_W, force_W;

  // ṗ = v, q̇ = ½ q ⊗ (0, ω_B), v̇ = f/m, ω̇_B = I_B⁻¹ (Rᵀ τ − ω_B × I_B ω_B)
  [[nodiscard]] Vec13 operator()(const Vec13& y) const {
    Quat q;
    q.coeffs() = y.segment<4>(3);
    q.normalize();
    const Vec3 w = y.segment<3>(10);
    Vec13 dy;
    dy.head<3>() = y.segment<3>(7);
    const Vec3 qv = q.vec();
    dy.segment<3>(3) = 0.5 * (q.w() * w + qv.cross(w));
    dy[6] = -0.5 * qv.dot(w);
    dy.segment<3>(7) = force_W / mass;
    dy.segment<3>(10) = I_B_inv * (q.conjugate() * torque_W - w.cross(I_B * w));
    return dy;
  }
};

}  // namespace

FreeBodyState free_flight(const FreeBodyState& start, double mass, const Mat3& inertia_B,
                          const Vec6& wrench_W, double tau) {
  if (!std::isfinite(tau) || tau < 0.0)
    throw std::invalid_argument("free_flight: the time must be finite and >= 0");
  if (!(mass > 0.0) || !std::isfinite(mass))
    throw std::invalid_argument("free_flight: the mass must be finite and > 0");
  const Eigen::FullPivLU<Mat3> lu(inertia_B);
  if (!inertia_B.allFinite() || !lu.isInvertible())
    throw std::invalid_argument("free_flight: the inertia must be finite and invertible");
  if (tau == 0.0) return start;
  const Rates f{mass, inertia_B, lu.inverse(), wrench_W.head<3>(), wrench_W.tail<3>()};
  Vec13 y;
  y.head<3>() = start.X_WB.p_WB;
  y.segment<4>(3) = start.X_WB.q_WB.normalized().coeffs();
  y.segment<3>(7) = start.V_W.tail<3>();
  y.segment<3>(10) = start.X_WB.q_WB.conjugate() * start.V_W.head<3>();
  // substeps of at most 1 ms and a hundredth of a radian of turn at the start's rate
  const double w = start.V_W.head<3>().norm();
  const double dt_max = std::min(1e-3, w > 0.0 ? 0.01 / w : 1e-3);
  // more than 10⁴ substeps (|ω| τ > 100 rad): refused rather than integrated with too long
  // substeps (the caller hands the step to the LCP)
  const double substeps = std::ceil(tau / dt_max);
  if (!(substeps <= 10000.0))
    throw std::invalid_argument("free_flight: the body turns more than 100 rad in the flight");
  const int n = std::max(1, static_cast<int>(substeps));
  const double dt = tau / n;
  for (int k = 0; k < n; ++k) {
    const Vec13 k1 = f(y);
    const Vec13 k2 = f(y + 0.5 * dt * k1);
    const Vec13 k3 = f(y + 0.5 * dt * k2);
    const Vec13 k4 = f(y + dt * k3);
    y += (dt / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
    y.segment<4>(3).normalize();
  }
  FreeBodyState out;
  out.X_WB.p_WB = y.head<3>();
  out.X_WB.q_WB.coeffs() = y.segment<4>(3);
  out.X_WB.q_WB.normalize();
  out.V_W.head<3>() = out.X_WB.q_WB * Vec3(y.segment<3>(10));
  out.V_W.tail<3>() = y.segment<3>(7);
  return out;
}

}  // namespace pivot::detail
