#pragma once
// The exact signed distance of an ellipsoid Σ (x_i / e_i)² = 1, as a distance oracle for the
// point shell of an sdf shape (sdf_manifold.hpp; Barbič 2007 §3.11.1). No closed form exists:
// the closest point x of the surface to y satisfies x_i = e_i² y_i / (t + e_i²) for the root t
// of F(t) = Σ (e_i y_i / (t + e_i²))² − 1, which Eberly ("Distance from a point to an ellipse,
// an ellipsoid, or a hyperellipsoid", Geometric Tools, 2013) brackets and bisects to machine
// precision in the first octant with sorted axes, with the cases of points on coordinate
// planes (where the root may be a double one, on the medial surface) reduced to the ellipse.
// Negative inside. A signed distance is 1-Lipschitz: a ball of radius r about p has
// d ≥ d(p) − r.

#include "pivot/collision/distance_oracle.hpp"

namespace pivot::detail {

/// the closest point of the ellipsoid's surface to p (any p) and the signed distance
struct EllipsoidClosest {
  Vec3 point = Vec3::Zero();
  double distance = 0.0;
};
[[nodiscard]] EllipsoidClosest ellipsoid_closest(const Vec3& radii, const Vec3& p);

class EllipsoidDistance final : public DistanceOracle {
 public:
  explicit EllipsoidDistance(const Vec3& radii) : e_(radii) {}
  double distance(const Vec3& p) const override { return ellipsoid_closest(e_, p).distance; }
  /// the outward normal at the closest point, ∝ (x_i / e_i²)
  Vec3 normal(const Vec3& p) const override;
  double lower_bound(const Vec3&, double d, double r) const override { return d - r; }
  double lipschitz() const override { return 1.0; }
  bool skip_is_safe(double) const override { return true; }

 private:
  Vec3 e_;
};

}  // namespace pivot::detail
