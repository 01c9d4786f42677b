#include "pivot/engine/pull_force.hpp"

#include <cmath>

#include "pivot/core/error.hpp"

namespace pivot {

void PullForce::start(const PullSettings& s) {
  if (!s.p_BP.allFinite() || !s.p_WT.allFinite())
    throw Error("pull: the grabbed point and the target must be finite");
  if (!(s.stiffness >= 0.0) || !std::isfinite(s.stiffness) || !(s.damping >= 0.0) ||
      !std::isfinite(s.damping))
    throw Error("pull: stiffness and damping must be finite and >= 0");
  if (s.body < 0) throw Error("pull: needs a body, not the world");
  s_ = s;
  active_ = true;
}

void PullForce::move(const Vec3& p_WT) {
  if (!p_WT.allFinite()) throw Error("pull: the target must be finite");
  s_.p_WT = p_WT;
}

Vec3 PullForce::force(const RigidBodySet& set) const {
  if (!active_ || s_.body >= set.size()) return Vec3::Zero();
  const Pose X = set.pose(s_.body);
  const Vec3 r = X.rotate(s_.p_BP);
  const Vec6 V = set.twist(s_.body);
  const Vec3 pdot = V.tail<3>() + V.head<3>().cross(r);
  return s_.stiffness * (s_.p_WT - (X.p_WB + r)) - s_.damping * pdot;
}

void PullForce::apply(const RigidBodySet& set, double /*t*/, Eigen::VectorXd& w) const {
  if (!active_ || s_.body >= set.size()) return;
  const Vec3 r = set.pose(s_.body).rotate(s_.p_BP);
  const Vec3 F = force(set);
  w.segment<3>(6 * s_.body) += r.cross(F);
  w.segment<3>(6 * s_.body + 3) += F;
}

bool PullForce::add_gradients(const RigidBodySet& set, double /*t*/, Triplets& dfdp,
                              Triplets& dfdv) const {
  if (!active_ || s_.body >= set.size()) return false;
  const Vec3 r = set.pose(s_.body).rotate(s_.p_BP);
  const Vec3 F = force(set);
  const auto J = point_jacobian(r);
  const Mat6 JtJ = J.transpose() * J;
  Mat6 dp = -s_.stiffness * JtJ;
  dp.topLeftCorner<3, 3>() += skew(F) * skew(r);
  add_gradient_block(dfdp, s_.body, s_.body, dp);
  add_gradient_block(dfdv, s_.body, s_.body, Mat6(-s_.damping * JtJ));
  return true;
}

std::span<const int> PullForce::coupled_bodies() const {
  if (!active_) return {};
  return {&s_.body, 1};
}

double PullForce::potential_energy(const RigidBodySet& set) const {
  if (!active_ || s_.body >= set.size()) return 0.0;
  const Pose X = set.pose(s_.body);
  return 0.5 * s_.stiffness * (s_.p_WT - X.to_world(s_.p_BP)).squaredNorm();
}

}  // namespace pivot
