#include "pivot/collision/signed_distance_field.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/core.h>

#include "pivot/core/error.hpp"

namespace pivot::detail {

SignedDistanceField::SignedDistanceField(const Vec3& lo, double spacing,
                                         const std::array<int, 3>& dims,
                                         std::vector<double> values)
    : lo_(lo), h_(spacing), n_(dims), values_(std::move(values)) {
  if (!(spacing > 0.0) || !std::isfinite(spacing) || !lo.allFinite())
    throw Error(fmt::format("distance field: spacing must be positive and finite (got {})", spacing));
  for (const int n : n_)
    if (n < 2) throw Error(fmt::format("distance field: needs at least 2 nodes per axis (got {})", n));
  const std::size_t count = static_cast<std::size_t>(n_[0]) * static_cast<std::size_t>(n_[1]) *
                            static_cast<std::size_t>(n_[2]);
  if (values_.size() != count)
    throw Error(fmt::format("distance field: expected {} values (got {})", count, values_.size()));
  for (const double v : values_)
    if (!std::isfinite(v)) throw Error("distance field: a node value is not finite");

  // d_boundary: the least value on the box surface. Trilinear interpolation on a face is a
  // convex combination of its nodes, so the least node value bounds the face from below.
  d_boundary_ = std::numeric_limits<double>::infinity();
  for (int k = 0; k < n_[2]; ++k)
    for (int j = 0; j < n_[1]; ++j)
      for (int i = 0; i < n_[0]; ++i) {
        const bool on_surface = i == 0 || j == 0 || k == 0 || i == n_[0] - 1 ||
                                j == n_[1] - 1 || k == n_[2] - 1;
        if (on_surface) d_boundary_ = std::min(d_boundary_, node(i, j, k));
      }

  // Lipschitz constant of the trilinear interpolant: in a cell, ∂d/∂x is the bilinear blend of
  // the four x-edge differences divided by h, so |∂d/∂x| ≤ max |Δ_x| / h, and likewise for y
  // and z; |∇d| ≤ sqrt(Σ_axis (max |Δ_axis| / h)²). Outside the box d_box + d_boundary has
  // |∇| = 1, and the bound ≥ 1 keeps the two pieces consistent (the traversal's proof in
  // point_tree_traversal.cpp).
  double worst = 1.0;
  for (int k = 0; k + 1 < n_[2]; ++k)
    for (int j = 0; j + 1 < n_[1]; ++j)
      for (int i = 0; i + 1 < n_[0]; ++i) {
        double g2 = 0.0;
        for (int axis = 0; axis < 3; ++axis) {
          double m = 0.0;
          for (int a = 0; a < 2; ++a)
            for (int b = 0; b < 2; ++b) {
              std::array<int, 3> p0{i, j, k};
              const int u = (axis + 1) % 3, v = (axis + 2) % 3;
              p0[static_cast<std::size_t>(u)] += a;
              p0[static_cast<std::size_t>(v)] += b;
              std::array<int, 3> p1 = p0;
              p1[static_cast<std::size_t>(axis)] += 1;
              m = std::max(m, std::abs(node(p1[0], p1[1], p1[2]) - node(p0[0], p0[1], p0[2])));
            }
          g2 += (m / h_) * (m / h_);
        }
        worst = std::max(worst, std::sqrt(g2));
      }
  lipschitz_ = worst;
}

Vec3 SignedDistanceField::hi() const {
  return lo_ + h_ * Vec3(n_[0] - 1, n_[1] - 1, n_[2] - 1);
}

namespace {

/// the cell of x along one axis and the fraction in it, for a point inside the box
void locate(double x, double lo, double h, int n, int& cell, double& t) {
  const double u = (x - lo) / h;
  cell = std::clamp(static_cast<int>(std::floor(u)), 0, n - 2);
  t = u - cell;
}

}  // namespace

double SignedDistanceField::distance(const Vec3& p) const {
  const Vec3 top = hi();
  const Vec3 clamped = p.cwiseMax(lo_).cwiseMin(top);
  // outside: the conservative bound of Barbič 2007, §3.11
  if (clamped != p) return (p - clamped).norm() + d_boundary_;
  int i, j, k;
  double tx, ty, tz;
  locate(p.x(), lo_.x(), h_, n_[0], i, tx);
  locate(p.y(), lo_.y(), h_, n_[1], j, ty);
  locate(p.z(), lo_.z(), h_, n_[2], k, tz);
  // trilinear: along x, then y, then z
  const double c00 = node(i, j, k) * (1 - tx) + node(i + 1, j, k) * tx;
  const double c10 = node(i, j + 1, k) * (1 - tx) + node(i + 1, j + 1, k) * tx;
  const double c01 = node(i, j, k + 1) * (1 - tx) + node(i + 1, j, k + 1) * tx;
  const double c11 = node(i, j + 1, k + 1) * (1 - tx) + node(i + 1, j + 1, k + 1) * tx;
  const double c0 = c00 * (1 - ty) + c10 * ty;
  const double c1 = c01 * (1 - ty) + c11 * ty;
  return c0 * (1 - tz) + c1 * tz;
}

Vec3 SignedDistanceField::gradient(const Vec3& p) const {
  const Vec3 top = hi();
  const Vec3 clamped = p.cwiseMax(lo_).cwiseMin(top);
  if (clamped != p) return (p - clamped).normalized();
  int i, j, k;
  double tx, ty, tz;
  locate(p.x(), lo_.x(), h_, n_[0], i, tx);
  locate(p.y(), lo_.y(), h_, n_[1], j, ty);
  locate(p.z(), lo_.z(), h_, n_[2], k, tz);
  auto v = [&](int a, int b, int c) { return node(i + a, j + b, k + c); };
  // ∂/∂x of the trilinear form: the x-differences blended in y and z, over h
  const double gx = ((v(1, 0, 0) - v(0, 0, 0)) * (1 - ty) * (1 - tz) +
                     (v(1, 1, 0) - v(0, 1, 0)) * ty * (1 - tz) +
                     (v(1, 0, 1) - v(0, 0, 1)) * (1 - ty) * tz + (v(1, 1, 1) - v(0, 1, 1)) * ty * tz) /
                    h_;
  const double gy = ((v(0, 1, 0) - v(0, 0, 0)) * (1 - tx) * (1 - tz) +
                     (v(1, 1, 0) - v(1, 0, 0)) * tx * (1 - tz) +
                     (v(0, 1, 1) - v(0, 0, 1)) * (1 - tx) * tz + (v(1, 1, 1) - v(1, 0, 1)) * tx * tz) /
                    h_;
  const double gz = ((v(0, 0, 1) - v(0, 0, 0)) * (1 - tx) * (1 - ty) +
                     (v(1, 0, 1) - v(1, 0, 0)) * tx * (1 - ty) +
                     (v(0, 1, 1) - v(0, 1, 0)) * (1 - tx) * ty + (v(1, 1, 1) - v(1, 1, 0)) * tx * ty) /
                    h_;
  return {gx, gy, gz};
}

Vec3 SignedDistanceField::normal(const Vec3& p) const {
  const Vec3 g = gradient(p);
  const double n = g.norm();
  return n > 0.0 ? Vec3(g / n) : Vec3(Vec3::UnitZ());
}

double SignedDistanceField::lower_bound(const Vec3& p, double d, double r) const {
  const Vec3 top = hi();
  const bool inside = (p.array() >= lo_.array()).all() && (p.array() <= top.array()).all();
  if (!inside) return d - lipschitz_ * r;
  const double to_surface = std::min((p - lo_).minCoeff(), (top - p).minCoeff());
  if (to_surface >= r) return d - lipschitz_ * r;
  return std::min(d - lipschitz_ * r, d_boundary_);
}

SignedDistanceField sample_distance_field(const Vec3& lo, const Vec3& hi, double spacing,
                                          const std::function<double(const Vec3&)>& f) {
  if (!(spacing > 0.0) || !std::isfinite(spacing))
    throw Error(fmt::format("distance field: spacing must be positive and finite (got {})", spacing));
  std::array<int, 3> n{};
  for (int a = 0; a < 3; ++a) {
    const double cells = std::ceil((hi[a] - lo[a]) / spacing - 1e-9);
    if (!(cells >= 1.0) || cells > 4096.0)
      throw Error(fmt::format("distance field: the box spans {} cells along axis {} (1 to 4096)",
                              cells, a));
    n[static_cast<std::size_t>(a)] = static_cast<int>(cells) + 1;
  }
  std::vector<double> values;
  values.reserve(static_cast<std::size_t>(n[0]) * static_cast<std::size_t>(n[1]) *
                 static_cast<std::size_t>(n[2]));
  for (int k = 0; k < n[2]; ++k)
    for (int j = 0; j < n[1]; ++j)
      for (int i = 0; i < n[0]; ++i) values.push_back(f(lo + spacing * Vec3(i, j, k)));
  return SignedDistanceField(lo, spacing, n, std::move(values));
}

}  // namespace pivot::detail
