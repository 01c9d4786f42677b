#pragma once
// Ellipsoid (and sphere) as a cube-sphere: six square patches, one per face of the cube
// [-1, 1]³, each mapped by central projection onto the unit sphere and then scaled by the
// semi-axes,
//   p(a, b) = diag(r) w/|w|,  w = n_f + a e1_f + b e2_f,  (a, b) ∈ [-1, 1]²,  e1_f × e2_f = n_f.
// A latitude-longitude chart has singular poles (p_u = 0 there; Kry & Pai 2002 §3.6), this
// one is regular everywhere, and its patches join along the cube's edges with the same edge
// parameter on both sides (linked, g(α) = 1 − α), so a contact moving over the sphere changes
// chart through the patch traversal of Kry & Pai §3.5.
// Patch f: 0 +x, 1 −x, 2 +y, 3 −y, 4 +z, 5 −z.

#include <array>

#include "pivot/collision/smooth_surface.hpp"

namespace pivot {

class EllipsoidSurface final : public SmoothSurface {
 public:
  /// semi-axes along the surface frame's x, y, z (m, positive); throws pivot::Error otherwise
  explicit EllipsoidSurface(const Vec3& radii);

  [[nodiscard]] std::string name() const override { return "ellipsoid"; }
  [[nodiscard]] int patch_count() const override { return 6; }
  [[nodiscard]] const PatchDomain& domain(int /*patch*/) const override { return domain_; }
  [[nodiscard]] SurfaceJet evaluate(int patch, const Vec2& ab) const override;
  [[nodiscard]] Vec3 point(int patch, const Vec2& ab) const override;
  [[nodiscard]] PatchEdgeLink neighbour(int patch, int edge) const override {
    return links_[patch][edge];
  }

  [[nodiscard]] const Vec3& radii() const { return radii_; }
  /// the patch and parameters of the surface point in direction d from the centre (d ≠ 0):
  /// the cube face d leaves through, (a, b) = (d·e1, d·e2)/(d·n) for the unscaled direction
  /// diag(r)⁻¹ d
  [[nodiscard]] SurfacePoint point_in_direction(const Vec3& d) const;

 private:
  Vec3 radii_;
  PatchDomain domain_;
  std::vector<std::vector<PatchEdgeLink>> links_;
};

/// a sphere of radius r: the ellipsoid with equal semi-axes
[[nodiscard]] SmoothSurfacePtr make_sphere_surface(double radius);
[[nodiscard]] SmoothSurfacePtr make_ellipsoid_surface(const Vec3& radii);

}  // namespace pivot
