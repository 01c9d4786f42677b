// The planar world (WorldSettings::dimension = 2; docs/planar.md): the checks that keep a body,
// a joint and the settings in the x–z plane, and the projection that ends each step.
//
// Why the 3-D step is exact for such a world (Cline 2002 §4.2 asks for one code base for 2-D
// and 3-D): take every body in the plane y = 0, turned about y only, moving with
// v = (vx, 0, vz) and ω = (0, ωy, 0), its inertia with y a principal axis (a lamina in the
// x–z plane has I_xy = I_yz = 0), and every force in the plane. A contact's point r (from the
// centre of mass) and direction d have r_y = d_y = 0, so its row ((r × d)ᵀ, dᵀ) has only the
// components (ωy, vx, vz); a hinge about y and a slider along the plane add rows whose
// out-of-plane right-hand sides are zero. M⁻¹ does not couple (ωy, vx, vz) with
// (ωx, ωz, vy) (R_y(θ) I_B R_y(θ)ᵀ keeps I_xy = I_yz = 0), the gyroscopic term ω × Iω is 0
// for ω along a principal axis, so every product that could move a body out of the plane is
// a product with an exact zero: the out-of-plane impulses and velocities stay 0 and the step
// is the 2-D step on (θ, x, z). project_on_plane() removes what rounding could still leave
// (a −0.0, a quaternion component of 1e-17) and what a user's force outside the plane would.
#include <cmath>

#include <fmt/format.h>

#include "pivot/collision/shape.hpp"
#include "pivot/core/error.hpp"
#include "pivot/engine/world.hpp"

namespace pivot {

namespace {

/// out-of-plane coordinates smaller than this are taken as the plane (m, rad, m/s, rad/s)
constexpr double kPlanarTolerance = 1e-9;

}  // namespace

void World::check_planar_settings(const WorldSettings& s) {
  if (s.dimension != 2) return;  // 2 or 3: validate(WorldSettings) checked it
  if (s.gravity.y() != 0.0)
    throw Error(
        fmt::format("a planar world (dimension 2) needs gravity in the x–z plane (got "
                    "gravity y = {})",
                    s.gravity.y()));
  if (s.friction_directions != 2)
    throw Error(
        fmt::format("a planar world (dimension 2) has 2 friction directions per contact, "
                    "±t in the plane (got friction_directions = {})",
                    s.friction_directions));
  if (s.friction_direction_offset != 0.0)
    throw Error(
        "a planar world (dimension 2) keeps its friction directions in the plane "
        "(friction_direction_offset must be 0)");
  if (s.hybrid)
    throw Error(
        "a planar world (dimension 2) has no hybrid mode: its shapes have no smooth "
        "surfaces (set hybrid to false)");
}

void World::check_planar_body(const RigidBody& model, const Pose& pose, const Vec6& twist) const {
  const bool planar_shape = model.shape && model.shape->type == ShapeType::planar;
  const std::string name = pivot::quoted(model.name);
  if (settings_.dimension != 2) {
    if (planar_shape)
      throw Error(
          fmt::format("body {}: a planar shape (circle, polygon, half_plane, ...) needs a "
                      "planar world (dimension 2)",
                      name));
    return;
  }
  if (model.shape && !planar_shape)
    throw Error(
        fmt::format("body {}: a planar world (dimension 2) needs a planar shape (circle, "
                    "box, capsule, polygon or half_plane; got a {})",
                    name, to_string(model.shape->type)));
  if (model.kinematic)
    throw Error(fmt::format("body {}: a planar world (dimension 2) has no kinematic bodies", name));
  if (model.smooth_surface)
    throw Error(fmt::format("body {}: a planar world (dimension 2) has no smooth surfaces", name));
  const Mat3& I = model.inertia_B;
  if (!model.fixed && (I(0, 1) != 0.0 || I(1, 0) != 0.0 || I(1, 2) != 0.0 || I(2, 1) != 0.0))
    throw Error(
        fmt::format("body {}: in a planar world (dimension 2) y must be a principal axis "
                    "of the inertia (I_xy = I_yz = 0)",
                    name));
  if (std::abs(model.shape_offset.y()) > kPlanarTolerance)
    throw Error(fmt::format("body {}: the centre of mass is {} m off the plane y = 0", name,
                            model.shape_offset.y()));
  const Quat q = pose.q_WB.normalized();
  if (std::abs(pose.p_WB.y()) > kPlanarTolerance)
    throw Error(
        fmt::format("body {}: a planar world (dimension 2) keeps bodies in the plane "
                    "y = 0 (got y = {} m)",
                    name, pose.p_WB.y()));
  if (std::abs(q.x()) > kPlanarTolerance || std::abs(q.z()) > kPlanarTolerance)
    throw Error(
        fmt::format("body {}: a planar world (dimension 2) turns bodies about y only", name));
  if (std::abs(twist(0)) > kPlanarTolerance || std::abs(twist(2)) > kPlanarTolerance ||
      std::abs(twist(4)) > kPlanarTolerance)
    throw Error(
        fmt::format("body {}: a planar world (dimension 2) needs a velocity in the plane "
                    "(ω along y, v with y = 0)",
                    name));
}

void World::check_planar_joint(JointType type, const std::string& name, const Vec3* axis) const {
  if (settings_.dimension != 2) return;
  const std::string what = fmt::format("joint {}", pivot::quoted(name));
  switch (type) {
    case JointType::hinge:
      if (axis && std::abs(axis->normalized().y()) < 1.0 - 1e-12)
        throw Error(
            fmt::format("{}: a hinge in a planar world (dimension 2) turns about ±y (a "
                        "revolute joint)",
                        what));
      return;
    case JointType::slider:
      if (axis && std::abs(axis->normalized().y()) > 1e-12)
        throw Error(
            fmt::format("{}: a slider in a planar world (dimension 2) slides along the "
                        "x–z plane (a prismatic joint)",
                        what));
      return;
    case JointType::fixed:
      return;
    case JointType::ball:
    case JointType::universal:
    case JointType::planar:
      break;
  }
  throw Error(
      fmt::format("{}: a planar world (dimension 2) has revolute (hinge about y), "
                  "prismatic (slider) and fixed joints, not a {} joint",
                  what, to_string(type)));
}

void World::project_on_plane() {
  for (int i = 0; i < set_.size(); ++i) {
    if (set_.body(i).fixed) continue;
    set_.position(i).y() = 0.0;
    auto q = set_.orientation(i);  // exact zeros already for a body that stayed in the plane
    q.x() = 0.0;
    q.z() = 0.0;
    auto V = set_.twist(i);
    V(0) = 0.0;
    V(2) = 0.0;
    V(4) = 0.0;
  }
}

}  // namespace pivot
