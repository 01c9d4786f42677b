#pragma once
// A signed distance field sampled on a regular grid (Barbič 2007, §3.11): negative inside the
// solid, positive outside, trilinear between the nodes. Outside the grid's box the field
// returns the thesis's conservative bound (§3.11, proved there)
//   d(p) ≥ d_box(p) + d_boundary,
// d_box the distance from p to the box and d_boundary the least value on the box's surface,
// so a query anywhere is a lower bound of the distance for far points and exact-as-sampled
// inside. The field also carries its Lipschitz constant L (the bound of |∇d| of the trilinear
// interpolant over all cells, never below 1), which the point-tree traversal needs to cull
// spheres conservatively: d(q) ≥ d(p) − L |q − p| for every p, q.

#include <array>
#include <functional>
#include <vector>

#include "pivot/collision/distance_oracle.hpp"
#include "pivot/core/spatial.hpp"

namespace pivot::detail {

class SignedDistanceField final : public DistanceOracle {
 public:
  /// `values` at the nodes lo + h (i, j, k), i fastest; dims ≥ 2 per axis; throws pivot::Error
  /// for a bad spacing, dims or value count, or a non-finite value
  SignedDistanceField(const Vec3& lo, double spacing, const std::array<int, 3>& dims,
                      std::vector<double> values);

  /// trilinear inside the box, the conservative bound d_box + d_boundary outside, m
  [[nodiscard]] double distance(const Vec3& p) const override;
  /// the gradient of distance(): of the trilinear interpolant inside (by cell), the unit
  /// direction away from the box outside
  [[nodiscard]] Vec3 gradient(const Vec3& p) const;
  /// the gradient, normalized (UnitZ where it vanishes)
  [[nodiscard]] Vec3 normal(const Vec3& p) const override;
  /// d − L r, except for a ball about an inside point that reaches out of the box, where the
  /// outside values (≥ d_boundary, and unrelated to d) bound it too: min(d − L r, d_boundary).
  /// Proof for a ball about an outside p: a point q of the ball inside the box is reached from
  /// p by a segment that enters the box at r′ with |q − r′| ≤ r − d_box(p), so
  /// d(q) ≥ d_boundary − L (r − d_box(p)) ≥ d(p) − L r since L ≥ 1; outside the box d_box is
  /// 1-Lipschitz.
  [[nodiscard]] double lower_bound(const Vec3& p, double d, double r) const override;
  /// the Lipschitz constant of the trilinear interpolant over all cells (≥ 1)
  [[nodiscard]] double lipschitz() const override { return lipschitz_; }
  /// the skip grows balls, which may then reach out of the box: safe when d_boundary > margin
  [[nodiscard]] bool skip_is_safe(double margin) const override { return d_boundary_ > margin; }

  [[nodiscard]] const Vec3& lo() const { return lo_; }
  [[nodiscard]] Vec3 hi() const;
  [[nodiscard]] double spacing() const { return h_; }
  [[nodiscard]] const std::array<int, 3>& dims() const { return n_; }
  [[nodiscard]] double node(int i, int j, int k) const {
    return values_[static_cast<std::size_t>(i + n_[0] * (j + n_[1] * k))];
  }
  /// the least node value on the box's surface (the bound's d_boundary), m
  [[nodiscard]] double boundary_minimum() const { return d_boundary_; }

 private:
  Vec3 lo_;
  double h_;
  std::array<int, 3> n_;
  std::vector<double> values_;
  double d_boundary_ = 0.0;
  double lipschitz_ = 1.0;
};

/// samples f on the grid of nodes lo + h (i, j, k) covering [lo, hi] (dims = ceil((hi−lo)/h)+1)
[[nodiscard]] SignedDistanceField sample_distance_field(
    const Vec3& lo, const Vec3& hi, double spacing, const std::function<double(const Vec3&)>& f);

}  // namespace pivot::detail
