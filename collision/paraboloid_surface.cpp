#include "pivot/collision/paraboloid_surface.hpp"

#include <cmath>

#include "pivot/core/error.hpp"

namespace pivot {

ParaboloidSurface::ParaboloidSurface(double radius_u, double radius_v, double half_u, double half_v)
    : ku_(1.0 / radius_u), kv_(1.0 / radius_v) {
  if (!(radius_u > 0.0) || !(radius_v > 0.0) || !(half_u > 0.0) || !(half_v > 0.0) ||
      !std::isfinite(radius_u + radius_v + half_u + half_v))
    throw Error("paraboloid surface: radii and half-extents must be positive and finite");
  domain_.vertices = {Vec2(-half_u, -half_v), Vec2(half_u, -half_v), Vec2(half_u, half_v),
                      Vec2(-half_u, half_v)};
}

SurfaceJet ParaboloidSurface::evaluate(int /*patch*/, const Vec2& uv) const {
  const double u = uv.x(), v = uv.y();
  SurfaceJet j;
  j.p = Vec3(u, v, -0.5 * (ku_ * u * u + kv_ * v * v));
  j.p_u = Vec3(1.0, 0.0, -ku_ * u);
  j.p_v = Vec3(0.0, 1.0, -kv_ * v);
  j.p_uu = Vec3(0.0, 0.0, -ku_);
  j.p_vv = Vec3(0.0, 0.0, -kv_);
  return j;
}

}  // namespace pivot
