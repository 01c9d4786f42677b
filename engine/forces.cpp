#include "pivot/engine/forces.hpp"

#include <array>
#include <cmath>

#include "pivot/core/error.hpp"

namespace pivot {

Eigen::Matrix<double, 3, 6> point_jacobian(const Vec3& r) {
  Eigen::Matrix<double, 3, 6> J;
  J.leftCols<3>() = -skew(r);
  J.rightCols<3>() = Mat3::Identity();
  return J;
}

void add_gradient_block(Triplets& t, int row_body, int col_body, const Mat6& block) {
  for (int i = 0; i < 6; ++i)
    for (int j = 0; j < 6; ++j)
      if (block(i, j) != 0.0) t.emplace_back(6 * row_body + i, 6 * col_body + j, block(i, j));
}

namespace {

class ConstantForce final : public ExternalForce {
 public:
  explicit ConstantForce(const ConstantForceSettings& s) : s_(s) {}
  void apply(const RigidBodySet& /*set*/, double /*t*/, Eigen::VectorXd& w) const override {
    w.segment<3>(6 * s_.body) += s_.torque;
    w.segment<3>(6 * s_.body + 3) += s_.force;
  }
  [[nodiscard]] std::span<const int> coupled_bodies() const override { return {&s_.body, 1}; }

 private:
  ConstantForceSettings s_;
};

class Spring final : public ExternalForce {
 public:
  explicit Spring(const SpringSettings& s)
      : s_(s), bodies_{s.body_a, s.body_b}, coupled_(s.body_b >= 0 ? 2 : 1) {}

  // ½ k (L − L₀)²
  [[nodiscard]] double potential_energy(const RigidBodySet& set) const override {
    const double stretch = spring_length(set, s_) - s_.rest_length;
    return 0.5 * s_.stiffness * stretch * stretch;
  }

  void apply(const RigidBodySet& set, double /*t*/, Eigen::VectorXd& w) const override {
    const Geometry g = geometry(set);
    if (g.length <= 0.0) return;  // coincident points: no direction, no force
    const double rate = g.n.dot(g.u);
    const Vec3 F_A = (s_.stiffness * (g.length - s_.rest_length) + s_.damping * rate) * g.n;
    add_wrench(w, s_.body_a, g.r_a, F_A);
    if (s_.body_b >= 0) add_wrench(w, s_.body_b, g.r_b, -F_A);
  }

  // Gradients, with d = p_B − p_A, L = |d|, n = d/L, F_A = F(d) + c (n·u) n:
  //   ∂F/∂d = k [(1 − L₀/L) I + (L₀/L) n nᵀ]        (elastic part; exact)
  //   δd = J_B δp_B − J_A δp_A,  wrench on A: W_A = J_Aᵀ F_A, on B: W_B = −J_Bᵀ F_A,
  //   plus the lever arm turning with the body: δτ_A = δr_A × F_A = [F_A][r_A] δθ_A.
  //   ∂(c (n·u) n)/∂v = c n nᵀ (J_B δv_B − J_A δv_A)   (the damping force's dependence on the
  //   direction n through positions is neglected).
  bool add_gradients(const RigidBodySet& set, double /*t*/, Triplets& dfdp,
                     Triplets& dfdv) const override {
    const Geometry g = geometry(set);
    if (g.length <= 0.0) return true;
    const double rate = g.n.dot(g.u);
    const Vec3 F_A = (s_.stiffness * (g.length - s_.rest_length) + s_.damping * rate) * g.n;
    const Mat3 nn = g.n * g.n.transpose();
    const Mat3 dF_dd = s_.stiffness * ((1.0 - s_.rest_length / g.length) * Mat3::Identity() +
                                       (s_.rest_length / g.length) * nn);
    const Mat3 dFd_du = s_.damping * nn;
    const auto J_A = point_jacobian(g.r_a);
    const auto J_B = point_jacobian(g.r_b);
    const int a = s_.body_a, b = s_.body_b;
    // wrench on A
    add_gradient_block(dfdp, a, a, -J_A.transpose() * dF_dd * J_A);
    Mat6 lever = Mat6::Zero();
    lever.topLeftCorner<3, 3>() = skew(F_A) * skew(g.r_a);
    add_gradient_block(dfdp, a, a, lever);
    add_gradient_block(dfdv, a, a, -J_A.transpose() * dFd_du * J_A);
    if (b >= 0) {
      add_gradient_block(dfdp, a, b, J_A.transpose() * dF_dd * J_B);
      add_gradient_block(dfdv, a, b, J_A.transpose() * dFd_du * J_B);
      // wrench on B is −J_Bᵀ F_A; its lever arm term has −F_A
      add_gradient_block(dfdp, b, a, J_B.transpose() * dF_dd * J_A);
      add_gradient_block(dfdp, b, b, -J_B.transpose() * dF_dd * J_B);
      Mat6 lever_b = Mat6::Zero();
      lever_b.topLeftCorner<3, 3>() = skew(-F_A) * skew(g.r_b);
      add_gradient_block(dfdp, b, b, lever_b);
      add_gradient_block(dfdv, b, a, J_B.transpose() * dFd_du * J_A);
      add_gradient_block(dfdv, b, b, -J_B.transpose() * dFd_du * J_B);
    }
    return true;
  }

  [[nodiscard]] std::span<const int> coupled_bodies() const override {
    return {bodies_.data(), coupled_};
  }

 private:
  struct Geometry {
    Vec3 r_a, r_b;  // COM → attachment point, world
    Vec3 n;         // unit direction A → B
    Vec3 u;         // relative velocity of the points, ṗ_B − ṗ_A
    double length = 0.0;
  };

  Geometry geometry(const RigidBodySet& set) const {
    Geometry g;
    const Pose A = set.pose(s_.body_a);
    g.r_a = A.rotate(s_.p_APa);
    const Vec3 p_a = A.p_WB + g.r_a;
    const Vec6 t_a = set.twist(s_.body_a);
    const Vec3 pdot_a = t_a.tail<3>() + t_a.head<3>().cross(g.r_a);
    Vec3 p_b = s_.p_BPb, pdot_b = Vec3::Zero();
    g.r_b = Vec3::Zero();
    if (s_.body_b >= 0) {
      const Pose B = set.pose(s_.body_b);
      g.r_b = B.rotate(s_.p_BPb);
      p_b = B.p_WB + g.r_b;
      const Vec6 t_b = set.twist(s_.body_b);
      pdot_b = t_b.tail<3>() + t_b.head<3>().cross(g.r_b);
    }
    const Vec3 d = p_b - p_a;
    g.length = d.norm();
    g.n = g.length > 0.0 ? Vec3(d / g.length) : Vec3::Zero();
    g.u = pdot_b - pdot_a;
    return g;
  }

  static void add_wrench(Eigen::VectorXd& w, int body, const Vec3& r, const Vec3& F) {
    w.segment<3>(6 * body) += r.cross(F);
    w.segment<3>(6 * body + 3) += F;
  }

  SpringSettings s_;
  std::array<int, 2> bodies_;  // A, B (B: −1 for the world)
  std::size_t coupled_;        // 2, or 1 with the world
};

class CallbackForce final : public ExternalForce {
 public:
  explicit CallbackForce(ForceCallback f) : f_(std::move(f)) {}
  void apply(const RigidBodySet& set, double t, Eigen::VectorXd& w) const override {
    f_(set, t, w);
  }

 private:
  ForceCallback f_;
};

}  // namespace

std::unique_ptr<ExternalForce> make_constant_force(const ConstantForceSettings& s) {
  if (!s.force.allFinite() || !s.torque.allFinite())
    throw Error("constant force: force and torque must be finite");
  return std::make_unique<ConstantForce>(s);
}

std::unique_ptr<ExternalForce> make_spring(const SpringSettings& s) {
  if (!s.p_APa.allFinite() || !s.p_BPb.allFinite())
    throw Error("spring: attachment points must be finite");
  for (double x : {s.stiffness, s.damping, s.rest_length})
    if (!(x >= 0.0) || !std::isfinite(x))
      throw Error("spring: stiffness, damping and rest_length must be finite and >= 0");
  if (s.body_a < 0) throw Error("spring: body_a must be a body (not the world)");
  if (s.body_a == s.body_b) throw Error("spring: body_a and body_b must differ");
  return std::make_unique<Spring>(s);
}

std::unique_ptr<ExternalForce> make_callback_force(ForceCallback callback) {
  if (!callback) throw Error("force callback is empty");
  return std::make_unique<CallbackForce>(std::move(callback));
}

double spring_length(const RigidBodySet& set, const SpringSettings& s) {
  const Vec3 p_a = set.pose(s.body_a).to_world(s.p_APa);
  const Vec3 p_b = s.body_b >= 0 ? set.pose(s.body_b).to_world(s.p_BPb) : s.p_BPb;
  return (p_b - p_a).norm();
}

}  // namespace pivot
