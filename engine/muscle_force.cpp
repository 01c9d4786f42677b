#include "pivot/engine/muscle_force.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "pivot/core/error.hpp"

namespace pivot {
namespace {

bool finite_non_negative(double x) {
  return std::isfinite(x) && x >= 0.0;
}

void add_angular_block(Triplets& t, int row_body, int col_body, const Mat3& block) {
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j)
      if (block(i, j) != 0.0) t.emplace_back(6 * row_body + i, 6 * col_body + j, block(i, j));
}

}  // namespace

MuscleForce::MuscleForce(std::vector<MuscleJoint> joints, MuscleTable table, MuscleGains gains)
    : joints_(std::move(joints)), table_(std::move(table)) {
  if (!(table_.dt > 0.0) || !std::isfinite(table_.dt) || !std::isfinite(table_.t0) ||
      !std::isfinite(table_.position_lead) || !std::isfinite(table_.velocity_lead))
    throw Error("muscles: the table's time step must be positive and finite");
  if (table_.samples.empty()) throw Error("muscles: the table has no samples");
  for (std::size_t k = 0; k < table_.samples.size(); ++k) {
    if (table_.samples[k].size() != joints_.size())
      throw Error("muscles: sample " + std::to_string(k) + " has " +
                  std::to_string(table_.samples[k].size()) + " joints, expected " +
                  std::to_string(joints_.size()));
    for (const MuscleSample& s : table_.samples[k])
      if (!s.psi_P.allFinite() || !s.q_PC.coeffs().allFinite() || !s.w_PC_P.allFinite())
        throw Error("muscles: sample " + std::to_string(k) + " is not finite");
  }
  for (std::size_t j = 0; j < joints_.size(); ++j)
    for (const Vec3& a : joints_[j].axes_P)
      if (!a.allFinite() || std::abs(a.norm() - 1.0) > 1e-9)
        throw Error("muscles: joint " + std::to_string(j) + ": an axis is not a unit vector");
  for (const MuscleJoint& J : joints_) {
    coupled_.push_back(J.child);
    coupled_.push_back(J.parent);
  }
  std::sort(coupled_.begin(), coupled_.end());
  coupled_.erase(std::unique(coupled_.begin(), coupled_.end()), coupled_.end());
  set_gains(gains);
}

void MuscleForce::set_gains(const MuscleGains& gains) {
  if (!finite_non_negative(gains.stiffness) || !finite_non_negative(gains.damping) ||
      !finite_non_negative(gains.min_torque))
    throw Error("muscles: stiffness, damping and min_torque must be finite and >= 0");
  gains_ = gains;
}

MuscleSample MuscleForce::sample(int joint, double t) const {
  const auto n = static_cast<long>(table_.samples.size());
  const double s = (t - table_.t0) / table_.dt;
  if (!(s > 0.0)) return table_.samples.front()[joint];
  if (s >= static_cast<double>(n - 1)) return table_.samples.back()[joint];
  long k = static_cast<long>(std::floor(s));
  double u = s - static_cast<double>(k);
  // a time within rounding of a sample is that sample, bit for bit
  if (u < 1e-9) u = 0.0;
  if (u > 1.0 - 1e-9) {
    ++k;
    u = 0.0;
  }
  const MuscleSample& a = table_.samples[k][joint];
  if (u == 0.0) return a;
  const MuscleSample& b = table_.samples[k + 1][joint];
  MuscleSample out;
  out.psi_P = (1.0 - u) * a.psi_P + u * b.psi_P;
  out.w_PC_P = (1.0 - u) * a.w_PC_P + u * b.w_PC_P;
  out.q_PC = a.q_PC.slerp(u, b.q_PC);
  return out;
}

// τ_W = R_WP Σ_i a_i (ψ_i + g_i (k_s a_i·e_P + k_d a_i·ė_P))   (Cline eqs. 5.6–5.8)
Vec3 MuscleForce::torque_W(const RigidBodySet& set, int joint, double t) const {
  const MuscleJoint& J = joints_[joint];
  const MuscleSample d = sample(joint, t);
  const Quat q_PC_d = sample(joint, t + table_.position_lead).q_PC;
  const Vec3 w_PC_d = sample(joint, t + table_.velocity_lead).w_PC_P;
  const Quat q_WP(set.orientation(J.parent));
  const Quat q_WC(set.orientation(J.child));
  const Quat q_PC = q_WP.conjugate() * q_WC;
  const Vec3 e_P = quat_log(q_PC_d * q_PC.conjugate());
  const Vec3 w_PC_P =
      q_WP.conjugate() * Vec3(set.twist(J.child).head<3>() - set.twist(J.parent).head<3>());
  const Vec3 edot_P = w_PC_d - w_PC_P;
  Vec3 tau_P = Vec3::Zero();
  for (const Vec3& a : J.axes_P) {
    const double psi = a.dot(d.psi_P);
    const double g = std::max(std::abs(psi), gains_.min_torque);
    tau_P += a * (psi + g * (gains_.stiffness * a.dot(e_P) + gains_.damping * a.dot(edot_P)));
  }
  return q_WP * tau_P;
}

double MuscleForce::angle_error(const RigidBodySet& set, int joint, double t) const {
  const MuscleJoint& J = joints_[joint];
  const Quat q_PC = Quat(set.orientation(J.parent)).conjugate() * Quat(set.orientation(J.child));
  return quat_log(sample(joint, t).q_PC * q_PC.conjugate()).norm();
}

void MuscleForce::apply(const RigidBodySet& set, double t, Eigen::VectorXd& w) const {
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const Vec3 tau = torque_W(set, static_cast<int>(j), t);
    w.segment<3>(6 * joints_[j].child) += tau;
    w.segment<3>(6 * joints_[j].parent) -= tau;
  }
}

bool MuscleForce::add_gradients(const RigidBodySet& set, double t, Triplets& dfdp,
                                Triplets& dfdv) const {
  for (std::size_t j = 0; j < joints_.size(); ++j) {
    const MuscleJoint& J = joints_[j];
    const MuscleSample d = sample(static_cast<int>(j), t);
    Mat3 G = Mat3::Zero();
    for (const Vec3& a : J.axes_P)
      G += std::max(std::abs(a.dot(d.psi_P)), gains_.min_torque) * a * a.transpose();
    const Mat3 R_WP = Quat(set.orientation(J.parent)).toRotationMatrix();
    const Mat3 K = R_WP * G * R_WP.transpose();
    const bool c_moves = !set.body(J.child).fixed;
    const bool p_moves = !set.body(J.parent).fixed;
    // rows: the torque on C (+τ_W) and on P (−τ_W); columns: C's and P's rotation and ω
    if (c_moves) {
      add_angular_block(dfdp, J.child, J.child, -gains_.stiffness * K);
      add_angular_block(dfdv, J.child, J.child, -gains_.damping * K);
    }
    if (p_moves) {
      add_angular_block(dfdp, J.parent, J.parent, -gains_.stiffness * K);
      add_angular_block(dfdv, J.parent, J.parent, -gains_.damping * K);
    }
    if (c_moves && p_moves) {
      add_angular_block(dfdp, J.child, J.parent, gains_.stiffness * K);
      add_angular_block(dfdp, J.parent, J.child, gains_.stiffness * K);
      add_angular_block(dfdv, J.child, J.parent, gains_.damping * K);
      add_angular_block(dfdv, J.parent, J.child, gains_.damping * K);
    }
  }
  return true;
}

void MuscleForce::time_step_changed(double old_h, double new_h) {
  if (!(old_h > 0.0) || !(new_h > 0.0)) return;  // World::set_time_step checks new_h
  table_.position_lead *= new_h / old_h;
  table_.velocity_lead *= new_h / old_h;
}

}  // namespace pivot
