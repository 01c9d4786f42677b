#include "pivot/collision/torus_surface.hpp"

#include <cmath>
#include <numbers>

#include "pivot/core/error.hpp"

namespace pivot {

TorusSurface::TorusSurface(double major_radius, double minor_radius)
    : R_(major_radius), r_(minor_radius) {
  if (!(minor_radius > 0.0) || !(major_radius > minor_radius) || !std::isfinite(major_radius))
    throw Error("torus surface: need major radius > minor radius > 0");
  domain_.period = Vec2::Constant(2.0 * std::numbers::pi);
}

SurfaceJet TorusSurface::evaluate(int /*patch*/, const Vec2& uv) const {
  const Taylor2 u = Taylor2::variable_u(uv.x()), v = Taylor2::variable_v(uv.y());
  const Taylor2 ring = r_ * cos(v) + R_;
  Taylor2Vec3 p;
  p.e[0] = ring * cos(u);
  p.e[1] = ring * sin(u);
  p.e[2] = r_ * sin(v);
  return p.to_jet();
}

}  // namespace pivot
