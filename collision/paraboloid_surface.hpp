#pragma once
// Elliptic paraboloid cap, apex at the origin, opening towards −z (solid below, outward
// normal +z at the apex):
//   p(u, v) = (u, v, −u²/(2 R_u) − v²/(2 R_v)),  |u| ≤ a, |v| ≤ b
// R_u, R_v are the principal radii of curvature at the apex. The rattleback of Kry 2000 App. B
// is exactly such a cap (Kry 2000 App. B: radii 2.7 and 0.3). The domain's edges are open:
// a contact that reaches them leaves the surface.

#include "pivot/collision/smooth_surface.hpp"

namespace pivot {

class ParaboloidSurface final : public SmoothSurface {
 public:
  /// radii of curvature at the apex (m, > 0) and half-extents of the domain (m, > 0)
  ParaboloidSurface(double radius_u, double radius_v, double half_u, double half_v);

  [[nodiscard]] std::string name() const override { return "paraboloid"; }
  [[nodiscard]] int patch_count() const override { return 1; }
  [[nodiscard]] const PatchDomain& domain(int /*patch*/) const override { return domain_; }
  [[nodiscard]] SurfaceJet evaluate(int patch, const Vec2& uv) const override;

 private:
  double ku_, kv_;  // curvatures 1/R
  PatchDomain domain_;
};

}  // namespace pivot
