#pragma once
// RigidBodySet: the one store of every body's model and state (Cline 2002 §4.3).
//
// State, stacked over bodies i = 0 … n−1:
//   positions  p: 7 per body, [x y z | qx qy qz qw] — the centre of mass in world, then the
//                 body→world quaternion in Eigen's coefficient order (x, y, z, w)
//   velocities v: 6 per body, [ωx ωy ωz | vx vy vz] — angular first, world-aligned at the COM
// Bodies, constraints and the step read and write through views (Eigen::Map) of these two
// vectors; nothing is copied per step. Fixed bodies keep zero velocity.

#include <string>
#include <unordered_map>
#include <vector>

#include "pivot/core/spatial.hpp"
#include "pivot/engine/rigid_body.hpp"

namespace pivot {

class RigidBodySet {
 public:
  /// adds a body with its initial pose and twist (ω; v); returns its index
  int add(RigidBody model, const Pose& pose, const Vec6& twist);

  [[nodiscard]] int size() const { return static_cast<int>(bodies_.size()); }
  [[nodiscard]] const RigidBody& body(int i) const { return bodies_[check(i)]; }
  /// index of the (first) body with this name, or −1; a hash lookup, so adding N uniquely
  /// named bodies costs O(N), not O(N²)
  [[nodiscard]] int find(const std::string& name) const;

  // views of the stacked state
  [[nodiscard]] Eigen::Map<Vec3> position(int i) { return Eigen::Map<Vec3>(&p_[7 * check(i)]); }
  [[nodiscard]] Eigen::Map<const Vec3> position(int i) const {
    return Eigen::Map<const Vec3>(&p_[7 * check(i)]);
  }
  [[nodiscard]] Eigen::Map<Quat> orientation(int i) {
    return Eigen::Map<Quat>(&p_[7 * check(i) + 3]);
  }
  [[nodiscard]] Eigen::Map<const Quat> orientation(int i) const {
    return Eigen::Map<const Quat>(&p_[7 * check(i) + 3]);
  }
  /// twist (ω; v) of body i
  [[nodiscard]] Eigen::Map<Vec6> twist(int i) { return Eigen::Map<Vec6>(&v_[6 * check(i)]); }
  [[nodiscard]] Eigen::Map<const Vec6> twist(int i) const {
    return Eigen::Map<const Vec6>(&v_[6 * check(i)]);
  }
  /// pose of body i; the identity pose for kWorldBody (−1)
  [[nodiscard]] Pose pose(int i) const {
    if (i < 0) return Pose{};
    return Pose{position(i), Quat(orientation(i))};
  }
  void set_pose(int i, const Pose& pose);

  [[nodiscard]] const Eigen::VectorXd& positions() const { return p_; }
  [[nodiscard]] const Eigen::VectorXd& velocities() const { return v_; }

  /// the body's 6×6 block of M: blockdiag(R I_B Rᵀ, m I₃)  (Cline eq. 2.29)
  [[nodiscard]] Mat6 mass_matrix(int i) const;
  /// its inverse (zero for fixed bodies)
  [[nodiscard]] Mat6 inverse_mass_matrix(int i) const;
  /// ½ vᵀ M v of body i
  [[nodiscard]] double kinetic_energy(int i) const;

 private:
  /// i when it indexes a body (inline: every view goes through it), else throws pivot::Error
  [[nodiscard]] int check(int i) const {
    if (i < 0 || i >= size()) [[unlikely]]
      out_of_range(i);
    return i;
  }
  [[noreturn]] void out_of_range(int i) const;
  std::vector<RigidBody> bodies_;
  std::unordered_map<std::string, int> by_name_;  // each name's first body
  Eigen::VectorXd p_;
  Eigen::VectorXd v_;
};

}  // namespace pivot
