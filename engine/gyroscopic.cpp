#include "pivot/engine/gyroscopic.hpp"

#include <Eigen/LU>
#include <cmath>
#include <limits>

namespace pivot::detail {

bool gyroscopic_midpoint(const Mat3& I_B, const Vec3& omega_B, double h, Vec3& omega_plus_B) {
  return gyroscopic_midpoint(I_B, I_B.inverse(), omega_B, h, omega_plus_B);
}

bool gyroscopic_midpoint(const Mat3& I_B, const Mat3& I_inv, const Vec3& omega_B, double h,
                         Vec3& omega_plus_B) {
  const Vec3 Pi = I_B * omega_B;
  const double scale = Pi.norm();
  if (!(scale > 0.0)) {
    omega_plus_B = omega_B;
    return true;
  }
  constexpr double eps = std::numeric_limits<double>::epsilon();
  Vec3 P = Pi;  // Π⁺, starting from Π
  for (int iteration = 0; iteration < 30; ++iteration) {
    const Vec3 Pm = 0.5 * (Pi + P);
    const Vec3 wm = I_inv * Pm;
    const Vec3 F = P - Pi - h * Pm.cross(wm);
    const Mat3 J = Mat3::Identity() - 0.5 * h * (skew(Pm) * I_inv - skew(wm));
    // J = 1 + O(h|ω|) is far from singular where Newton converges: its inverse by cofactors
    // (Eigen's fixed-size 3 × 3 inverse) is as accurate as a pivoted LU and cheaper
    const Vec3 step = J.inverse() * F;
    if (!step.allFinite()) return false;
    P -= step;
    if (step.norm() <= 4.0 * eps * scale) {
      omega_plus_B = I_inv * P;
      return true;
    }
  }
  return false;
}

}  // namespace pivot::detail
