#include "pivot/collision/planar_shape.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <numeric>

#include "pivot/core/error.hpp"

namespace pivot {

namespace {

constexpr double pi = std::numbers::pi;

void require_size(const char* shape, const char* what, double value) {
  if (!(value > 0.0) || !std::isfinite(value))
    throw Error(
        fmt::format("planar {}: {} must be positive and finite (got {})", shape, what, value));
}

/// Andrew's monotone chain (Andrew 1979; de Berg et al., Computational Geometry, §1.1): sort by
/// (x, z), build the lower then the upper chain, dropping every point that does not turn
/// strictly left (cross ≤ 0 drops collinear points too). Counter-clockwise, starting at the
/// least (x, z).
std::vector<Vec2> convex_hull_2d(std::vector<Vec2> pts) {
  std::sort(pts.begin(), pts.end(), [](const Vec2& a, const Vec2& b) {
    return a.x() < b.x() || (a.x() == b.x() && a.y() < b.y());
  });
  pts.erase(std::unique(pts.begin(), pts.end()), pts.end());
  if (pts.size() < 3) return pts;
  std::vector<Vec2> hull(2 * pts.size());
  std::size_t k = 0;
  for (const Vec2& q : pts) {  // lower chain
    while (k >= 2 && cross2(hull[k - 1] - hull[k - 2], q - hull[k - 2]) <= 0.0) --k;
    hull[k++] = q;
  }
  const std::size_t lower = k + 1;
  for (std::size_t i = pts.size() - 1; i-- > 0;) {  // upper chain
    const Vec2& q = pts[i];
    while (k >= lower && cross2(hull[k - 1] - hull[k - 2], q - hull[k - 2]) <= 0.0) --k;
    hull[k++] = q;
  }
  hull.resize(k - 1);  // the last point is the first
  return hull;
}

/// twice the signed area of a polygon (shoelace formula), fanned from vertex 0
double twice_area(const std::vector<Vec2>& v) {
  double a2 = 0.0;
  for (std::size_t i = 1; i + 1 < v.size(); ++i) a2 += cross2(v[i] - v[0], v[i + 1] - v[0]);
  return a2;
}

/// the lamina's inertia tensor (3-D shape axes) from its central second moments
/// Sxx = ∫x² dA, Szz = ∫z² dA, Sxz = ∫x z dA (about the centroid) and the density ρ
Mat3 lamina_inertia(double rho, double Sxx, double Szz, double Sxz) {
  Mat3 I = Mat3::Zero();
  I(0, 0) = rho * Szz;
  I(2, 2) = rho * Sxx;
  I(1, 1) = I(0, 0) + I(2, 2);  // perpendicular axis theorem
  I(0, 2) = I(2, 0) = -rho * Sxz;
  return I;
}

}  // namespace

PlanarShape make_planar_circle(double radius) {
  require_size("circle", "radius", radius);
  PlanarShape s;
  s.type = PlanarShapeType::circle;
  s.radius = radius;
  return s;
}

PlanarShape make_planar_box(double hx, double hz) {
  require_size("box", "half extent hx", hx);
  require_size("box", "half extent hz", hz);
  PlanarShape s;
  s.type = PlanarShapeType::box;
  s.half_extents = Vec2(hx, hz);
  return s;
}

PlanarShape make_planar_capsule(double radius, double half_length) {
  require_size("capsule", "radius", radius);
  require_size("capsule", "half length", half_length);
  PlanarShape s;
  s.type = PlanarShapeType::capsule;
  s.radius = radius;
  s.half_length = half_length;
  return s;
}

PlanarShape make_planar_polygon(const std::vector<Vec2>& points) {
  for (std::size_t i = 0; i < points.size(); ++i)
    if (!points[i].allFinite())
      throw Error(fmt::format("planar polygon: point {} is not finite (got [{}, {}])", i,
                              points[i].x(), points[i].y()));
  std::vector<Vec2> hull = convex_hull_2d(points);
  if (hull.size() < 3)
    throw Error(fmt::format(
        "planar polygon: needs at least 3 non-collinear points (got {} points, hull of {})",
        points.size(), hull.size()));
  // zero area up to rounding: relative to the squared diameter of the hull's bounding box
  const Vec2 lo = std::accumulate(hull.begin(), hull.end(), hull[0],
                                  [](const Vec2& a, const Vec2& b) { return a.cwiseMin(b); });
  const Vec2 hi = std::accumulate(hull.begin(), hull.end(), hull[0],
                                  [](const Vec2& a, const Vec2& b) { return a.cwiseMax(b); });
  const double area = 0.5 * twice_area(hull);
  if (!(area > 1e-12 * (hi - lo).squaredNorm()))
    throw Error(fmt::format("planar polygon: the points enclose zero area (area {})", area));
  PlanarShape s;
  s.type = PlanarShapeType::polygon;
  s.points = std::move(hull);
  return s;
}

PlanarShape make_planar_half_plane(const Vec2& normal, double offset) {
  if (!normal.allFinite() || !std::isfinite(offset))
    throw Error(
        fmt::format("planar half-plane: normal and offset must be finite (got normal "
                    "[{}, {}], offset {})",
                    normal.x(), normal.y(), offset));
  const double length = normal.norm();
  if (!(length > 1e-12))
    throw Error(fmt::format("planar half-plane: normal must not be zero (got [{}, {}])", normal.x(),
                            normal.y()));
  PlanarShape s;
  s.type = PlanarShapeType::half_plane;
  s.normal = unit_to_rounding(normal);  // kept as is when already unit (core/spatial.hpp)
  s.offset = offset;
  return s;
}

PlanarCore planar_core(const PlanarShape& shape) {
  PlanarCore core;
  switch (shape.type) {
    case PlanarShapeType::circle:
      core.vertices = {Vec2::Zero()};
      core.radius = shape.radius;
      return core;
    case PlanarShapeType::capsule: {
      const double L = shape.half_length;
      core.vertices = {Vec2(-L, 0.0), Vec2(L, 0.0)};
      core.normals = {Vec2(0.0, -1.0), Vec2(0.0, 1.0)};  // edge v0→v1 faces −z, v1→v0 faces +z
      core.radius = shape.radius;
      return core;
    }
    case PlanarShapeType::box: {
      const double hx = shape.half_extents.x(), hz = shape.half_extents.y();
      core.vertices = {Vec2(-hx, -hz), Vec2(hx, -hz), Vec2(hx, hz), Vec2(-hx, hz)};
      core.normals = {Vec2(0.0, -1.0), Vec2(1.0, 0.0), Vec2(0.0, 1.0), Vec2(-1.0, 0.0)};
      return core;
    }
    case PlanarShapeType::polygon: {
      core.vertices = shape.points;
      const std::size_t n = core.vertices.size();
      for (std::size_t i = 0; i < n; ++i) {
        const Vec2 e = core.vertices[(i + 1) % n] - core.vertices[i];
        core.normals.push_back(Vec2(e.y(), -e.x()).normalized());
      }
      return core;
    }
    case PlanarShapeType::half_plane:
      break;
  }
  throw Error("planar half-plane: has no core polygon (it is unbounded)");
}

double planar_bounding_radius(const PlanarShape& shape) {
  switch (shape.type) {
    case PlanarShapeType::circle:
      return shape.radius;
    case PlanarShapeType::box:
      return shape.half_extents.norm();
    case PlanarShapeType::capsule:
      return shape.half_length + shape.radius;
    case PlanarShapeType::polygon: {
      double r = 0.0;
      for (const Vec2& v : shape.points) r = std::max(r, v.norm());
      return r;
    }
    case PlanarShapeType::half_plane:
      break;
  }
  throw Error("planar half-plane: has no bounding radius (it is unbounded)");
}

PlanarMassProperties planar_mass_properties(const PlanarShape& shape, double areal_density) {
  if (!(areal_density > 0.0) || !std::isfinite(areal_density))
    throw Error(fmt::format("planar shape: areal density must be positive and finite (got {})",
                            areal_density));
  const double rho = areal_density;
  PlanarMassProperties mp;
  // central second moments of area: Sxx = ∫x² dA, Szz = ∫z² dA, Sxz = ∫x z dA
  double Sxx = 0.0, Szz = 0.0, Sxz = 0.0;
  switch (shape.type) {
    case PlanarShapeType::circle: {
      // disc: ∫x² dA = ∫z² dA = π r⁴/4 (half the polar moment π r⁴/2)
      const double r = shape.radius;
      mp.area = pi * r * r;
      Sxx = Szz = 0.25 * pi * r * r * r * r;
      break;
    }
    case PlanarShapeType::box: {
      // rectangle 2hx × 2hz: ∫x² dA = (2hz)(2hx)³/12 = 4 hz hx³/3
      const double hx = shape.half_extents.x(), hz = shape.half_extents.y();
      mp.area = 4.0 * hx * hz;
      Sxx = mp.area * hx * hx / 3.0;
      Szz = mp.area * hz * hz / 3.0;
      break;
    }
    case PlanarShapeType::capsule: {
      // rectangle [−L, L] × [−r, r] plus two half-discs centred at (±L, 0):
      //   area = 4 L r + π r²
      //   ∫x² dA: rectangle 2r (2L³/3) = 4 r L³/3; a half-disc at x = L + u (u ≥ 0) gives
      //     L² (π r²/2) + 2L ∫u dA + ∫u² dA with ∫u dA = 2r³/3 and ∫u² dA = π r⁴/8, so both
      //     half-discs give π r² L² + 8 L r³/3 + π r⁴/4
      //   ∫z² dA: rectangle 2L (2r³/3) = 4 L r³/3, the two half-discs a whole disc, π r⁴/4
      const double r = shape.radius, L = shape.half_length;
      const double r2 = r * r, r3 = r2 * r, r4 = r3 * r;
      mp.area = 4.0 * L * r + pi * r2;
      Sxx = 4.0 * r * L * L * L / 3.0 + pi * r2 * L * L + 8.0 * L * r3 / 3.0 + 0.25 * pi * r4;
      Szz = 4.0 * L * r3 / 3.0 + 0.25 * pi * r4;
      break;
    }
    case PlanarShapeType::polygon: {
      // fan of triangles (v0, v_i, v_{i+1}), coordinates relative to v0 for accuracy. For the
      // triangle (0, a, b) with signed area A = cross(a, b)/2 (e.g. Eberly, "Polygon Mass
      // Properties"; Box2D b2ComputePolygonMass):
      //   ∫x dA = A (a.x + b.x)/3,  ∫x² dA = A (a.x² + a.x b.x + b.x²)/6,
      //   ∫x z dA = A (2 a.x a.z + a.x b.z + b.x a.z + 2 b.x b.z)/12
      // then the parallel axis theorem moves the moments to the centroid c:
      //   ∫(x − c.x)² dA = ∫x² dA − A c.x², ∫(x − c.x)(z − c.z) dA = ∫x z dA − A c.x c.z
      const std::vector<Vec2>& v = shape.points;
      double A = 0.0, Mx = 0.0, Mz = 0.0, Xx = 0.0, Zz = 0.0, Xz = 0.0;
      for (std::size_t i = 1; i + 1 < v.size(); ++i) {
        const Vec2 a = v[i] - v[0], b = v[i + 1] - v[0];
        const double At = 0.5 * cross2(a, b);
        A += At;
        Mx += At * (a.x() + b.x()) / 3.0;
        Mz += At * (a.y() + b.y()) / 3.0;
        Xx += At * (a.x() * a.x() + a.x() * b.x() + b.x() * b.x()) / 6.0;
        Zz += At * (a.y() * a.y() + a.y() * b.y() + b.y() * b.y()) / 6.0;
        Xz +=
            At * (2.0 * a.x() * a.y() + a.x() * b.y() + b.x() * a.y() + 2.0 * b.x() * b.y()) / 12.0;
      }
      const Vec2 c(Mx / A, Mz / A);  // relative to v0
      mp.area = A;
      mp.centroid = v[0] + c;
      Sxx = Xx - A * c.x() * c.x();
      Szz = Zz - A * c.y() * c.y();
      Sxz = Xz - A * c.x() * c.y();
      break;
    }
    case PlanarShapeType::half_plane:
      throw Error(
          "planar half-plane: has no finite area, so no mass properties (use it on a "
          "fixed body)");
  }
  mp.mass = rho * mp.area;
  mp.inertia = lamina_inertia(rho, Sxx, Szz, Sxz);
  return mp;
}

PlanarMassProperties planar_mass_properties_for_mass(const PlanarShape& shape, double mass) {
  if (!(mass > 0.0) || !std::isfinite(mass))
    throw Error(fmt::format("planar shape: mass must be positive and finite (got {})", mass));
  const double area = planar_mass_properties(shape, 1.0).area;
  return planar_mass_properties(shape, mass / area);
}

}  // namespace pivot
