// Contact rows: the equations are in contact_rows.hpp.
#include "pivot/constraints/contact_rows.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pivot {

Row6 contact_jacobian_row(const Vec3& r, const Vec3& d, double sign) {
  Row6 J;
  J.head<3>() = sign * r.cross(d).transpose();
  J.tail<3>() = sign * d.transpose();
  return J;
}

ContactRow contact_row(const Vec3& p_A, const Vec3& x_A, const Vec3& p_B, const Vec3& x_B,
                       const Vec3& d) {
  const Vec3 r_A = p_A - x_A, r_B = p_B - x_B;
  return {contact_jacobian_row(r_A, d, 1.0), contact_jacobian_row(r_B, d, -1.0)};
}

std::vector<Vec3> friction_directions(const Vec3& n, int k, double offset, const Vec3& fallback) {
  std::vector<Vec3> dirs;
  friction_directions(n, k, offset, fallback, dirs);
  return dirs;
}

void friction_directions(const Vec3& n, int k, double offset, const Vec3& fallback,
                         std::vector<Vec3>& dirs) {
  Vec3 t1 = Vec3::UnitX() - n.x() * n;
  if (t1.norm() < 1e-6) t1 = fallback - n.dot(fallback) * n;
  t1.normalize();
  const Vec3 t2 = n.cross(t1);
  dirs.resize(static_cast<std::size_t>(k));
  for (int j = 0; j < k; ++j) {
    const double angle = offset + 2.0 * EIGEN_PI * j / k;
    dirs[j] = std::cos(angle) * t1 + std::sin(angle) * t2;
  }
}

double contact_velocity_bias(double gap, double normal_velocity, const ContactBiasSettings& s) {
  const double vn = normal_velocity, h = s.time_step;
  if (s.restitution > 0.0 && vn < -s.restitution_threshold && -vn * h >= gap)
    return s.restitution * vn;
  if (s.baumgarte && gap < 0.0) return s.baumgarte_alpha * gap;
  return std::max(gap, 0.0) / h;
}

double contact_gap_roundoff(double scale) {
  const double s = std::isfinite(scale) ? std::max(1.0, std::abs(scale)) : 1.0;
  return kContactGapUlps * std::numeric_limits<double>::epsilon() * s;
}

double contact_position_bias(double gap, const Vec3& p_WCa, const Vec3& p_WCb) {
  const double scale = std::max(p_WCa.lpNorm<Eigen::Infinity>(), p_WCb.lpNorm<Eigen::Infinity>());
  // a gap within rounding of zero (touching faces computed as −3e-17 m) is touching: left
  // negative it would ask the post-step LCP to resolve noise 14 orders below its other
  // entries, which no floating-point pivoting can do reliably. The level is that of the
  // coordinates the gap was computed from, not a fixed length: a fixed 1e-12 m let a resting
  // 20-cube stack sink by rounding (~1e-15 m a step) for two seconds and then corrected the whole
  // 1e-12 m at once, and each such correction set off a burst of slips and pivots
  // (docs/benchmarks.md).
  return gap > -contact_gap_roundoff(scale) ? std::max(gap, 0.0) : gap;
}

}  // namespace pivot
