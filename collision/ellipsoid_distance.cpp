// The exact signed distance of an ellipsoid: see ellipsoid_distance.hpp (Eberly 2013).
#include "pivot/collision/ellipsoid_distance.hpp"

#include <algorithm>
#include <array>
#include <cmath>

namespace pivot::detail {

namespace {

/// the most bisection steps (doubles have 1075 binary exponents below 1; the bracket halves)
constexpr int kMaxBisections = 1100;

double robust_length(double a, double b) {
  return std::hypot(a, b);
}
double robust_length(double a, double b, double c) {
  return std::hypot(a, b, c);
}

// the root s̄ of G(s) = (r₀ z₀/(s + r₀))² + (z₁/(s + 1))² − 1 (Eberly's GetRoot, 2-D),
// bracketed by [z₁ − 1, 0] (inside, g < 0) or [0, |(r₀z₀, z₁)| − 1] (outside)
double root_2d(double r0, double z0, double z1, double g) {
  const double n0 = r0 * z0;
  double s0 = z1 - 1.0, s1 = g < 0.0 ? 0.0 : robust_length(n0, z1) - 1.0, s = 0.0;
  for (int i = 0; i < kMaxBisections; ++i) {
    s = 0.5 * (s0 + s1);
    if (s == s0 || s == s1) break;
    const double a = n0 / (s + r0), b = z1 / (s + 1.0);
    const double G = a * a + b * b - 1.0;
    if (G > 0.0)
      s0 = s;
    else if (G < 0.0)
      s1 = s;
    else
      break;
  }
  return s;
}

// the same in 3-D: G(s) = (r₀z₀/(s + r₀))² + (r₁z₁/(s + r₁))² + (z₂/(s + 1))² − 1
double root_3d(double r0, double r1, double z0, double z1, double z2, double g) {
  const double n0 = r0 * z0, n1 = r1 * z1;
  double s0 = z2 - 1.0, s1 = g < 0.0 ? 0.0 : robust_length(n0, n1, z2) - 1.0, s = 0.0;
  for (int i = 0; i < kMaxBisections; ++i) {
    s = 0.5 * (s0 + s1);
    if (s == s0 || s == s1) break;
    const double a = n0 / (s + r0), b = n1 / (s + r1), c = z2 / (s + 1.0);
    const double G = a * a + b * b + c * c - 1.0;
    if (G > 0.0)
      s0 = s;
    else if (G < 0.0)
      s1 = s;
    else
      break;
  }
  return s;
}

// the ellipse x²/e0² + y²/e1² = 1 with e0 ≥ e1 > 0 and y0, y1 ≥ 0: the closest point x
// (Eberly's DistancePointEllipse); returns the unsigned distance
double ellipse_closest(double e0, double e1, double y0, double y1, double& x0, double& x1) {
  if (y1 > 0.0) {
    if (y0 > 0.0) {
      const double z0 = y0 / e0, z1 = y1 / e1, g = z0 * z0 + z1 * z1 - 1.0;
      if (g != 0.0) {
        const double r0 = (e0 / e1) * (e0 / e1);
        const double s = root_2d(r0, z0, z1, g);
        x0 = r0 * y0 / (s + r0);
        x1 = y1 / (s + 1.0);
        return std::hypot(x0 - y0, x1 - y1);
      }
      x0 = y0;
      x1 = y1;
      return 0.0;
    }
    x0 = 0.0;
    x1 = e1;
    return std::abs(y1 - e1);
  }
  // y1 = 0: inside the evolute's reach the closest point leaves the axis (a double root)
  const double numer0 = e0 * y0, denom0 = e0 * e0 - e1 * e1;
  if (numer0 < denom0) {
    const double xde0 = numer0 / denom0;
    x0 = e0 * xde0;
    x1 = e1 * std::sqrt(std::max(0.0, 1.0 - xde0 * xde0));
    return std::hypot(x0 - y0, x1);
  }
  x0 = e0;
  x1 = 0.0;
  return std::abs(y0 - e0);
}

// the ellipsoid with e0 ≥ e1 ≥ e2 > 0 and y ≥ 0 componentwise (Eberly's
// DistancePointEllipsoid): the closest point x; returns the unsigned distance
double ellipsoid_closest_sorted(const std::array<double, 3>& e, const std::array<double, 3>& y,
                                std::array<double, 3>& x) {
  if (y[2] > 0.0) {
    if (y[1] > 0.0) {
      if (y[0] > 0.0) {
        const double z0 = y[0] / e[0], z1 = y[1] / e[1], z2 = y[2] / e[2];
        const double g = z0 * z0 + z1 * z1 + z2 * z2 - 1.0;
        if (g != 0.0) {
          const double r0 = (e[0] / e[2]) * (e[0] / e[2]), r1 = (e[1] / e[2]) * (e[1] / e[2]);
          const double s = root_3d(r0, r1, z0, z1, z2, g);
          x = {r0 * y[0] / (s + r0), r1 * y[1] / (s + r1), y[2] / (s + 1.0)};
          return std::hypot(x[0] - y[0], x[1] - y[1], x[2] - y[2]);
        }
        x = y;
        return 0.0;
      }
      x[0] = 0.0;
      return ellipse_closest(e[1], e[2], y[1], y[2], x[1], x[2]);
    }
    if (y[0] > 0.0) {
      x[1] = 0.0;
      return ellipse_closest(e[0], e[2], y[0], y[2], x[0], x[2]);
    }
    x = {0.0, 0.0, e[2]};
    return std::abs(y[2] - e[2]);
  }
  // y2 = 0
  const double denom0 = e[0] * e[0] - e[2] * e[2], denom1 = e[1] * e[1] - e[2] * e[2];
  const double numer0 = e[0] * y[0], numer1 = e[1] * y[1];
  if (numer0 < denom0 && numer1 < denom1) {
    const double xde0 = numer0 / denom0, xde1 = numer1 / denom1;
    const double discr = 1.0 - xde0 * xde0 - xde1 * xde1;
    if (discr > 0.0) {
      x = {e[0] * xde0, e[1] * xde1, e[2] * std::sqrt(discr)};
      return std::hypot(x[0] - y[0], x[1] - y[1], x[2]);
    }
  }
  x[2] = 0.0;
  return ellipse_closest(e[0], e[1], y[0], y[1], x[0], x[1]);
}

}  // namespace

EllipsoidClosest ellipsoid_closest(const Vec3& radii, const Vec3& p) {
  // sort the axes by decreasing semi-axis and reflect into the first octant
  std::array<int, 3> axis{0, 1, 2};
  std::stable_sort(axis.begin(), axis.end(), [&](int a, int b) { return radii[a] > radii[b]; });
  std::array<double, 3> e{}, y{}, x{};
  for (int i = 0; i < 3; ++i) {
    e[static_cast<std::size_t>(i)] = radii[axis[static_cast<std::size_t>(i)]];
    y[static_cast<std::size_t>(i)] = std::abs(p[axis[static_cast<std::size_t>(i)]]);
  }
  const double d = ellipsoid_closest_sorted(e, y, x);
  EllipsoidClosest out;
  for (int i = 0; i < 3; ++i) {
    const int a = axis[static_cast<std::size_t>(i)];
    out.point[a] = std::copysign(x[static_cast<std::size_t>(i)], p[a]);
  }
  const double level = (p.array() / radii.array()).square().sum();
  out.distance = level < 1.0 ? -d : d;
  return out;
}

Vec3 EllipsoidDistance::normal(const Vec3& p) const {
  const Vec3 x = ellipsoid_closest(e_, p).point;
  const Vec3 g = (x.array() / (e_.array() * e_.array())).matrix();
  const double n = g.norm();
  return n > 0.0 ? Vec3(g / n) : Vec3(Vec3::UnitZ());
}

}  // namespace pivot::detail
