#include "pivot/engine/rigid_body_set.hpp"

#include <fmt/core.h>

#include "pivot/core/error.hpp"

namespace pivot {

void RigidBodySet::out_of_range(int i) const {
  throw Error(fmt::format("body index {} is out of range (the set has {} bodies)", i, size()));
}

int RigidBodySet::add(RigidBody model, const Pose& pose, const Vec6& twist) {
  const int i = size();
  const bool fixed = model.fixed;
  by_name_.try_emplace(model.name, i);
  bodies_.push_back(std::move(model));
  p_.conservativeResize(7 * (i + 1));
  v_.conservativeResize(6 * (i + 1));
  set_pose(i, pose);
  v_.segment<6>(6 * i) = fixed ? Vec6::Zero() : twist;
  return i;
}

int RigidBodySet::find(const std::string& name) const {
  const auto it = by_name_.find(name);
  return it == by_name_.end() ? -1 : it->second;
}

void RigidBodySet::set_pose(int i, const Pose& pose) {
  position(i) = pose.p_WB;
  orientation(i) = pose.q_WB.normalized();
}

Mat6 RigidBodySet::mass_matrix(int i) const {
  const RigidBody& b = body(i);
  Mat6 M = Mat6::Zero();
  if (b.fixed) return M;
  M.topLeftCorner<3, 3>() = b.inertia_W(Quat(orientation(i)));
  M.bottomRightCorner<3, 3>() = b.mass * Mat3::Identity();
  return M;
}

Mat6 RigidBodySet::inverse_mass_matrix(int i) const {
  const RigidBody& b = body(i);
  Mat6 W = Mat6::Zero();
  if (b.fixed) return W;
  W.topLeftCorner<3, 3>() = b.inverse_inertia_W(Quat(orientation(i)));
  W.bottomRightCorner<3, 3>() = b.inverse_mass * Mat3::Identity();
  return W;
}

double RigidBodySet::kinetic_energy(int i) const {
  const Vec6 t = twist(i);
  return 0.5 * t.dot(mass_matrix(i) * t);
}

}  // namespace pivot
