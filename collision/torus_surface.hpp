#pragma once
// Torus about the surface frame's z axis, one doubly periodic patch:
//   p(u, v) = ((R + r cos v) cos u, (R + r cos v) sin u, r sin v),  u, v ∈ [0, 2π)
// Regular everywhere for R > r; p_u × p_v points outward. Periodic coordinates are wrapped, no
// patch traversal is needed. Avoid resting it flat on a plane: that is a
// conforming circle contact, which the reduced mode cannot describe.

#include "pivot/collision/smooth_surface.hpp"

namespace pivot {

class TorusSurface final : public SmoothSurface {
 public:
  /// major radius R (centre to tube centre) > minor radius r > 0, m; throws pivot::Error
  TorusSurface(double major_radius, double minor_radius);

  [[nodiscard]] std::string name() const override { return "torus"; }
  [[nodiscard]] int patch_count() const override { return 1; }
  [[nodiscard]] const PatchDomain& domain(int /*patch*/) const override { return domain_; }
  [[nodiscard]] SurfaceJet evaluate(int patch, const Vec2& uv) const override;

 private:
  double R_, r_;
  PatchDomain domain_;
};

}  // namespace pivot
