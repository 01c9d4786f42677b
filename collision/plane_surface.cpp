#include "pivot/collision/plane_surface.hpp"

#include <cmath>

#include "pivot/core/error.hpp"

namespace pivot {

PlaneSurface::PlaneSurface(const Vec3& origin, const Vec3& e_u, const Vec3& e_v)
    : origin_(origin), e_u_(e_u), e_v_(e_v) {
  if (std::abs(e_u.norm() - 1.0) > 1e-9 || std::abs(e_v.norm() - 1.0) > 1e-9 ||
      std::abs(e_u.dot(e_v)) > 1e-9)
    throw Error("plane surface: the axes e_u, e_v must be orthonormal");
}

SurfaceJet PlaneSurface::evaluate(int /*patch*/, const Vec2& uv) const {
  SurfaceJet j;
  j.p = origin_ + uv.x() * e_u_ + uv.y() * e_v_;
  j.p_u = e_u_;
  j.p_v = e_v_;
  return j;
}

SurfacePoint PlaneSurface::closest_point(const Vec3& p_S) const {
  const Vec3 d = p_S - origin_;
  return {0, Vec2(d.dot(e_u_), d.dot(e_v_))};
}

SmoothSurfacePtr make_plane_surface(const Vec3& normal, double offset) {
  const double len = normal.norm();
  if (!(len > 0.0) || !std::isfinite(len))
    throw Error("plane surface: the normal must not be zero");
  const Vec3 n = normal / len;
  // e_u: +x projected onto the plane, unless n is close to ±x, then +y
  const Vec3 seed = std::abs(n.x()) < 0.9 ? Vec3::UnitX() : Vec3::UnitY();
  const Vec3 e_u = (seed - seed.dot(n) * n).normalized();
  const Vec3 e_v = n.cross(e_u);
  return std::make_shared<PlaneSurface>(offset * n, e_u, e_v);
}

}  // namespace pivot
