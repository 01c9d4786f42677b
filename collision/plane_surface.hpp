#pragma once
// The plane as a smooth surface: p(u, v) = o + u e_u + v e_v, one unbounded patch; every
// second and third derivative is zero.

#include "pivot/collision/smooth_surface.hpp"

namespace pivot {

class PlaneSurface final : public SmoothSurface {
 public:
  /// a plane through `origin` spanned by the orthogonal unit axes e_u, e_v; its outward normal
  /// (out of the solid) is e_u × e_v. Throws pivot::Error if the axes are not orthonormal.
  PlaneSurface(const Vec3& origin, const Vec3& e_u, const Vec3& e_v);

  [[nodiscard]] std::string name() const override { return "plane"; }
  [[nodiscard]] int patch_count() const override { return 1; }
  [[nodiscard]] const PatchDomain& domain(int /*patch*/) const override { return domain_; }
  [[nodiscard]] SurfaceJet evaluate(int patch, const Vec2& uv) const override;
  /// the orthogonal projection, exact
  [[nodiscard]] SurfacePoint closest_point(const Vec3& p_S) const override;

  [[nodiscard]] Vec3 normal() const { return e_u_.cross(e_v_); }

 private:
  Vec3 origin_, e_u_, e_v_;
  PatchDomain domain_;
};

/// the plane {x : n·x = offset} with outward normal n (normalized here), as make_plane takes it:
/// origin offset·n, e_u = +x projected onto the plane (+y when n is close to ±x), e_v = n × e_u;
/// for n = +z that is e_u = +x, e_v = +y
[[nodiscard]] SmoothSurfacePtr make_plane_surface(const Vec3& normal, double offset);

}  // namespace pivot
