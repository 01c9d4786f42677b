#include "pivot/collision/ellipsoid_surface.hpp"

#include <cmath>

#include "pivot/core/error.hpp"

namespace pivot {

namespace {

struct CubeFace {
  Vec3 n, e1, e2;  // e1 × e2 = n: p_a × p_b points out of the solid
};

const std::array<CubeFace, 6>& faces() {
  static const std::array<CubeFace, 6> f{{
      {Vec3::UnitX(), Vec3::UnitY(), Vec3::UnitZ()},
      {-Vec3::UnitX(), Vec3::UnitZ(), Vec3::UnitY()},
      {Vec3::UnitY(), Vec3::UnitZ(), Vec3::UnitX()},
      {-Vec3::UnitY(), Vec3::UnitX(), Vec3::UnitZ()},
      {Vec3::UnitZ(), Vec3::UnitX(), Vec3::UnitY()},
      {-Vec3::UnitZ(), Vec3::UnitY(), Vec3::UnitX()},
  }};
  return f;
}

}  // namespace

EllipsoidSurface::EllipsoidSurface(const Vec3& radii) : radii_(radii) {
  if (!(radii.minCoeff() > 0.0) || !radii.allFinite())
    throw Error("ellipsoid surface: the semi-axes must be positive and finite");
  domain_.vertices = {Vec2(-1, -1), Vec2(1, -1), Vec2(1, 1), Vec2(-1, 1)};
  links_ = link_edges_by_geometry(*this, 1e-9 * radii.maxCoeff());
  for (const auto& patch : links_)
    for (const PatchEdgeLink& l : patch)
      if (l.open()) throw Error("ellipsoid surface: internal error, a cube edge has no neighbour");
}

// p = diag(r) w/|w| with w = n + a e1 + b e2, by Taylor arithmetic (surface_jet.hpp)
SurfaceJet EllipsoidSurface::evaluate(int patch, const Vec2& ab) const {
  const CubeFace& f = faces()[patch];
  const Taylor2 a = Taylor2::variable_u(ab.x()), b = Taylor2::variable_v(ab.y());
  Taylor2Vec3 w;
  for (int k = 0; k < 3; ++k) w.e[k] = a * f.e1[k] + b * f.e2[k] + f.n[k];
  const Taylor2 inv_len = reciprocal(sqrt(dot(w, w)));
  Taylor2Vec3 p;
  for (int k = 0; k < 3; ++k) p.e[k] = (radii_[k] * inv_len) * w.e[k];
  return p.to_jet();
}

Vec3 EllipsoidSurface::point(int patch, const Vec2& ab) const {
  const CubeFace& f = faces()[patch];
  const Vec3 w = f.n + ab.x() * f.e1 + ab.y() * f.e2;
  return radii_.cwiseProduct(w.normalized());
}

SurfacePoint EllipsoidSurface::point_in_direction(const Vec3& d) const {
  const Vec3 s = d.cwiseQuotient(radii_);  // the unit-sphere direction of the same point
  int best = 0;
  double best_dot = -1.0;
  for (int k = 0; k < 6; ++k) {
    const double c = s.dot(faces()[k].n);
    if (c > best_dot) {
      best_dot = c;
      best = k;
    }
  }
  const CubeFace& f = faces()[best];
  return {best, Vec2(s.dot(f.e1) / best_dot, s.dot(f.e2) / best_dot)};
}

SmoothSurfacePtr make_sphere_surface(double radius) {
  return std::make_shared<EllipsoidSurface>(Vec3::Constant(radius));
}

SmoothSurfacePtr make_ellipsoid_surface(const Vec3& radii) {
  return std::make_shared<EllipsoidSurface>(radii);
}

}  // namespace pivot
