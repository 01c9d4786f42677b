#include "pivot/engine/rigid_body.hpp"

#include <fmt/core.h>
#include <cmath>

#include "pivot/collision/ellipsoid_surface.hpp"
#include "pivot/collision/plane_surface.hpp"
#include "pivot/core/error.hpp"

namespace pivot {

bool RigidBody::isotropic() const {
  const double k = inertia_B(0, 0);
  return inertia_B(1, 1) == k && inertia_B(2, 2) == k && inertia_B(0, 1) == 0.0 &&
         inertia_B(0, 2) == 0.0 && inertia_B(1, 0) == 0.0 && inertia_B(1, 2) == 0.0 &&
         inertia_B(2, 0) == 0.0 && inertia_B(2, 1) == 0.0;
}

Mat3 RigidBody::inertia_W(const Quat& q_WB) const {
  if (isotropic()) return inertia_B;
  const Mat3 R = q_WB.toRotationMatrix();
  return R * inertia_B * R.transpose();
}

Mat3 RigidBody::inverse_inertia_W(const Quat& q_WB) const {
  if (isotropic()) return inverse_inertia_B;
  const Mat3 R = q_WB.toRotationMatrix();
  return R * inverse_inertia_B * R.transpose();
}

RigidBody make_rigid_body(const BodySettings& s) {
  const std::string who = fmt::format("body {}", pivot::quoted(s.name));
  auto fail = [&](const std::string& what) { throw Error(who + ": " + what); };
  if (!s.p_WS.allFinite() || !s.v_WB.allFinite() || !s.w_WB.allFinite() ||
      !s.q_WB.coeffs().allFinite())
    fail("position, orientation and velocities must be finite");
  if (s.q_WB.norm() < 1e-6) fail("orientation quaternion has (nearly) zero length");
  if (!(s.friction >= 0.0) || !std::isfinite(s.friction))
    fail(fmt::format("friction must be finite and >= 0 (got {})", s.friction));
  if (!(s.restitution >= 0.0 && s.restitution <= 1.0))
    fail(fmt::format("restitution must be in [0, 1] (got {})", s.restitution));
  RigidBody b;
  b.name = s.name;
  b.fixed = s.fixed;
  b.friction = s.friction;
  b.restitution = s.restitution;
  b.shape = s.shape;
  b.collision_group = s.collision_group;
  b.collision_mask = s.collision_mask;
  b.smooth_surface = s.smooth_surface;
  if (!b.smooth_surface && s.shape) {
    if (s.shape->type == ShapeType::sphere)
      b.smooth_surface = make_sphere_surface(s.shape->radius);
    else if (s.shape->type == ShapeType::ellipsoid)
      b.smooth_surface = make_ellipsoid_surface(s.shape->radii);
    else if (s.shape->type == ShapeType::plane)
      b.smooth_surface = make_plane_surface(s.shape->normal, s.shape->offset);
  }
  if (s.fixed && s.kinematic) fail("a kinematic body cannot also be fixed");
  if (s.fixed) return b;
  if (s.shape && (s.shape->type == ShapeType::plane || s.shape->type == ShapeType::mesh))
    fail(fmt::format("a {} shape needs a fixed body", to_string(s.shape->type)));
  // mass properties: density, else mass with the shape's inertia, else the given inertia
  Mat3 inertia = Mat3::Identity();
  double mass = s.mass;
  if (s.density != 0.0) {
    if (!(s.density > 0.0) || !std::isfinite(s.density))
      fail(fmt::format("density must be positive and finite (got {})", s.density));
    if (!s.shape) fail("density needs a shape");
    const MassProperties mp = mass_properties(*s.shape, s.density);
    mass = mp.mass;
    inertia = mp.inertia;
    b.shape_offset = -mp.com_S;
  } else {
    if (!(mass > 0.0) || !std::isfinite(mass))
      fail(fmt::format("mass must be positive and finite (got {})", mass));
    if (s.shape) {
      const MassProperties mp = mass_properties_for_mass(*s.shape, mass);
      inertia = mp.inertia;
      b.shape_offset = -mp.com_S;
    }
  }
  if (s.centre_of_mass) {
    // a given centre of mass: the shape's inertia about its centroid moved there (parallel axes)
    const Vec3& c = *s.centre_of_mass;
    if (!s.shape) fail("centre_of_mass needs a shape");
    if (!c.allFinite()) fail("centre_of_mass must be finite");
    const Vec3 d = c + b.shape_offset;  // from the centroid (−shape_offset) to c
    inertia += mass * (d.squaredNorm() * Mat3::Identity() - d * d.transpose());
    b.shape_offset = -c;
  }
  if (s.inertia_diag) {
    const Vec3& I = *s.inertia_diag;
    if (!I.allFinite() || !(I.minCoeff() > 0.0))
      fail(fmt::format("inertia_diag must be positive and finite (got [{}, {}, {}])", I.x(), I.y(),
                       I.z()));
    // principal moments of a real body satisfy the triangle inequality (with a little slack)
    const double slack = 1e-9 * I.sum();
    if (I.x() > I.y() + I.z() + slack || I.y() > I.x() + I.z() + slack ||
        I.z() > I.x() + I.y() + slack)
      fail(fmt::format("inertia_diag [{}, {}, {}] violates the triangle inequality", I.x(), I.y(),
                       I.z()));
    inertia = I.asDiagonal();
  }
  // the cause named: an overflow (a huge mass, density or size) is not an indefinite inertia
  if (!std::isfinite(mass))
    fail(fmt::format("the mass {:g} kg is not finite (density × volume overflowed)", mass));
  if (!inertia.allFinite())
    fail(
        fmt::format("the inertia overflowed (mass {:g} kg times the shape's size squared is "
                    "beyond the range of a double)",
                    mass));
  const double det = inertia.determinant();
  if (!std::isfinite(det))
    fail(
        fmt::format("the inertia's determinant overflowed (moments up to {:g} kg m²: the mass "
                    "{:g} kg or the size is too large for double precision)",
                    inertia.cwiseAbs().maxCoeff(), mass));
  if (det <= 0.0) fail("inertia is not positive definite");
  b.mass = mass;
  b.inverse_mass = 1.0 / mass;
  b.inertia_B = 0.5 * (inertia + inertia.transpose());
  b.inverse_inertia_B = b.inertia_B.inverse();
  if (s.kinematic) {
    // infinite mass in both LCPs: the inverses are zero, as a fixed body's
    auto track = std::make_shared<KinematicTrack>(*s.kinematic);
    try {
      check_track(*track);
    } catch (const Error& e) {
      fail(std::string("kinematic: ") + e.what());
    }
    b.kinematic = std::move(track);
    b.fixed = true;
    b.inverse_mass = 0.0;
    b.inverse_inertia_B = Mat3::Zero();
  }
  return b;
}

}  // namespace pivot
